import { HttpResponse, http } from 'msw';
import { type SetupServer, setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { type ClientOptions, type RequestOptions, resolveConfig } from '../../src/core/config.js';
import type { CallObserver, WaitKind } from '../../src/core/observer.js';
import { Transport } from '../../src/core/request.js';

export const TEST_BASE_URL = 'http://api.test';
export const TEST_API_KEY = `rk_test_${'a1B2c3D4'.repeat(4)}`;

/** A transport as a client builds it, pointed at the test host; pacing off unless asked for. */
export function testTransport(options: ClientOptions = {}) {
  const transport = new Transport(
    resolveConfig({ apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, rateLimit: 'off', ...options }),
  );
  return transport.send.bind(transport);
}

/** GET /v1/users through a fresh transport. */
export function getUsers(options: ClientOptions = {}, requestOptions?: RequestOptions) {
  return testTransport(options)({ method: 'GET', path: '/v1/users' }, requestOptions);
}

export const USERS_URL = `${TEST_BASE_URL}/v1/users`;

/** A 200 with an empty list and a request id. */
export const ok = () => HttpResponse.json({ data: [] }, { headers: { 'x-request-id': 'req_ok' } });

/** The contract's error body. */
export function errorBody(code: string, message: string, details?: unknown) {
  return { error: { code, message, ...(details ? { details } : {}) } };
}

/**
 * An MSW server for one test file, reset after each test, and `script`: answers a route with the
 * given responses in turn (the last one repeating), recording each request.
 */
export function useScriptedServer() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    vi.useRealTimers();
  });
  afterAll(() => server.close());
  const script = (method: 'get' | 'post', url: string, ...responses: Array<() => Response>) => {
    const requests: Request[] = [];
    server.use(
      http[method](url, ({ request }) => {
        requests.push(request.clone());
        const next = responses[Math.min(requests.length - 1, responses.length - 1)];
        return next?.() ?? ok();
      }),
    );
    return requests;
  };
  return { server, script };
}

/** Runs a call under fake timers, moving the clock until it settles. */
export async function settleWithFakeTimers<T>(call: () => Promise<T>) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  const started = Date.now();
  const outcome = call().then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  await vi.runAllTimersAsync();
  const result = await outcome;
  return { ...result, elapsed: Date.now() - started };
}

/**
 * A fixed-window service of the test's own for GET /v1/users, on `server` and the test's clock:
 * `limit` requests per `windowMs` for one key, whoever sends them; `spend(n)` is another process
 * spending the same key. Each request is counted when it arrives and answered `latencyMs` later.
 */
export function sharedWindow(
  server: SetupServer,
  { limit, windowMs, latencyMs = 0 }: SharedWindowOptions,
) {
  let windowStart = Date.now();
  let used = 0;
  const counts = { ok: 0, limited: 0 };
  const sentAt: number[] = [];
  const roll = (now: number) => {
    if (now - windowStart >= windowMs) {
      windowStart += Math.floor((now - windowStart) / windowMs) * windowMs;
      used = 0;
    }
  };
  server.use(
    http.get(`${TEST_BASE_URL}/v1/users`, async () => {
      const now = Date.now();
      sentAt.push(now);
      roll(now);
      const resetAt = windowStart + windowMs;
      const limited = used >= limit;
      if (limited) counts.limited++;
      else {
        used++;
        counts.ok++;
      }
      const headers = {
        'x-ratelimit-limit': String(limit),
        'x-ratelimit-remaining': String(limit - used),
        'x-ratelimit-reset': String(Math.ceil(resetAt / 1000)),
      };
      if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
      return limited
        ? HttpResponse.json(
            { error: { code: 'rate_limited', message: 'slow down' } },
            {
              status: 429,
              headers: { ...headers, 'retry-after': String(Math.ceil((resetAt - now) / 1000)) },
            },
          )
        : HttpResponse.json({ data: [] }, { headers });
    }),
  );
  return {
    counts,
    sentAt,
    /** Another process spends `requests` of the window. */
    spend(requests: number) {
      roll(Date.now());
      used = Math.min(limit, used + requests);
    },
    resetAt: () => windowStart + windowMs,
  };
}

interface SharedWindowOptions {
  limit: number;
  windowMs: number;
  latencyMs?: number;
}

/** What a call's instrumentation and its client's log are told of its waits. */
export function waitRecorder() {
  const waits: { kind: WaitKind; ms: number; cause: string | undefined }[] = [];
  const lines: string[] = [];
  const observer: CallObserver = {
    wait: (kind, ms, cause) => void waits.push({ kind, ms, cause }),
    attempt: () => undefined,
    end: () => {},
  };
  const logger = {
    debug: () => {},
    info: (line: string) => void lines.push(line),
    warn: (line: string) => void lines.push(line),
    error: (line: string) => void lines.push(line),
  };
  return { waits, lines, observer, logger };
}
