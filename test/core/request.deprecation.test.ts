import {
  Client,
  type DeprecationNotice,
  NotFoundError,
  type ResponseContext,
} from '@employee-recognition/sdk';
import { createMockApi } from '@employee-recognition/sdk/testing';
import { describe, expect, it } from 'vitest';
import { TEST_API_KEY, TEST_BASE_URL } from '../support/core.js';

const SUNSET = '2027-06-30T00:00:00Z';
const LINK = 'https://docs.example/deprecations/users-get';
const DEPRECATED_AT = '2026-11-01T00:00:00Z';
const USER_ID = '3f2c8a9e-4b1d-4c6e-9a7f-1d2e3f4a5b6c';

function recorder() {
  const lines: string[] = [];
  const logger = {
    debug: () => {},
    info: () => {},
    warn: (line: string) => void lines.push(line),
    error: () => {},
  };
  return { lines, logger };
}

function mockClient(options: { logLevel?: 'warn' | 'error' } = {}) {
  const api = createMockApi({
    deprecations: {
      'users.get': { deprecatedAt: DEPRECATED_AT, sunsetAt: SUNSET, deprecationLink: LINK },
    },
  });
  const { lines, logger } = recorder();
  const contexts: ResponseContext[] = [];
  const client = new Client({
    baseUrl: api.baseUrl,
    apiKey: api.testKey,
    fetch: api.fetch,
    logger,
    logLevel: options.logLevel ?? 'warn',
    maxRetries: 0,
    hooks: { afterResponse: [(context) => void contexts.push(context)] },
  });
  const userId = api.store.users.all()[0]!.id;
  return { api, client, lines, contexts, userId };
}

const expected: DeprecationNotice = {
  deprecated: true,
  deprecatedAt: new Date(DEPRECATED_AT),
  sunsetAt: new Date(SUNSET),
  deprecationLink: LINK,
};

/** A client whose every answer is a 200 with `headers`, as a hostile or odd service might send. */
function clientAnswering(
  headers: Record<string, string>,
  apiKey: string | (() => string) = TEST_API_KEY,
) {
  const { lines, logger } = recorder();
  const client = new Client({
    baseUrl: TEST_BASE_URL,
    apiKey,
    logger,
    logLevel: 'warn',
    maxRetries: 0,
    fetch: async () => Response.json({ data: [] }, { headers }),
  });
  return { client, lines };
}

describe('deprecation notices', () => {
  it('warns once per operation, naming it, both dates and the link, however many calls it answers', async () => {
    const { client, lines, userId } = mockClient();
    for (let call = 0; call < 5; call++) await client.users.get(userId);
    await client.users.list();
    expect(lines).toEqual([
      `[employee-recognition] users.get is deprecated by the service (deprecation date 2026-11-01T00:00:00Z, sunset 2027-06-30T00:00:00Z, details ${LINK}): move off it before the sunset, see https://github.com/employee-recognition/sdk-typescript/blob/main/docs/errors-and-retries.md#deprecation-notices`,
    ]);
  });

  it('gives the notice to withResponse() and to afterResponse hooks, and nothing for other operations', async () => {
    const { client, contexts, userId } = mockClient();
    const { deprecation } = await client.users.get(userId).withResponse();
    expect(deprecation).toEqual(expected);
    expect(contexts[0]!.deprecation).toEqual(expected);
    const list = await client.users.list().withResponse();
    expect(list.deprecation).toBeUndefined();
    expect(contexts[1]).not.toHaveProperty('deprecation');
  });

  it('reads the notice on an error answer too, and the call fails as it would without it', async () => {
    const { client, lines, contexts } = mockClient();
    await expect(client.users.get('u_missing')).rejects.toBeInstanceOf(NotFoundError);
    expect(contexts[0]).toMatchObject({ status: 404, deprecation: expected });
    expect(lines).toHaveLength(1);
  });

  it('remembers the warning across clients withOptions() derives, and a new client warns again', async () => {
    const { client, lines, userId, api } = mockClient();
    await client.users.get(userId);
    await client.withOptions({ timeout: 5000 }).users.get(userId);
    expect(lines).toHaveLength(1);
    const { lines: otherLines, logger } = recorder();
    await new Client({
      baseUrl: api.baseUrl,
      apiKey: api.testKey,
      fetch: api.fetch,
      logger,
      logLevel: 'warn',
    }).users.get(userId);
    expect(otherLines).toHaveLength(1);
  });

  it('names a raw request by its method and path template: one line for every id called', async () => {
    const { client, lines, api } = mockClient();
    for (const { id } of api.store.users.all().slice(0, 5)) await client.get(`/v1/users/${id}`);
    expect(lines).toEqual([
      expect.stringMatching(/^\[employee-recognition\] GET \/v1\/users\/\{id\} is deprecated /),
    ]);
  });

  it('still warns of a named operation after more raw paths than it remembers', async () => {
    const { lines, logger } = recorder();
    const client = new Client({
      baseUrl: TEST_BASE_URL,
      apiKey: TEST_API_KEY,
      logger,
      logLevel: 'warn',
      maxRetries: 0,
      validateResponses: 'off',
      fetch: async () =>
        Response.json({ data: { id: USER_ID } }, { headers: { deprecation: 'true' } }),
    });
    for (let index = 0; index < 300; index++) await client.get(`/v1/things${index}`);
    expect(lines).toHaveLength(256);
    await client.users.get(USER_ID);
    await client.users.get(USER_ID);
    expect(lines.slice(256)).toEqual([
      expect.stringMatching(/^\[employee-recognition\] users\.get is deprecated /),
    ]);
  });

  it('keeps quiet below logLevel warn, and still gives the notice', async () => {
    const { client, lines, userId } = mockClient({ logLevel: 'error' });
    const { deprecation } = await client.users.get(userId).withResponse();
    expect(deprecation).toEqual(expected);
    expect(lines).toEqual([]);
  });

  it.each([
    [{ deprecation: '@99999999999999', sunset: 'Tue, 30 Feb 2027 00:00:00 GMT' }],
    [{ deprecation: '@0', sunset: 'Thu, 01 Jan 1970 00:00:00 GMT', link: '<<<;;;"' }],
    [{ deprecation: 'true', sunset: 'x'.repeat(8192), link: `<${'x'.repeat(8192)}` }],
  ])('never fails a call or prints a misleading date for garbage: %j', async (headers) => {
    const { client, lines } = clientAnswering(headers);
    const { data, deprecation } = await client.get('/v1/users').withResponse();
    expect(data).toEqual({ data: [] });
    expect(deprecation).toEqual({ deprecated: true });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('(deprecation date not given, sunset not given)');
    expect(lines[0]).not.toMatch(/1970|Invalid Date|NaN/);
  });

  it('says nothing for headers that carry no notice', async () => {
    const { client, lines } = clientAnswering({
      deprecation: 'false',
      link: '<https://docs.example/x>; rel="deprecation"',
    });
    const { deprecation } = await client.get('/v1/users').withResponse();
    expect(deprecation).toBeUndefined();
    expect(lines).toEqual([]);
  });

  it.each([
    ['an OAuth token', 'oauth-token-Zx9Yw8Vu7Ts6'],
    ['an API key', TEST_API_KEY],
  ])(
    'redacts %s the service echoes in a link from the warning, withResponse() and hooks',
    async (_kind, credential) => {
      const { lines, logger } = recorder();
      const notices: unknown[] = [];
      const client = new Client({
        baseUrl: TEST_BASE_URL,
        apiKey: () => credential,
        logger,
        logLevel: 'warn',
        maxRetries: 0,
        hooks: { afterResponse: [({ deprecation }) => void notices.push(deprecation)] },
        fetch: async () =>
          Response.json(
            { data: [] },
            {
              headers: {
                deprecation: 'true',
                link: `<https://docs.example/t/${credential}?key=${encodeURIComponent(credential)}>; rel="deprecation", <https://docs.example/p?sig=abc123>; rel="sunset"`,
              },
            },
          ),
      });
      const { deprecation } = await client.get('/v1/users').withResponse();
      const expectedNotice = {
        deprecated: true,
        deprecationLink: 'https://docs.example/t/[redacted]?key=[redacted]',
        sunsetLink: 'https://docs.example/p?sig=[redacted]',
      };
      expect(deprecation).toEqual(expectedNotice);
      expect(notices).toEqual([expectedNotice]);
      expect(lines[0]).toContain('details https://docs.example/t/[redacted])');
      expect(JSON.stringify([lines, notices, deprecation])).not.toContain(credential);
    },
  );
});
