// createMcpServer as an app embeds it, driven by the official MCP client over the SDK's in-memory
// transport, against the mock server. The bin and its transports: bin.test.ts.
import {
  Client,
  type ClientOptions,
  ConfigurationError,
  EmployeeRecognitionError,
} from '@employee-recognition/sdk';
import { type MockServer, startMockServer } from '@employee-recognition/sdk/testing';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMcpServer, type McpServerOptions, ToolSelectionError } from '../src/index.js';
import {
  call,
  callEveryTool,
  dataOf,
  errorOf,
  expectNoSecret,
  type ToolResult,
} from './support/calls.js';

const READ_TOOLS = [
  'recognitions_list',
  'recognitions_get',
  'users_list',
  'users_get',
  'rewards_list',
  'rewards_get',
  'teams_list',
  'teams_get',
  'webhooks_list',
  'webhooks_get',
  'budgets_list',
  'budgets_get',
  'analytics_summary',
];
const WRITE_TOOLS = [
  'recognitions_create',
  'recognitions_delete',
  'webhooks_create',
  'webhooks_update',
  'webhooks_delete',
];
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

let mock: MockServer;
const clients: McpClient[] = [];
const results: ToolResult[] = [];

beforeAll(async () => {
  mock = await startMockServer({ recognitions: 45 });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  mock.api.reset();
});
afterAll(async () => {
  // Every result any test received: no credential in any of them.
  for (const result of results) expectNoSecret(JSON.stringify(result), mock.api.testKey);
  await mock.close();
});

/** An MCP client connected to a server embedded with these options, over the in-memory pair. */
async function connect(
  options: McpServerOptions = {},
  clientOptions: ClientOptions = {},
): Promise<McpClient> {
  const sdk = new Client({
    apiKey: mock.api.testKey,
    baseUrl: mock.url,
    ...clientOptions,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(sdk, options).connect(serverSide);
  const client = new McpClient({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  const callTool = client.callTool.bind(client);
  // Kept for the secrets scan in afterAll.
  client.callTool = async (...args) => {
    const result = await callTool(...args);
    results.push(result as ToolResult);
    return result;
  };
  return client;
}

async function toolNames(options?: McpServerOptions): Promise<string[]> {
  const client = await connect(options);
  return (await client.listTools()).tools.map((tool) => tool.name);
}

describe('which tools are offered', () => {
  it('offers the 13 read tools by default, and the 5 writes too with allowWrites', async () => {
    expect(await toolNames()).toEqual(READ_TOOLS);
    const all = await toolNames({ allowWrites: true });
    expect(all).toHaveLength(18);
    expect(all.filter((name) => !READ_TOOLS.includes(name))).toEqual(WRITE_TOOLS);
  });

  it('narrows by tools, resources and excludeTools', async () => {
    expect(await toolNames({ resources: ['users', 'teams'] })).toEqual([
      'users_list',
      'users_get',
      'teams_list',
      'teams_get',
    ]);
    expect(await toolNames({ tools: ['analytics_summary', 'users_get'] })).toEqual([
      'users_get',
      'analytics_summary',
    ]);
    expect(
      await toolNames({
        allowWrites: true,
        resources: ['webhooks'],
        excludeTools: ['webhooks_delete'],
      }),
    ).toEqual(['webhooks_list', 'webhooks_create', 'webhooks_get', 'webhooks_update']);
  });

  it('refuses a name no tool or resource has, and a write named without allowWrites', () => {
    expect(() =>
      createMcpServer(new Client({ apiKey: mock.api.testKey }), { tools: ['recognitions_lst'] }),
    ).toThrow(ToolSelectionError);
    const client = new Client({ apiKey: mock.api.testKey });
    expect(() => createMcpServer(client, { resources: ['kudos'] })).toThrow(/kudos/);
    expect(() => createMcpServer(client, { tools: ['recognitions_create'] })).toThrow(
      /recognitions_create change data/,
    );
  });

  it('refuses a selection with a ConfigurationError of the SDK that names the option', () => {
    const client = new Client({ apiKey: mock.api.testKey });
    const refusal = (options: McpServerOptions) => {
      try {
        createMcpServer(client, options);
      } catch (error) {
        return error;
      }
      throw new Error('the selection was accepted');
    };
    for (const [options, option] of [
      [{ tools: ['recognitions_lst'] }, 'tools'],
      [{ excludeTools: ['users_lst'] }, 'excludeTools'],
      [{ resources: ['kudos'] }, 'resources'],
      [{ tools: ['recognitions_create'] }, 'tools'],
    ] as const) {
      const error = refusal(options);
      expect(error).toBeInstanceOf(ToolSelectionError);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error).toBeInstanceOf(EmployeeRecognitionError);
      expect(error).toMatchObject({ name: 'ToolSelectionError', option });
    }
  });

  it('does not run a tool it does not offer: a protocol error, as for an unknown tool', async () => {
    const client = await connect();
    await expect(
      client.callTool({ name: 'recognitions_delete', arguments: { id: MISSING_ID } }),
    ).rejects.toThrow(/No tool is named recognitions_delete/);
  });

  it('describes each tool with annotations that match what it does', async () => {
    const { tools } = await (await connect({ allowWrites: true })).listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of READ_TOOLS) expect(byName.get(name)!.annotations?.readOnlyHint).toBe(true);
    for (const name of ['recognitions_delete', 'webhooks_delete']) {
      expect(byName.get(name)!.annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
      });
    }
    for (const name of ['recognitions_create', 'webhooks_create']) {
      expect(byName.get(name)!.annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
      });
      expect(byName.get(name)!.inputSchema.properties).toHaveProperty('idempotency_key');
    }
    for (const tool of tools) {
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.outputSchema).toMatchObject({ type: 'object' });
      expect(tool.description).toMatch(/`(GET|POST|PATCH|DELETE) \/v1\//);
    }
    // The bounds the SDK enforces, as its openapi.json states them.
    expect(byName.get('recognitions_create')!.inputSchema.properties).toMatchObject({
      points: { type: 'integer', minimum: 0, maximum: 1000 },
      message: { type: 'string', minLength: 1, maxLength: 500 },
      recipient_id: { type: 'string', format: 'uuid' },
    });
    expect(byName.get('recognitions_list')!.inputSchema.properties).toMatchObject({
      limit: { type: 'integer', minimum: 1, maximum: 100 },
      cursor: { type: 'string' },
    });
  });
});

describe('calls', () => {
  it('calls each of the 18 tools once, each result checked against its output schema', async () => {
    const client = await connect({ allowWrites: true });
    await callEveryTool(client, mock);
  });

  it('pages through a whole list with cursor alone: every record once, filters kept', async () => {
    const client = await connect();
    const sender = mock.api.store.recognitions.all()[0]!.sender.id;
    const expected = mock.api.store.recognitions
      .all()
      .filter((recognition) => recognition.sender.id === sender)
      .map((recognition) => recognition.id);
    expect(expected.length).toBeGreaterThan(2);
    const seen: string[] = [];
    let page = dataOf(await call(client, 'recognitions_list', { sender_id: sender, limit: 2 }));
    for (;;) {
      seen.push(...(page.data as { id: string }[]).map((recognition) => recognition.id));
      if (page.next_cursor === null) break;
      page = dataOf(await call(client, 'recognitions_list', { cursor: page.next_cursor }));
    }
    expect(seen.sort()).toEqual(expected.sort());
  });

  it('accepts the same filters again beside a cursor, and a new limit', async () => {
    const client = await connect();
    const first = dataOf(await call(client, 'users_list', { limit: 2 }));
    const second = dataOf(
      await call(client, 'users_list', { cursor: first.next_cursor, limit: 3 }),
    );
    expect(second.data).toHaveLength(3);
    expect(second.data).not.toContainEqual((first.data as unknown[])[0]);
  });

  it('refuses a cursor it did not make, one of another list, and other filters beside it', async () => {
    const client = await connect();
    const users = dataOf(await call(client, 'users_list', { limit: 2 }));
    for (const cursor of ['not-a-cursor', users.next_cursor]) {
      const error = errorOf(await call(client, 'teams_list', { cursor }));
      expect(error).toMatchObject({ status: 422, sent: false, details: [{ field: 'cursor' }] });
    }
    const recognitions = dataOf(await call(client, 'recognitions_list', { limit: 2 }));
    const error = errorOf(
      await call(client, 'recognitions_list', {
        cursor: recognitions.next_cursor,
        sender_id: MISSING_ID,
      }),
    );
    expect(error.details).toEqual([
      { field: 'sender_id', message: expect.stringMatching(/cursor/) },
    ]);
  });

  it('refuses bad arguments before any request, naming each field', async () => {
    const client = await connect({ allowWrites: true });
    const sent = mock.api.requests.length;
    const cases: [string, Record<string, unknown>, string[]][] = [
      ['recognitions_get', {}, ['id']],
      ['recognitions_get', { id: MISSING_ID, verbose: true }, ['verbose']],
      ['recognitions_create', { message: 'Thanks' }, ['recipient_id']],
      [
        'recognitions_create',
        { recipient_id: 'ada', message: '   ', points: 5000 },
        ['recipient_id', 'message', 'points'],
      ],
      ['recognitions_create', { recipient_id: MISSING_ID, message: 'Hi', points: 1.5 }, ['points']],
      [
        'recognitions_create',
        { recipient_id: MISSING_ID, message: 'Hi', idempotency_key: '' },
        ['idempotency_key'],
      ],
      ['recognitions_list', { limit: 500 }, ['limit']],
      ['recognitions_list', { from: 'last week' }, ['from']],
      ['analytics_summary', { period: '400d' }, ['period']],
      ['webhooks_create', { url: 'hooks.example.com/in', events: [] }, ['url', 'events']],
      ['webhooks_create', { url: 'http://hooks.example.com', events: ['*'] }, ['url']],
      ['webhooks_update', { id: MISSING_ID, enabled: 'yes' }, ['enabled']],
    ];
    for (const [name, args, fields] of cases) {
      const error = errorOf(await call(client, name, args));
      expect(error.sent, name).toBe(false);
      expect(
        (error.details as { field: string }[]).map((detail) => detail.field),
        name,
      ).toEqual(fields);
      expect(error).not.toHaveProperty('stack');
    }
    expect(mock.api.requests.length).toBe(sent);
  });

  it('refuses a malformed id in every tool that takes one, as its schema says (format uuid), sending nothing', async () => {
    const client = await connect({ allowWrites: true });
    const { tools } = await client.listTools();
    const withId = tools.filter((tool) => 'id' in (tool.inputSchema.properties ?? {}));
    expect(withId.map((tool) => tool.name).sort()).toEqual(
      [
        'budgets_get',
        'recognitions_delete',
        'recognitions_get',
        'rewards_get',
        'teams_get',
        'users_get',
        'webhooks_delete',
        'webhooks_get',
        'webhooks_update',
      ].sort(),
    );
    const sent = mock.api.requests.length;
    for (const tool of withId) {
      expect(tool.inputSchema.properties!.id).toMatchObject({ format: 'uuid' });
      for (const id of [
        'nope',
        `${MISSING_ID}x`,
        '../v1/users',
        MISSING_ID.replaceAll('-', ''),
        42,
      ]) {
        const error = errorOf(await call(client, tool.name, { id }));
        expect(error, `${tool.name} ${id}`).toMatchObject({
          type: 'UnprocessableEntityError',
          sent: false,
        });
        expect(error.details, `${tool.name} ${id}`).toEqual([
          {
            field: 'id',
            message: typeof id === 'number' ? 'must be string' : 'must match format "uuid"',
          },
        ]);
      }
    }
    // Ids in other arguments too: a recognition's recipient, a list's sender filter.
    const recipient = errorOf(
      await call(client, 'recognitions_create', { recipient_id: 'ada', message: 'Thanks' }),
    );
    expect(recipient.details).toEqual([
      { field: 'recipient_id', message: 'must match format "uuid"' },
    ]);
    const sender = errorOf(await call(client, 'recognitions_list', { sender_id: 'ada' }));
    expect(sender.details).toEqual([{ field: 'sender_id', message: 'must match format "uuid"' }]);
    expect(mock.api.requests.length).toBe(sent);
  });

  it('names one mistake per argument, the alternatives of a date or a date-time joined', async () => {
    const client = await connect();
    const error = errorOf(
      await call(client, 'recognitions_list', { limit: 1000, from: 'yesterday', cursor: 5 }),
    );
    expect(error.details).toEqual([
      { field: 'limit', message: 'must be <= 100' },
      { field: 'cursor', message: 'must be string' },
      { field: 'from', message: 'must match format "date" or must match format "date-time"' },
    ]);
  });

  it('reports a 404 as an isError result with status, code, message and request id', async () => {
    const client = await connect();
    const error = errorOf(await call(client, 'recognitions_get', { id: MISSING_ID }));
    expect(error).toMatchObject({
      type: 'NotFoundError',
      status: 404,
      code: 'not_found',
      request_id: expect.stringMatching(/\S/),
    });
    expect(error.message).toContain(MISSING_ID);
  });

  it('waits out a 429 as the client does, then answers', async () => {
    const client = await connect();
    mock.api.faults.failNext('GET /v1/teams', { status: 429, retryAfter: 1 });
    const teams = dataOf(await call(client, 'teams_list', { limit: 1 }));
    expect(teams.data).toHaveLength(1);
    expect(mock.api.requests.filter((request) => request.path === '/v1/teams')).toHaveLength(2);
  });

  it('reports a 429 whose wait passes the client cap at once, with the wait asked for', async () => {
    const client = await connect();
    mock.api.faults.failNext('GET /v1/users', { status: 429, retryAfter: 3600 });
    const error = errorOf(await call(client, 'users_list'));
    expect(error).toMatchObject({
      type: 'RateLimitError',
      status: 429,
      code: 'rate_limited',
      retry_after_seconds: 3600,
    });
  });

  it('cancels the request when the client cancels the call', async () => {
    const failures: Error[] = [];
    const client = await connect(
      {},
      { hooks: { beforeError: [(error) => void failures.push(error)] } },
    );
    mock.api.faults.delayNext('GET /v1/teams', 60_000);
    const controller = new AbortController();
    const pending = client.callTool({ name: 'teams_list', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await vi.waitFor(() =>
      expect(mock.api.requests.some((r) => r.path === '/v1/teams')).toBe(true),
    );
    controller.abort();
    await expect(pending).rejects.toThrow();
    await vi.waitFor(() =>
      expect(failures.map((error) => error.name)).toEqual(['ApiUserAbortError']),
    );
  });

  it('passes the idempotency key on: a repeated create returns the first recognition', async () => {
    const client = await connect({ allowWrites: true });
    const recipient = mock.api.store.users.all()[1]!;
    const args = {
      recipient_id: recipient.id,
      message: 'Great demo!',
      points: 5,
      idempotency_key: 'demo-thanks',
    };
    const before = mock.api.store.recognitions.size;
    const first = dataOf(await call(client, 'recognitions_create', args));
    const again = dataOf(await call(client, 'recognitions_create', args));
    expect(again).toEqual(first);
    expect(mock.api.store.recognitions.size).toBe(before + 1);
    const conflict = errorOf(
      await call(client, 'recognitions_create', { ...args, message: 'Another message' }),
    );
    expect(conflict).toMatchObject({ status: 409, code: 'conflict' });
  });

  it('withholds the webhook signing secret', async () => {
    const client = await connect({ allowWrites: true });
    const result = await call(client, 'webhooks_create', {
      url: 'https://hooks.example.com/in',
      events: ['*'],
    });
    const { data } = dataOf(result) as { data: { id: string } };
    expect(mock.api.store.webhooks.get(data.id)!.secret).toMatch(/^whsec_/);
    expect(JSON.stringify(result)).not.toMatch(/whsec_|secret"/);
  });

  it('leaves a field of another type out of structuredContent, names it, and keeps the call a success', async () => {
    const client = await connect({}, { validateResponses: 'warn', logLevel: 'off' });
    const user = mock.api.store.users.all()[0]!;
    mock.api.store.users.update(user.id, { points_balance: 'many' as unknown as number });
    const result = await call(client, 'users_get', { id: user.id });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent!.data).toEqual(
      expect.objectContaining({ id: user.id, name: user.name }),
    );
    expect(result.structuredContent!.data).not.toHaveProperty('points_balance');
    const text = (result.content[0] as { text: string }).text;
    expect(text).toMatch(/^Left out of the structured result.*: data\.points_balance\./);
    expect(text).toContain('"points_balance":"many"');
  });

  it('reports a write whose answer has no record as done, with the answer, not as a result', async () => {
    const client = await connect({ allowWrites: true }, { logLevel: 'off' });
    mock.api.faults.failNext('POST /v1/webhooks', { status: 201, body: { data: 'registered' } });
    const error = errorOf(
      await call(client, 'webhooks_create', { url: 'https://hooks.example.com', events: ['*'] }),
    );
    expect(error).toMatchObject({ type: 'InvalidResponseError' });
    expect(error.message).toMatch(/The call succeeded.*"data":"registered"/);
  });
});
