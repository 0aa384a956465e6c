/**
 * Every wait bounded: no Retry-After, X-RateLimit-*, RateLimit or RateLimit-Reset value, however
 * garbled, negative, huge, duplicated or far away, makes one wait exceed 60 s. An unparseable value
 * falls back to backoff (at most 8 s); a longer wait is not waited: RateLimitError at once, with
 * its retryAfter. The throttle's waits have the same bound, end on the call's signal, and an
 * explicit `timeout` covers the time a call spends queued.
 *
 * A real server answers; a fake clock records every delay the SDK schedules and jumps over it when
 * nothing is on the wire, so no test waits in real time and none asserts on real time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiUserAbortError,
  type Client,
  type ClientOptions,
  EmployeeRecognitionError,
  RateLimitError,
  type RequestOptions,
} from '@employee-recognition/sdk';
import {
  checkNoLeaks,
  closeAllServers,
  driveClient,
  type Driven,
  EMPTY_PAGE,
  errorBody,
  expectEndedWithinCap,
  json,
  startHostileServer,
  WAIT_CAP_MS,
} from '../../support/hostile-server.js';

const API_KEY = `rk_test_${'B0undedWaits'.repeat(3)}`;
/** The shortest first backoff: 0.5 s less a quarter of jitter. */
const FIRST_BACKOFF_MIN = 375;
/** The longest backoff between attempts. */
const BACKOFF_CAP = 8_000;
/** An explicit attempt timeout far above every wait, so its timers are told apart from waits. */
const TIMEOUT = 600_000;

checkNoLeaks();
afterEach(closeAllServers);

type HeaderMap = Record<string, string | string[]>;
/** Answers of the server, by request index: 429 with the given headers, then 200. */
type Script = (index: number, now: number) => { status: number; headers: HeaderMap };

async function run(
  script: Script,
  options: ClientOptions = {},
  calls: (client: Client) => Promise<unknown> = (client) => client.users.list(),
) {
  const server = await startHostileServer((_request, response, index) => {
    const { status, headers } = script(index, Date.now());
    if (status === 200) json(response, 200, EMPTY_PAGE, headers);
    else json(response, status, errorBody('rate_limited', 'slow down'), headers);
  });
  const defaults = { apiKey: API_KEY, timeout: TIMEOUT, maxRetries: 2, rateLimit: 'off' as const };
  const driven = await driveClient(server, { ...defaults, ...options }, calls);
  return { ...driven, requests: server.requests.length };
}

/** A first call that lets the client learn the window, then the call under test. */
const thenAnother =
  (options?: RequestOptions) =>
  async (client: Client): Promise<unknown> => {
    await client.users.list();
    return client.users.list({}, options);
  };

/** The delays that are waits: every timer but the attempt timeouts. */
const waits = (driven: Driven<unknown>) => driven.delays.filter((delay) => delay !== TIMEOUT);

/** What holds for every header value: the call ends, typed, and no wait passes the cap. */
const expectBounded = (driven: Driven<unknown>) => expectEndedWithinCap(driven, TIMEOUT);

const once =
  (headers: (now: number) => HeaderMap, status = 429): Script =>
  (index, now) =>
    index === 0 ? { status, headers: headers(now) } : { status: 200, headers: {} };

const unixSeconds = (ms: number) => String(Math.ceil(ms / 1000));
const httpDate = (ms: number) => new Date(ms).toUTCString();

describe('an unparseable Retry-After falls back to backoff', () => {
  const garbage = ['NaN', 'soon', '5s', '-1', 'Infinity', '-Infinity', '0x10', '', '1 2', '½'];
  for (const value of garbage) {
    for (const status of [429, 503]) {
      it(`Retry-After: ${JSON.stringify(value)} on a ${status}: retried after a backoff`, async () => {
        const driven = await run(once(() => ({ 'retry-after': value }), status));
        expectBounded(driven);
        expect(driven.error).toBeUndefined();
        expect(driven.requests).toBe(2);
        expect(driven.elapsed).toBeGreaterThanOrEqual(FIRST_BACKOFF_MIN);
        expect(driven.elapsed).toBeLessThanOrEqual(BACKOFF_CAP);
      });
    }
  }
});

describe('a window with requests to spare is no reason to wait', () => {
  it('a 503 whose X-RateLimit-Remaining is 50 and reset 30 s ahead: backoff, not 30 s', async () => {
    const driven = await run(
      once(
        (now) => ({
          'x-ratelimit-limit': '100',
          'x-ratelimit-remaining': '50',
          'x-ratelimit-reset': unixSeconds(now + 30_000),
        }),
        503,
      ),
    );
    expectBounded(driven);
    expect(driven.error).toBeUndefined();
    expect(driven.elapsed).toBeLessThanOrEqual(BACKOFF_CAP);
  });
});

describe('a Retry-After within 60 s is waited, and no longer', () => {
  it('Retry-After: 5 waits 5 s, then succeeds', async () => {
    const driven = await run(once(() => ({ 'retry-after': '5' })));
    expectBounded(driven);
    expect(driven.error).toBeUndefined();
    expect(driven.elapsed).toBeGreaterThanOrEqual(5_000);
    expect(driven.elapsed).toBeLessThanOrEqual(WAIT_CAP_MS);
  });

  it('Retry-After: 60 is the longest wait still waited', async () => {
    const driven = await run(once(() => ({ 'retry-after': '60' })));
    expectBounded(driven);
    expect(driven.error).toBeUndefined();
    expect(driven.elapsed).toBeGreaterThanOrEqual(59_000);
  });

  it('an HTTP-date 10 s ahead waits until then', async () => {
    const driven = await run(once((now) => ({ 'retry-after': httpDate(now + 10_000) })));
    expectBounded(driven);
    expect(driven.error).toBeUndefined();
    expect(driven.elapsed).toBeGreaterThanOrEqual(9_000);
  });

  it('an HTTP-date in the past retries at once', async () => {
    const driven = await run(once(() => ({ 'retry-after': 'Thu, 01 Jan 1970 00:00:00 GMT' })));
    expectBounded(driven);
    expect(driven.error).toBeUndefined();
    expect(driven.elapsed).toBeLessThanOrEqual(BACKOFF_CAP);
  });

  it('X-RateLimit-Reset 5 s ahead, without Retry-After: waited', async () => {
    const driven = await run(
      once((now) => ({
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': unixSeconds(now + 5_000),
      })),
    );
    expectBounded(driven);
    expect(driven.error).toBeUndefined();
    expect(driven.elapsed).toBeGreaterThanOrEqual(4_000);
  });

  it('RateLimit-Reset: 5 (IETF, delta seconds): waited', async () => {
    const driven = await run(once(() => ({ 'ratelimit-remaining': '0', 'ratelimit-reset': '5' })));
    expectBounded(driven);
    expect(driven.error).toBeUndefined();
    expect(driven.elapsed).toBeGreaterThanOrEqual(5_000);
  });
});

describe('a wait over 60 s is not waited: RateLimitError at once, with retryAfter', () => {
  const far: Array<[string, (now: number) => HeaderMap, number]> = [
    ['Retry-After: 120', () => ({ 'retry-after': '120' }), 120_000],
    ['Retry-After: 86400', () => ({ 'retry-after': '86400' }), 86_400_000],
    ['Retry-After: 99999999999', () => ({ 'retry-after': '99999999999' }), 99_999_999_999_000],
    [
      'Retry-After: an HTTP-date in the year 9999',
      () => ({ 'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT' }),
      WAIT_CAP_MS + 1,
    ],
    [
      'X-RateLimit-Reset a day ahead',
      (now) => ({
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': unixSeconds(now + 86_400_000),
      }),
      WAIT_CAP_MS + 1,
    ],
    ['RateLimit-Reset: 86400', () => ({ 'ratelimit-reset': '86400' }), 86_400_000],
    [
      'RateLimit: limit=100, remaining=0, reset=86400',
      () => ({ ratelimit: 'limit=100, remaining=0, reset=86400' }),
      86_400_000,
    ],
  ];
  for (const [name, headers, retryAfter] of far) {
    for (const rateLimit of ['off', 'auto'] as const) {
      it(`${name} (rateLimit '${rateLimit}')`, async () => {
        const driven = await run(once(headers), { rateLimit });
        expectBounded(driven);
        expect(driven.error).toBeInstanceOf(RateLimitError);
        const error = driven.error as RateLimitError;
        expect(error.status).toBe(429);
        expect(error.retryAfter).toBeGreaterThanOrEqual(
          Math.min(retryAfter, WAIT_CAP_MS + 1) - 1000,
        );
        if (retryAfter > WAIT_CAP_MS + 1) expect(error.retryAfter).toBe(retryAfter);
        expect(driven.requests).toBe(1);
        expect(driven.elapsed).toBe(0);
      });
    }
  }
});

describe('any other value: the call ends, typed, and no wait passes 60 s', () => {
  const values: Array<[string, HeaderMap]> = [
    ['Retry-After: 1e308', { 'retry-after': '1e308' }],
    ['Retry-After: 1e3', { 'retry-after': '1e3' }],
    ['Retry-After: 1.5', { 'retry-after': '1.5' }],
    ['Retry-After: 30, 30', { 'retry-after': '30, 30' }],
    ['Retry-After sent twice (30 and 30)', { 'retry-after': ['30', '30'] }],
    ['Retry-After: 5, 120', { 'retry-after': '5, 120' }],
    ['Retry-After: 120, 5', { 'retry-after': '120, 5' }],
    [
      'Retry-After: 00000000000000000000000000000000000030',
      { 'retry-after': `${'0'.repeat(36)}30` },
    ],
    ['Retry-After: 9'.padEnd(400, '9'), { 'retry-after': '9'.repeat(400) }],
    [
      'X-RateLimit-Reset: 99999999999999999999',
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '99999999999999999999' },
    ],
    ['X-RateLimit-Reset: 1e308', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1e308' }],
    ['X-RateLimit-Reset: -5', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '-5' }],
    ['X-RateLimit-Reset: NaN', { 'x-ratelimit-remaining': 'NaN', 'x-ratelimit-reset': 'NaN' }],
    ['RateLimit-Reset: 1e308', { 'ratelimit-reset': '1e308' }],
    ['RateLimit-Reset: Infinity', { 'ratelimit-reset': 'Infinity' }],
    ['RateLimit: "default";r=0;t=86400', { ratelimit: '"default";r=0;t=86400' }],
    ['RateLimit: reset=-1', { ratelimit: 'limit=1, remaining=0, reset=-1' }],
    [
      'every header at once, disagreeing',
      {
        'retry-after': '3',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': '99999999999',
        'ratelimit-reset': '86400',
        ratelimit: 'limit=1, remaining=0, reset=1e308',
      },
    ],
  ];
  for (const [name, headers] of values) {
    for (const rateLimit of ['off', 'auto'] as const) {
      it(`${name} (rateLimit '${rateLimit}'), then a second call`, async () => {
        const driven = await run(
          once(() => headers),
          { rateLimit },
          async (client) => {
            await client.users.list().catch((error: unknown) => {
              if (!(error instanceof RateLimitError)) throw error;
            });
            return client.users.list();
          },
        );
        expectBounded(driven);
        expect(driven.steps).toBeLessThanOrEqual(6);
      });
    }
  }
});

describe("the throttle (rateLimit 'auto'): each wait bounded, ended by the call's timeout and signal", () => {
  /** A first answer that says the window is spent until `reset`, then normal answers. */
  const spent =
    (reset: (now: number) => string): Script =>
    (index, now): { status: number; headers: HeaderMap } => ({
      status: 200,
      headers:
        index === 0
          ? {
              'x-ratelimit-limit': '100',
              'x-ratelimit-remaining': '0',
              'x-ratelimit-reset': reset(now),
            }
          : {},
    });

  const AWAY: Array<[string, number]> = [
    ['30 s', 30_000],
    ['an hour', 3_600_000],
  ];
  for (const [away, ms] of AWAY) {
    for (const on of ['call', 'client'] as const) {
      it(`a reset ${away} away and timeout: 1000 on the ${on} ends within 1 s of queueing`, async () => {
        const driven = await run(
          spent((now) => unixSeconds(now + ms)),
          { rateLimit: 'auto', ...(on === 'client' && { timeout: 1000 }) },
          thenAnother(on === 'call' ? { timeout: 1000 } : undefined),
        );
        expectBounded(driven);
        expect(driven.error).toBeInstanceOf(EmployeeRecognitionError);
        expect(driven.elapsed).toBeLessThanOrEqual(1000);
        expect(driven.requests).toBe(1);
      });
    }
  }

  it("a reset 30 s away: the caller's signal ends the queueing at once", async () => {
    const driven = await run(
      spent((now) => unixSeconds(now + 30_000)),
      { rateLimit: 'auto' },
      async (client) => {
        await client.users.list();
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 2_000);
        return client.users.list({}, { signal: controller.signal });
      },
    );
    expectBounded(driven);
    expect(driven.error).toBeInstanceOf(ApiUserAbortError);
    expect(driven.elapsed).toBe(2_000);
    expect(driven.requests).toBe(1);
  });

  it('a reset a day away: each wait at most 60 s, and the call ends', async () => {
    const driven = await run(
      spent((now) => unixSeconds(now + 86_400_000)),
      { rateLimit: 'auto' },
      thenAnother(),
    );
    expectBounded(driven);
    expect(driven.steps).toBeLessThanOrEqual(5);
  });

  it('a reset 5 s away: the next call waits for it, then goes', async () => {
    const driven = await run(
      spent((now) => unixSeconds(now + 5_000)),
      { rateLimit: 'auto' },
      thenAnother(),
    );
    expectBounded(driven);
    expect(driven.error).toBeUndefined();
    expect(driven.elapsed).toBeGreaterThanOrEqual(4_000);
    expect(driven.requests).toBe(2);
  });

  for (const reset of ['1e308', 'Infinity', 'NaN', '-1', '99999999999999999999', '']) {
    it(`a reset of ${JSON.stringify(reset)} is ignored: no spinning timers`, async () => {
      const driven = await run(
        spent(() => reset),
        { rateLimit: 'auto' },
        thenAnother(),
      );
      expectBounded(driven);
      expect(driven.steps).toBeLessThanOrEqual(2);
      expect(waits(driven).length).toBeLessThan(20);
    });
  }
});
