/**
 * The document's examples: real answers of the SDK's mock, on a fixed seed and a frozen clock so
 * that every generation writes the same bytes. Redocly checks each example against its schema,
 * so the mock's answers meet the document here too.
 */
import { WEBHOOK_EVENT_TYPES } from '../../src/contract.js';
import { createMockApi, DEFAULT_REFERENCE_DATE } from '../../src/testing/index.js';

/** Bodies by operationId (success) and by status (errors), plus one event per event type. */
export interface Examples {
  operations: Map<string, unknown>;
  errors: Map<number, unknown>;
  events: Map<string, unknown>;
}

// Example credentials in the documented form; they only ever reach the in-memory mock.
const FULL_KEY = `rk_test_${'Example0'.repeat(4)}`;
const NO_SCOPE_KEY = `rk_test_${'NoScope0'.repeat(4)}`;
const SLOW_KEY = `rk_test_${'SlowTier'.repeat(4)}`;
const EXAMPLE_SECRET = `whsec_${Buffer.from('an example secret, 32 bytes long').toString('base64')}`;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
// Lists are cut to this many records: enough to show the shape.
const LIST_EXAMPLE_LENGTH = 2;

/** Drives the mock through every operation and every error status, and keeps the bodies. */
export async function collectExamples(): Promise<Examples> {
  const now = Date.parse(DEFAULT_REFERENCE_DATE);
  const api = createMockApi({
    now: () => now,
    keys: [
      { key: FULL_KEY, scopes: '*' },
      { key: NO_SCOPE_KEY, scopes: [] },
      { key: SLOW_KEY, scopes: '*', rateLimit: 10 },
    ],
    webhookFetch: async () => new Response(null, { status: 204 }),
  });
  const call = async (
    method: string,
    path: string,
    {
      body,
      key = FULL_KEY,
      headers = {},
    }: { body?: unknown; key?: string | null; headers?: Record<string, string> } = {},
  ) => {
    const response = await api.fetch(path, {
      method,
      headers: {
        ...(key === null ? {} : { authorization: `Bearer ${key}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  };
  const operations = new Map<string, unknown>();
  const keep = async (id: string, method: string, path: string, body?: unknown) => {
    const answer = await call(method, path, { body });
    if (answer.status >= 300)
      throw new Error(`openapi: ${method} ${path} answered ${answer.status}`);
    operations.set(id, shorten(answer.body));
    return answer.body as { data: { id: string }[] & { id: string } };
  };

  try {
    const firstOf = async (id: string, collection: string) => {
      const page = await keep(
        `${collection}_list`,
        'GET',
        `/v1/${collection}?limit=${LIST_EXAMPLE_LENGTH}`,
      );
      const first = page.data[0]!;
      await keep(id, 'GET', `/v1/${collection}/${first.id}`);
      return operations.get(id) as { data: unknown };
    };
    const recognition = await firstOf('recognitions_get', 'recognitions');
    const user = await firstOf('users_get', 'users');
    const reward = await firstOf('rewards_get', 'rewards');
    const team = await firstOf('teams_get', 'teams');
    const users = (operations.get('users_list') as { data: { id: string }[] }).data;
    await keep('budgets_list', 'GET', '/v1/budgets');
    const budgetId = (operations.get('budgets_list') as { data: { id: string }[] }).data[0]!.id;
    const budget = (await keep('budgets_get', 'GET', `/v1/budgets/${budgetId}`)) as {
      data: unknown;
    };
    await keep('analytics_summary', 'GET', '/v1/analytics/summary?period=30d');

    // Events first, while no webhook is subscribed: nothing is delivered.
    const events = new Map<string, unknown>();
    const dataOf: Record<string, unknown> = {
      recognition: recognition.data,
      user: user.data,
      reward: reward.data,
      team: team.data,
      budget: budget.data,
    };
    for (const type of WEBHOOK_EVENT_TYPES) {
      const data = type.startsWith('team.member_')
        ? { team: team.data, user: user.data }
        : dataOf[type.slice(0, type.indexOf('.'))];
      events.set(type, await api.emit(type, data));
    }

    const created = (await keep('recognitions_create', 'POST', '/v1/recognitions', {
      recipient_id: users[1]!.id,
      message: 'Thank you for leading the release!',
      points: 50,
    })) as { data: { id: string } };
    await keep('recognitions_delete', 'DELETE', `/v1/recognitions/${created.data.id}`);
    const webhook = (await keep('webhooks_create', 'POST', '/v1/webhooks', {
      url: 'https://hooks.acme.example/recognition',
      events: ['recognition.created', 'recognition.deleted'],
      description: 'Posts new recognitions to the team channel',
    })) as { data: { id: string } };
    // The mock draws each secret from crypto, as it should; the example shows a fixed one so the
    // document stays the same from run to run.
    (operations.get('webhooks_create') as { data: { secret: string } }).data.secret =
      EXAMPLE_SECRET;
    await keep('webhooks_list', 'GET', '/v1/webhooks');
    await keep('webhooks_get', 'GET', `/v1/webhooks/${webhook.data.id}`);
    await keep('webhooks_update', 'PATCH', `/v1/webhooks/${webhook.data.id}`, { enabled: false });
    await keep('webhooks_delete', 'DELETE', `/v1/webhooks/${webhook.data.id}`);

    const errors = new Map<number, unknown>();
    const error = async (status: number, answer: Promise<{ status: number; body: unknown }>) => {
      const { status: actual, body } = await answer;
      if (actual !== status)
        throw new Error(`openapi: expected ${status} from the mock, got ${actual}`);
      errors.set(status, body);
    };
    await error(400, call('GET', '/v1/users?limit=0'));
    await error(401, call('GET', '/v1/users', { key: null }));
    await error(403, call('GET', '/v1/users', { key: NO_SCOPE_KEY }));
    await error(404, call('GET', `/v1/users/${UNKNOWN_ID}`));
    const once = { 'idempotency-key': 'example-key-1' };
    await call('POST', '/v1/recognitions', {
      body: { recipient_id: users[1]!.id, message: 'First' },
      headers: once,
    });
    await error(
      409,
      call('POST', '/v1/recognitions', {
        body: { recipient_id: users[1]!.id, message: 'Second' },
        headers: once,
      }),
    );
    await error(
      422,
      call('POST', '/v1/recognitions', { body: { recipient_id: 'not-a-uuid', message: 'Hi' } }),
    );
    for (let tries = 0; !errors.has(429); tries++) {
      if (tries > 100) throw new Error('openapi: the mock never answered 429');
      const answer = await call('GET', '/v1/teams', { key: SLOW_KEY });
      if (answer.status === 429) errors.set(429, answer.body);
    }
    for (const status of [500, 503]) {
      api.faults.failNext('GET /v1/teams', { status });
      await error(status, call('GET', '/v1/teams'));
    }
    return { operations, errors, events };
  } finally {
    await api.close();
  }
}

// A list example keeps its first records only.
function shorten(body: unknown): unknown {
  if (body && typeof body === 'object' && Array.isArray((body as { data?: unknown }).data)) {
    const { data } = body as { data: unknown[] };
    return { ...body, data: data.slice(0, LIST_EXAMPLE_LENGTH) };
  }
  return body;
}
