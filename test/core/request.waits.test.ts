import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { definePacingStore } from '../../src/core/shared-throttle.js';
import {
  errorBody,
  ok,
  sharedWindow,
  testTransport,
  USERS_URL,
  useScriptedServer,
  waitRecorder,
} from '../support/core.js';

/**
 * Every kind of wait a call makes on the customer's behalf is told three ways: the instrumentation's
 * `wait(kind, ms, cause)` (a span and the wait metric), the caller's own hook where there is one
 * (the rate-limit queue's `onWait`, `beforeRetry`), and an info line when it lasts a second or more
 * (README.md, docs/getting-started.md, docs/errors-and-retries.md promise it).
 */
const { server, script } = useScriptedServer();

const START = Date.UTC(2026, 10, 22);
const USERS = { method: 'GET', path: '/v1/users' } as const;
const PREFIX = '[employee-recognition] ';

function useFakeClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START });
}

/** A 429 that asks for `seconds` in Retry-After. */
const rateLimited = (seconds: number) => () =>
  HttpResponse.json(errorBody('rate_limited', 'slow down'), {
    status: 429,
    headers: { 'retry-after': String(seconds) },
  });

/** Runs `call` to its end under the fake clock; its outcome. */
async function settle<T>(call: Promise<T>) {
  const outcome = call.then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  await vi.runAllTimersAsync();
  return outcome;
}

describe('every wait is told: instrumentation, hook and info line', () => {
  it('a spent window: the wait for its reset', async () => {
    useFakeClock();
    const service = sharedWindow(server, { limit: 100, windowMs: 60_000 });
    const { waits, lines, observer, logger } = waitRecorder();
    const send = testTransport({ rateLimit: 'auto', logger, logLevel: 'info' });
    await settle(send(USERS));
    service.spend(100);
    // The window is spent by another process; the next answer says so, with one 429.
    await settle(send(USERS, { maxRetries: 0 }));
    const resetAt = service.resetAt();
    const call = settle(send(USERS, undefined, observer));
    expect(waits).toEqual([
      { kind: 'rate limit', ms: resetAt - START, cause: 'rate limit: X-RateLimit-Reset' },
    ]);
    expect(lines).toEqual([
      `${PREFIX}waiting 60 s (rate limit: X-RateLimit-Reset) before GET ${USERS_URL}`,
    ]);
    expect((await call).error).toBeUndefined();
    expect(Date.now()).toBe(resetAt);
  });

  it("a spent window's line names the call through the call's redaction: its own credential too", async () => {
    useFakeClock();
    const service = sharedWindow(server, { limit: 100, windowMs: 60_000 });
    const { lines, logger } = waitRecorder();
    // A token of no known shape (an OAuth access token): only the call knows it is a secret.
    const token = 'opaque7Token9Value3Without5Shape';
    const send = testTransport({
      rateLimit: 'auto',
      logger,
      logLevel: 'info',
      apiKey: () => token,
    });
    await settle(send(USERS));
    service.spend(100);
    await settle(send(USERS, { maxRetries: 0 }));
    await settle(send({ ...USERS, query: { echo: token } }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[employee-recognition\] waiting 60 s .* before GET /);
    expect(lines[0]).not.toContain(token);
  });

  it("a paced wait: the key's live use is shared", async () => {
    useFakeClock();
    const service = sharedWindow(server, { limit: 100, windowMs: 60_000 });
    const { waits, lines, observer, logger } = waitRecorder();
    const send = testTransport({ rateLimit: 'auto', logger, logLevel: 'info' });
    await settle(send(USERS));
    // While this client is active, another spends 30 of the window in a second: at that rate
    // the window is spent long before its reset, so this client paces its share of what is left.
    vi.setSystemTime(START + 1000);
    service.spend(30);
    await settle(send(USERS));
    await settle(send(USERS));
    expect(waits).toEqual([]);
    const paced = settle(send(USERS, undefined, observer));
    expect(waits).toHaveLength(1);
    const [wait] = waits;
    expect(wait).toMatchObject({
      kind: 'rate limit',
      cause: "rate limit: the key's live use is shared",
    });
    expect(wait!.ms).toBeGreaterThanOrEqual(1000);
    expect(lines).toEqual([
      `${PREFIX}waiting ${Math.round(wait!.ms / 1000)} s (rate limit: the key's live use is shared) before GET ${USERS_URL}`,
    ]);
    const before = Date.now();
    expect((await paced).error).toBeUndefined();
    expect(Date.now() - before).toBe(wait!.ms);
    expect(service.counts.limited).toBe(0);
  });

  it('a shared pacing store that says wait', async () => {
    useFakeClock();
    script('get', USERS_URL, ok);
    const answers = [5000, 0];
    let asked!: () => void;
    const firstQuestion = new Promise<void>((resolve) => (asked = resolve));
    const store = definePacingStore({
      reserve: async () => {
        asked();
        return answers.shift() ?? 0;
      },
      release: async () => {},
    });
    const { waits, lines, observer, logger } = waitRecorder();
    const send = testTransport({ rateLimit: { store }, logger, logLevel: 'info' });
    const call = send(USERS, undefined, observer);
    // The store's key is a hash that Web Crypto computes off the fake clock: wait for the first
    // question before moving the clock past the second a store may take.
    await firstQuestion;
    const outcome = await settle(call);
    expect(outcome.error).toBeUndefined();
    expect(waits).toEqual([
      { kind: 'rate limit', ms: 5000, cause: 'rate limit: shared pacing store' },
    ]);
    expect(lines).toEqual([
      `${PREFIX}waiting 5 s (rate limit: shared pacing store) before GET ${USERS_URL}`,
    ]);
  });

  it('retry backoff: each wait before a retry, logged from a second on', async () => {
    useFakeClock();
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const unavailable = () =>
      HttpResponse.json(errorBody('unavailable', 'try later'), { status: 503 });
    script('get', USERS_URL, unavailable, unavailable, unavailable, ok);
    const { waits, lines, observer, logger } = waitRecorder();
    const beforeRetry = vi.fn();
    const send = testTransport({ logger, logLevel: 'info', maxRetries: 3 });
    const outcome = await settle(send(USERS, { hooks: { beforeRetry: [beforeRetry] } }, observer));
    vi.mocked(Math.random).mockRestore();
    expect(outcome.error).toBeUndefined();
    expect(waits).toEqual(
      [500, 1000, 2000].map((ms) => ({ kind: 'retry', ms, cause: 'status 503' })),
    );
    expect(beforeRetry.mock.calls.map(([context]) => [context.delayMs, context.reason])).toEqual([
      [500, 'status 503'],
      [1000, 'status 503'],
      [2000, 'status 503'],
    ]);
    expect(lines).toEqual([
      `${PREFIX}waiting 1 s (status 503) before retry 2 of 3 of GET ${USERS_URL}`,
      `${PREFIX}waiting 2 s (status 503) before retry 3 of 3 of GET ${USERS_URL}`,
    ]);
  });

  it("Retry-After: the service's own wait", async () => {
    useFakeClock();
    script('get', USERS_URL, rateLimited(7), ok);
    const { waits, lines, observer, logger } = waitRecorder();
    const beforeRetry = vi.fn();
    const send = testTransport({ logger, logLevel: 'info' });
    const outcome = await settle(send(USERS, { hooks: { beforeRetry: [beforeRetry] } }, observer));
    expect(outcome.error).toBeUndefined();
    expect(waits).toEqual([{ kind: 'retry', ms: 7000, cause: 'Retry-After' }]);
    expect(beforeRetry).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({ delayMs: 7000, reason: 'Retry-After' }),
    );
    expect(lines).toEqual([
      `${PREFIX}waiting 7 s (Retry-After) before retry 1 of 2 of GET ${USERS_URL}`,
    ]);
  });

  it('the credential: an apiKey function that takes a second or more is logged when it answers', async () => {
    useFakeClock();
    script('get', USERS_URL, ok);
    const { waits, lines, observer, logger } = waitRecorder();
    // A token of no known shape: only the call's own redaction could hide it.
    const apiKey = () =>
      new Promise<string>((resolve) => setTimeout(() => resolve('x'.repeat(32)), 2000));
    const send = testTransport({ apiKey, logger, logLevel: 'info' });
    const outcome = await settle(send(USERS, undefined, observer));
    expect(outcome.error).toBeUndefined();
    // Its length is not known before it ends: the span measures it.
    expect(waits).toEqual([{ kind: 'credential', ms: 0, cause: undefined }]);
    expect(lines).toEqual([
      `${PREFIX}waited 2 s (the apiKey function) for the credential of GET ${USERS_URL}`,
    ]);
    expect(lines.join('\n')).not.toContain('x'.repeat(32));
  });

  it('a wait under a second is told to the instrumentation, and not logged', async () => {
    useFakeClock();
    script('get', USERS_URL, rateLimited(0), ok);
    const { waits, lines, observer, logger } = waitRecorder();
    await settle(testTransport({ logger, logLevel: 'info' })(USERS, undefined, observer));
    expect(waits).toEqual([{ kind: 'retry', ms: 0, cause: 'Retry-After' }]);
    expect(lines).toEqual([]);
  });
});

describe('calls queued behind one wait share its lines', () => {
  it('calls a 429 sends back for one Retry-After: one line when it starts and one when they go; the metric per call', async () => {
    useFakeClock();
    script('get', USERS_URL, ...Array.from({ length: 20 }, () => rateLimited(20)), ok);
    const { waits, lines, observer, logger } = waitRecorder();
    const send = testTransport({ rateLimit: 'off', logger, logLevel: 'info' });
    const outcome = await settle(
      Promise.all(Array.from({ length: 20 }, () => send(USERS, undefined, observer))),
    );
    expect(outcome.error).toBeUndefined();
    expect(waits).toEqual(
      Array.from({ length: 20 }, () => ({ kind: 'retry', ms: 20_000, cause: 'Retry-After' })),
    );
    expect(lines).toEqual([
      `${PREFIX}waiting 20 s (Retry-After) before retry 1 of 2 of GET ${USERS_URL}`,
      `${PREFIX}waited 20 s for the rate-limit window (Retry-After): 20 queued calls go`,
    ]);
  });

  it('two processes with 150 queued calls each: one line when a wait starts and one when it ends, per process; onWait and the metric per call', async () => {
    useFakeClock();
    const service = sharedWindow(server, { limit: 100, windowMs: 20_000, latencyMs: 5 });
    const processes = [waitRecorder(), waitRecorder()];
    const calls = processes.flatMap(({ observer, logger }) => {
      const send = testTransport({ rateLimit: 'auto', logger, logLevel: 'info', maxRetries: 5 });
      return Array.from({ length: 150 }, () => send(USERS, undefined, observer));
    });
    const outcomes = await settle(Promise.all(calls));
    expect(outcomes.error).toBeUndefined();
    expect(service.counts.ok).toBe(300);
    for (const { waits, lines } of processes) {
      const told = waits.filter((wait) => wait.kind === 'rate limit' && wait.ms >= 1000);
      // Each call that waited was told (the span, the metric); the log has a pair per wait.
      expect(told.length).toBeGreaterThan(100);
      const starts = lines.filter((line) => line.startsWith(`${PREFIX}waiting `));
      const ends = lines.filter((line) => line.startsWith(`${PREFIX}waited `));
      expect(starts.length).toBeGreaterThan(0);
      expect(ends.length).toBeLessThanOrEqual(starts.length);
      expect(lines.length).toBe(starts.length + ends.length);
      // Three windows: at most a wait for each of the two resets and its turns, each two lines.
      expect(lines.length).toBeLessThanOrEqual(8);
      expect(starts.join('\n')).toMatch(/calls queued\)/);
    }
  });
});
