import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { type ClientOptions, type RequestOptions, resolveConfig } from '../../src/core/config.js';
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
