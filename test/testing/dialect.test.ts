/**
 * The mock's `dialect` option against the SDK: in each standard variant a real service may
 * speak, the client still paces, reads errors and pages, and the mock says it the standard's way.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BadRequestError,
  Client,
  type ClientOptions,
  InvalidResponseError,
  NotFoundError,
  RateLimitError,
} from '../../src/index.js';
import {
  createMockApi,
  type MockApi,
  type MockApiOptions,
  type MockDialect,
} from '../../src/testing/index.js';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { seededRandom } from '../support/simulated-service.js';
import { call, createClock } from './support.js';

const MISSING = '00000000-0000-4000-8000-000000000000';
let mock: MockApi | undefined;

afterEach(async () => {
  await mock?.close();
  mock = undefined;
  vi.useRealTimers();
});

function mockWith(dialect: MockDialect, options: MockApiOptions = {}): MockApi {
  mock = createMockApi({ seed: 4, dialect, ...options });
  return mock;
}

function clientOf(api: MockApi, options: ClientOptions = {}): Client {
  return new Client({ fetch: api.fetch, baseUrl: api.baseUrl, apiKey: api.testKey, ...options });
}

describe('rate-limit header families', () => {
  /**
   * 35 calls at once with pacing on and no retries, on a key of 10 per second, all timers run.
   * Each request and each answer takes 5 to 45 ms on a simulated clock (seeded): a reset given in
   * seconds from now then reads a second apart between answers of one window, as on a network.
   */
  async function burst(rateLimitHeaders: MockDialect['rateLimitHeaders']) {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'Date'],
      now: Date.UTC(2026, 10, 22),
    });
    const api = mockWith(
      { rateLimitHeaders },
      {
        keys: [{ key: 'rk_test_dialect0000000000000000000', rateLimit: 10 }],
        rateLimitWindowMs: 1000,
      },
    );
    const random = seededRandom(35);
    const latency = () => new Promise((resolve) => setTimeout(resolve, 5 + random() * 40));
    const client = new Client({
      baseUrl: api.baseUrl,
      apiKey: api.testKey,
      rateLimit: 'auto',
      maxRetries: 0,
      fetch: async (input, init) => {
        await latency();
        const response = await api.fetch(input, init);
        await latency();
        return response;
      },
    });
    const outcomes = Array.from({ length: 35 }, () =>
      client.teams.list({ limit: 1 }).then(
        () => 'ok',
        (error: unknown) => (error instanceof RateLimitError ? 'limited' : String(error)),
      ),
    );
    await vi.runAllTimersAsync();
    return { outcomes: await Promise.all(outcomes), sent: api.requests.length };
  }

  it.each(['x-ratelimit', 'x-ratelimit-seconds', 'ratelimit', 'ratelimit-structured'] as const)(
    '%s: pacing sees the window, so a burst of 3.5 windows meets no 429',
    async (family) => {
      const { outcomes, sent } = await burst(family);
      expect(outcomes.filter((outcome) => outcome !== 'ok')).toEqual([]);
      expect(sent).toBe(35);
    },
  );

  it('none: pacing has nothing to go by, and the same burst meets 429s', async () => {
    const { outcomes } = await burst('none');
    expect(outcomes).toContain('limited');
  });

  it('sends each family in its own form, and withResponse() names the family it read', async () => {
    const clock = createClock(Date.parse('2026-11-21T12:00:00.250Z'));
    const forms = {
      'x-ratelimit': { 'x-ratelimit-reset': String(Math.ceil((clock.now + 60_000) / 1000)) },
      'x-ratelimit-seconds': { 'x-ratelimit-limit': '100', 'x-ratelimit-reset': '60' },
      ratelimit: { 'ratelimit-limit': '100', 'ratelimit-remaining': '99', 'ratelimit-reset': '60' },
      'ratelimit-structured': {
        ratelimit: '"default";r=99;t=60',
        'ratelimit-policy': '"default";q=100;w=60',
      },
    } as const;
    for (const [family, headers] of Object.entries(forms)) {
      const api = createMockApi({
        now: clock.read,
        dialect: { rateLimitHeaders: family as never },
      });
      const reply = await call(api, 'GET', '/v1/teams');
      for (const [name, value] of Object.entries(headers))
        expect(reply.headers.get(name)).toBe(value);
      const { rateLimit } = await clientOf(api).teams.list().withResponse();
      expect(rateLimit?.family).toBe(family === 'x-ratelimit-seconds' ? 'x-ratelimit' : family);
      expect(rateLimit?.limit).toBe(100);
      await api.close();
    }
    const none = createMockApi({ now: clock.read, dialect: { rateLimitHeaders: 'none' } });
    const reply = await call(none, 'GET', '/v1/teams');
    expect([...reply.headers.keys()].filter((name) => name.includes('ratelimit'))).toEqual([]);
  });
});

describe('problem details (RFC 9457)', () => {
  it('answers errors as application/problem+json, which the SDK reads into the same ApiError', async () => {
    const api = mockWith({ errors: 'problem' });
    const reply = await call(api, 'GET', `/v1/users/${MISSING}`);
    expect(reply.headers.get('content-type')).toBe('application/problem+json');
    expect(reply.body).toEqual({
      type: `${api.baseUrl}/problems/not_found`,
      title: 'Not Found',
      status: 404,
      detail: `No user with id ${MISSING}.`,
    });
    const error = await clientOf(api)
      .users.get(MISSING)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({
      code: 'not_found',
      type: `${api.baseUrl}/problems/not_found`,
      message: expect.stringMatching(/^No user with id /),
    });
  });

  it('lists field problems in `errors`, read back as details with the field named', async () => {
    const api = mockWith({ errors: 'problem' });
    const reply = await call(api, 'GET', '/v1/users?cursor=bogus');
    expect(reply.body.errors).toEqual([
      { pointer: '#/cursor', detail: 'is not a cursor this API issued' },
    ]);
    const error = await clientOf(api)
      .users.list({ cursor: 'bogus' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({
      code: 'invalid_request',
      details: [{ field: 'cursor', message: 'is not a cursor this API issued' }],
    });
  });

  it('answers a 401 and a 429 as problems too', async () => {
    const api = mockWith({ errors: 'problem' }, { keys: [{ key: 'one', rateLimit: 10 }] });
    expect((await call(api, 'GET', '/v1/teams', { key: 'wrong' })).body).toMatchObject({
      status: 401,
      title: 'Unauthorized',
    });
    for (let i = 0; i < 10; i++) await call(api, 'GET', '/v1/teams', { key: 'one' });
    const limited = await call(api, 'GET', '/v1/teams', { key: 'one' });
    expect(limited.body).toMatchObject({
      status: 429,
      type: `${api.baseUrl}/problems/rate_limited`,
    });
    expect(limited.headers.get('retry-after')).not.toBeNull();
  });
});

describe('Link paging (RFC 8288)', () => {
  it('names the next page in Link, not in the body, and the SDK iterates every record by it', async () => {
    const api = mockWith({ pagination: 'link' });
    const first = await call(api, 'GET', '/v1/recognitions?limit=100');
    expect(first.body.pagination).toEqual({ page: 1, total_pages: 3 });
    expect(first.headers.get('link')).toMatch(
      new RegExp(`^<${api.baseUrl}/v1/recognitions\\?limit=100&cursor=[^>]+>; rel="next"$`),
    );
    const before = api.requests.length;
    const ids = new Set<string>();
    for await (const recognition of clientOf(api).recognitions.list({ limit: 100 })) {
      ids.add(recognition.id);
    }
    expect(ids.size).toBe(300);
    expect(
      api.requests.slice(before).map((request) => Object.keys(request.query).sort().join()),
    ).toEqual(['limit', 'cursor,limit', 'cursor,limit']);
  });

  it('in page mode, links the next page number, and none after the last', async () => {
    const api = mockWith({ pagination: 'link' });
    const last = await call(api, 'GET', '/v1/recognitions?page=3&limit=100');
    expect(last.headers.get('link')).toBeNull();
    const pages = [];
    for await (const page of clientOf(api).recognitions.list({ page: 1, limit: 100 }).pages()) {
      pages.push(page.data.length);
    }
    expect(pages).toEqual([100, 100, 100]);
    expect(api.requests.slice(-3).map((request) => request.query.page)).toEqual(['1', '2', '3']);
  });

  it('link-only: the same Link header and no pagination object, on which the SDK’s lists fail', async () => {
    const api = mockWith({ pagination: 'link-only' });
    const first = await call(api, 'GET', '/v1/recognitions?limit=100');
    expect(first.body).not.toHaveProperty('pagination');
    expect(first.headers.get('link')).toMatch(/; rel="next"$/);
    await expect(clientOf(api).recognitions.list({ limit: 100 })).rejects.toThrow(/pagination/);
  });
});

describe('Link paging beside a deprecation', () => {
  it('sends both links in one Link header, and the SDK reads each', async () => {
    const api = mockWith(
      { pagination: 'link' },
      {
        deprecations: {
          'recognitions.list': {
            sunsetAt: '2027-06-30',
            deprecationLink: 'https://docs.example/d',
          },
        },
      },
    );
    const reply = await call(api, 'GET', '/v1/recognitions?limit=100');
    expect(reply.headers.get('link')).toMatch(/rel="deprecation".*, <[^>]+>; rel="next"$/);
    const logger = { debug() {}, info() {}, warn() {}, error() {} };
    const { data: page, deprecation } = await clientOf(api, { logger })
      .recognitions.list({ limit: 100 })
      .withResponse();
    expect(deprecation?.deprecationLink).toBe('https://docs.example/d');
    let count = 0;
    for await (const _ of page) count++;
    expect(count).toBe(300);
  });
});

describe('a skewed clock', () => {
  it('dates answers and stamps deliveries by the service clock, which the receiver then refuses', async () => {
    const clock = createClock();
    const deliveries: Headers[] = [];
    const bodies: string[] = [];
    const api = mockWith(
      { clockSkewSeconds: 360 },
      {
        now: clock.read,
        webhookFetch: async (_url, init) => {
          deliveries.push(new Headers(init.headers));
          bodies.push(String(init.body));
          return new Response(null, { status: 204 });
        },
      },
    );
    const reply = await call(api, 'GET', '/v1/teams');
    expect(Date.parse(reply.headers.get('date')!)).toBe(clock.now + 360_000);
    const created = await call(api, 'POST', '/v1/webhooks', {
      body: { url: 'https://receiver.example/hook', events: ['*'] },
    });
    await api.emit('recognition.created', { id: 'x' });
    expect(deliveries).toHaveLength(1);
    expect(Number(deliveries[0]!.get('webhook-timestamp'))).toBe(
      Math.floor(clock.now / 1000) + 360,
    );
    const verified = await verifyWebhook(bodies[0]!, deliveries[0]!, created.body.data.secret, {
      now: clock.now,
    }).catch((e: unknown) => e);
    expect(verified).toMatchObject({ reason: 'timestamp_too_new' });
  });

  it('sends the mock clock as Date without a skew', async () => {
    const clock = createClock();
    const reply = await call(mockWith({}, { now: clock.read }), 'GET', '/v1/teams');
    expect(reply.headers.get('date')).toBe(new Date(clock.now).toUTCString());
  });
});

describe('renamed record fields', () => {
  it('sends the fields under their new names; the SDK warns, or fails under strict, naming the field', async () => {
    const api = mockWith({ renamedFields: { users: { email: 'mail' } } });
    const reply = await call(api, 'GET', '/v1/users?limit=1');
    expect(reply.body.data[0]).toHaveProperty('mail');
    expect(reply.body.data[0]).not.toHaveProperty('email');
    const warnings: string[] = [];
    const logger = {
      debug() {},
      info() {},
      warn: (line: string) => warnings.push(line),
      error() {},
    };
    const { data } = await clientOf(api, { logger }).users.list({ limit: 1 });
    expect(data[0]).toHaveProperty('mail');
    expect(warnings.join('\n')).toMatch(/data\.0\.email/);
    const strict = await clientOf(api, { validateResponses: 'strict' })
      .users.get(data[0]!.id)
      .catch((e: unknown) => e);
    expect(strict).toBeInstanceOf(InvalidResponseError);
    expect((strict as InvalidResponseError).issues.map((issue) => issue.path)).toContain(
      'data.email',
    );
  });
});

describe('the dialect option', () => {
  it.each([
    [{ rateLimitHeaders: 'retry-after' }, /rateLimitHeaders must be one of/],
    [{ errors: 'xml' }, /errors must be one of/],
    [{ pagination: 'offset' }, /pagination must be one of/],
    [{ clockSkewSeconds: Number.NaN }, /clockSkewSeconds/],
    [{ clockSkewSeconds: 1e12 }, /clockSkewSeconds/],
    [{ renamedFields: { people: { a: 'b' } } }, /renamedFields key must be one of/],
    [{ renamedFields: { users: { email: '' } } }, /renamedFields\.users\.email/],
  ])('refuses %j, naming the member', (dialect, message) => {
    expect(() => createMockApi({ dialect: dialect as never })).toThrow(message);
  });
});
