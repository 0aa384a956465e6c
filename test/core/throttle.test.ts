import { getEventListeners } from 'node:events';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { ApiTimeoutError, RateLimitError } from '../../src/core/errors.js';
import type { CallObserver } from '../../src/core/observer.js';
import { Throttle } from '../../src/core/throttle.js';
import { MAX_WAIT_MS } from '../../src/internal/headers.js';
import {
  getUsers,
  sharedWindow,
  TEST_BASE_URL,
  testTransport,
  useScriptedServer,
  waitRecorder,
} from '../support/core.js';

const { server } = useScriptedServer();

const START = Date.UTC(2026, 10, 22);
const target = { method: 'GET', url: `${TEST_BASE_URL}/v1/users` };

function useFakeClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START });
}

/** An answer's rate-limit headers: `remaining` left in a window that resets `resetInMs` from now. */
function rateHeaders(remaining: number, resetInMs: number | string, limit = 10) {
  const reset =
    typeof resetInMs === 'string' ? resetInMs : String(Math.ceil((Date.now() + resetInMs) / 1000));
  return new Headers({
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': reset,
  });
}

/**
 * A fixed-window limiter like the service's, one allowance for every client: `limit` requests per
 * `windowMs`, 429 with Retry-After past it.
 */
function limitedService(limit: number, windowMs: number) {
  const counts = { ok: 0, limited: 0 };
  let windowStart: number | undefined;
  let used = 0;
  server.use(
    http.get(`${TEST_BASE_URL}/v1/users`, () => {
      const now = Date.now();
      // The first request opens the first window, on whatever clock the test runs.
      windowStart ??= now;
      if (now - windowStart >= windowMs) {
        windowStart = now - ((now - windowStart) % windowMs);
        used = 0;
      }
      const reset = String(Math.ceil((windowStart + windowMs) / 1000));
      const headers = { 'x-ratelimit-limit': String(limit), 'x-ratelimit-reset': reset };
      if (used >= limit) {
        counts.limited++;
        const retryAfter = String(Math.ceil((windowStart + windowMs - now) / 1000));
        return HttpResponse.json(
          { error: { code: 'rate_limited', message: 'slow down' } },
          {
            status: 429,
            headers: { ...headers, 'x-ratelimit-remaining': '0', 'retry-after': retryAfter },
          },
        );
      }
      used++;
      counts.ok++;
      return HttpResponse.json(
        { data: [] },
        { headers: { ...headers, 'x-ratelimit-remaining': String(limit - used) } },
      );
    }),
  );
  return counts;
}

/** `size` calls from each of `clients` clients at once, all timers run; the outcomes in order. */
async function burst(size: number, rateLimit: 'auto' | 'off', clients = 1) {
  useFakeClock();
  const transports = Array.from({ length: clients }, () =>
    testTransport({ rateLimit, maxRetries: 5 }),
  );
  const calls = transports.flatMap((transport) =>
    Array.from({ length: size }, () =>
      transport({ method: 'GET', path: '/v1/users' }).then(
        () => 'ok',
        (error: unknown) => String(error),
      ),
    ),
  );
  await vi.runAllTimersAsync();
  return Promise.all(calls);
}

describe("rateLimit: 'auto'", () => {
  it('spaces a burst over the windows so that no request meets a 429', async () => {
    const counts = limitedService(10, 1000);
    const outcomes = await burst(35, 'auto');
    expect(outcomes.filter((outcome) => outcome !== 'ok')).toEqual([]);
    expect(counts).toEqual({ ok: 35, limited: 0 });
  });

  it('is needed: the same burst without it meets 429s', async () => {
    const counts = limitedService(10, 1000);
    await burst(35, 'off');
    expect(counts.limited).toBeGreaterThan(0);
  });

  it('keeps four clients of one key within a few 429s, and none of their calls fails', async () => {
    const counts = limitedService(100, 1000);
    const outcomes = await burst(100, 'auto', 4);
    expect(outcomes.filter((outcome) => outcome !== 'ok')).toEqual([]);
    expect(counts.ok).toBe(400);
    expect(counts.limited).toBeLessThanOrEqual(0.05 * (counts.ok + counts.limited));
  });

  it('sends a lone request without waiting', async () => {
    limitedService(10, 1000);
    await expect(getUsers({ rateLimit: 'auto' })).resolves.toMatchObject({ body: { data: [] } });
  });

  it('does not pace a service that sends no rate-limit headers', async () => {
    let inFlight = 0;
    let most = 0;
    server.use(
      http.get(`${TEST_BASE_URL}/v1/users`, async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight--;
        return HttpResponse.json({ data: [] });
      }),
    );
    const outcomes = await burst(64, 'auto');
    expect(outcomes.every((outcome) => outcome === 'ok')).toBe(true);
    expect(most).toBeGreaterThan(8);
  });

  it('gives back the place of a call whose beforeRequest hook fails, so later calls still go', async () => {
    limitedService(10, 1000);
    const send = testTransport({ rateLimit: 'auto' });
    const failing = send(
      { method: 'GET', path: '/v1/users' },
      {
        hooks: {
          beforeRequest: [
            () => {
              throw new Error('hook failed');
            },
          ],
        },
      },
    );
    await expect(failing).rejects.toThrow();
    await expect(send({ method: 'GET', path: '/v1/users' })).resolves.toMatchObject({
      body: { data: [] },
    });
  });
});

describe('Throttle', () => {
  /** A throttle whose window is spent: nothing goes until the reset `resetInMs` from now. */
  async function spent(resetInMs: number) {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(rateHeaders(0, resetInMs));
    return throttle;
  }

  it('lets calls go first come, first served, across windows', async () => {
    useFakeClock();
    const throttle = await spent(1000);
    const order: number[] = [];
    // A window of two calls a second.
    const calls = Array.from({ length: 6 }, (_, index) =>
      throttle.acquire({ target }).then(() => {
        order.push(index);
        throttle.update(rateHeaders(1 - (index % 2), 1000 - (Date.now() % 1000), 2));
      }),
    );
    for (let second = 0; second < 3; second++) await vi.advanceTimersByTimeAsync(1000);
    await Promise.all(calls);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('tells each call once how long it waits, and why', async () => {
    useFakeClock();
    const throttle = await spent(5000);
    const onWait = vi.fn();
    const waiting = throttle.acquire({ target, onWait });
    expect(onWait).toHaveBeenCalledExactlyOnceWith(5000, 'rate limit: X-RateLimit-Reset');
    await vi.advanceTimersByTimeAsync(5000);
    await waiting;
    expect(onWait).toHaveBeenCalledOnce();
  });

  it('refuses at once, with a local RateLimitError, a wait for a reset beyond the cap', async () => {
    useFakeClock();
    const throttle = await spent(MAX_WAIT_MS + 60_000);
    const error = await throttle.acquire({ target }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, local: true, retryAfter: MAX_WAIT_MS + 60_000 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('waits for a full window whose whole-second reset reads a little over the cap', async () => {
    useFakeClock();
    vi.setSystemTime(START + 437);
    const throttle = await spent(MAX_WAIT_MS);
    const waiting = throttle.acquire({ target });
    await vi.advanceTimersByTimeAsync(MAX_WAIT_MS + 1000);
    await expect(waiting).resolves.toBeUndefined();
  });

  it('refuses the calls already waiting when an answer moves the reset beyond the cap', async () => {
    useFakeClock();
    const throttle = new Throttle();
    await throttle.acquire({ target });
    const waiting = throttle.acquire({ target });
    throttle.update(rateHeaders(0, 3_600_000));
    await expect(waiting).rejects.toBeInstanceOf(RateLimitError);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('paces a shared key within the cap even when its reset is an hour away', async () => {
    useFakeClock();
    const throttle = new Throttle();
    await throttle.acquire({ target });
    // 95 of the window's 100 spent by others: this client paces its share of what is left.
    throttle.update(rateHeaders(5, 3_600_000, 100));
    let done = 0;
    const calls = Array.from({ length: 3 }, () =>
      throttle.acquire({ target }).then(() => {
        done++;
        throttle.update(rateHeaders(5, 3_600_000, 100));
      }),
    );
    for (let minute = 0; minute < 3 && done < 3; minute++) {
      await vi.advanceTimersByTimeAsync(MAX_WAIT_MS);
    }
    await Promise.all(calls);
    expect(done).toBe(3);
  });

  it.each(['1e308', 'Infinity', 'NaN', '-5', '99999999999999'])(
    'ignores a reset of %s: no wait, no timer',
    async (reset) => {
      useFakeClock();
      const throttle = new Throttle();
      await throttle.acquire({ target });
      throttle.update(rateHeaders(0, reset));
      await throttle.acquire({ target });
      expect(vi.getTimerCount()).toBe(0);
    },
  );

  it('rejects at once a call whose deadline comes before the reset', async () => {
    useFakeClock();
    const throttle = await spent(10_000);
    const error = await throttle
      .acquire({ target, deadline: Date.now() + 2000 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(error).toMatchObject({ method: 'GET', url: target.url });
    expect((error as Error).message).toMatch(/rate limit .*timeout/);
  });

  it('rejects a waiting call when its deadline passes, though the window is not known yet', async () => {
    useFakeClock();
    const throttle = new Throttle();
    await throttle.acquire({ target }); // the first request, whose answer is still to come
    const waiting = throttle.acquire({ target, deadline: Date.now() + 3000 });
    const failure = expect(waiting).rejects.toBeInstanceOf(ApiTimeoutError);
    await vi.advanceTimersByTimeAsync(3000);
    await failure;
    expect(vi.getTimerCount()).toBe(0);
  });

  it('takes an aborted call out of the queue with its signal and leaves no timer behind', async () => {
    useFakeClock();
    const throttle = await spent(10_000);
    const controller = new AbortController();
    const listeners = () => getEventListeners(controller.signal, 'abort').length;
    const waiting = throttle.acquire({ target, signal: controller.signal });
    const alsoWaiting = throttle.acquire({ target, signal: controller.signal });
    // One listener however many calls wait on the signal.
    expect(listeners()).toBe(1);
    controller.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
    await expect(alsoWaiting).rejects.toThrow('gave up');
    expect(listeners()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    await expect(
      throttle.acquire({ target, signal: AbortSignal.abort(new Error('before')) }),
    ).rejects.toThrow('before');
  });

  it('takes its listener off the signal once the calls waiting on it have gone', async () => {
    useFakeClock();
    const throttle = await spent(1000);
    const controller = new AbortController();
    const calls = [1, 2].map(() => throttle.acquire({ target, signal: controller.signal }));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    await calls[0];
    throttle.update(rateHeaders(5, 60_000));
    await calls[1];
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('holds 10,000 waiting calls with two timers at most, and lets them all go', async () => {
    useFakeClock();
    const throttle = await spent(1000);
    let done = 0;
    const calls = Array.from({ length: 10_000 }, () =>
      throttle.acquire({ target, deadline: Date.now() + 600_000 }).then(() => {
        done++;
        throttle.update(rateHeaders(10_000 - done, 60_000, 10_000));
      }),
    );
    expect(vi.getTimerCount()).toBeLessThanOrEqual(2);
    // After the reset one call goes, then one more in flight per answer: 1, 2, 4… at once, half
    // of what its first answer left; the rest once a rate span has shown that no one else spends it.
    await vi.advanceTimersByTimeAsync(1000);
    expect(done).toBe(1 + 5000);
    await vi.advanceTimersByTimeAsync(1000);
    await Promise.all(calls);
    expect(done).toBe(10_000);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("rateLimit: 'auto' on a key with history and live use", () => {
  const USERS = { method: 'GET', path: '/v1/users' } as const;

  /** `calls` calls, one after the other, each run to its end: the simulated time each took. */
  async function sequential(
    send: ReturnType<typeof testTransport>,
    calls: number,
    observer?: CallObserver,
  ) {
    const took: number[] = [];
    for (let index = 0; index < calls; index++) {
      const started = Date.now();
      const call = send(USERS, undefined, observer);
      await vi.runAllTimersAsync();
      await call;
      took.push(Date.now() - started);
      // Nothing armed for the next call: no wake, no deadline.
      expect(vi.getTimerCount()).toBe(0);
    }
    return took;
  }

  it.each([
    ['partly spent by a process that has ended', 12, 10],
    ['spent earlier, with enough left', 90, 8],
  ])(
    'sends at once in a window %s: no wait, no timer, no 429, nothing reported',
    async (_, spent, calls) => {
      useFakeClock();
      const service = sharedWindow(server, { limit: 100, windowMs: 60_000 });
      service.spend(spent);
      const { waits, lines, observer, logger } = waitRecorder();
      const send = testTransport({ rateLimit: 'auto', logger, logLevel: 'info' });
      expect(await sequential(send, calls, observer)).toEqual(Array(calls).fill(0));
      expect(waits).toEqual([]);
      expect(lines).toEqual([]);
      expect(service.counts).toEqual({ ok: calls, limited: 0 });
    },
  );

  it('learns a spent window from one 429, then waits for its reset, sends nothing before it, and says so', async () => {
    useFakeClock();
    vi.setSystemTime(START + 437);
    const service = sharedWindow(server, { limit: 100, windowMs: 60_000 });
    service.spend(100);
    const { waits, lines, observer, logger } = waitRecorder();
    const send = testTransport({ rateLimit: 'auto', logger, logLevel: 'info', maxRetries: 0 });
    const first = send(USERS, undefined, observer).catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    expect(await first).toBeInstanceOf(RateLimitError);
    expect(waits).toEqual([]);
    const resetAt = Math.ceil(service.resetAt() / 1000) * 1000;
    const second = send(USERS, undefined, observer);
    const expected = resetAt - Date.now();
    expect(waits).toEqual([
      { kind: 'rate limit', ms: expected, cause: 'rate limit: X-RateLimit-Reset' },
    ]);
    expect(lines).toEqual([
      `[employee-recognition] waiting ${Math.round(expected / 1000)} s (rate limit: X-RateLimit-Reset) before GET ${TEST_BASE_URL}/v1/users`,
    ]);
    await vi.runAllTimersAsync();
    await second;
    expect(service.sentAt).toEqual([START + 437, resetAt]);
    expect(service.counts).toEqual({ ok: 1, limited: 1 });
  });

  it('shares a window two live clients need more of than it holds: no failure, few 429s, each paced wait told', async () => {
    useFakeClock();
    vi.setSystemTime(START + 437);
    const service = sharedWindow(server, { limit: 40, windowMs: 4000, latencyMs: 20 });
    const recorders = [waitRecorder(), waitRecorder()];
    const sends = recorders.map(({ logger }) =>
      testTransport({ rateLimit: 'auto', logger, logLevel: 'info' }),
    );
    const started = Date.now();
    const finished: number[] = [];
    const failures: unknown[] = [];
    const jobs = sends.map(async (send, client) => {
      let next = 0;
      const worker = async () => {
        while (next < 60) {
          next++;
          await send(USERS, undefined, recorders[client]!.observer).catch((error: unknown) =>
            failures.push(error),
          );
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      finished.push(Date.now() - started);
    });
    await vi.runAllTimersAsync();
    await Promise.all(jobs);
    // The paced waits are told to each call; the log has a line for each wait of a second or
    // more, shared by the calls queued behind it (a start, and an end when several waited).
    const told = recorders.flatMap(({ waits }) => waits);
    expect(
      told.filter((wait) => wait.cause === "rate limit: the key's live use is shared"),
    ).not.toEqual([]);
    for (const { waits, lines } of recorders) {
      const long = waits.filter((wait) => wait.ms >= 1000);
      expect(lines.length > 0).toBe(long.length > 0);
      expect(lines.length).toBeLessThanOrEqual(2 * long.length);
      for (const line of lines) {
        expect(line).toMatch(
          /^\[employee-recognition\] (waiting \d+ s \((rate limit: [^)]*)\) before GET |waiting \d+ s for the rate-limit window \(rate limit: [^;]*; \d+ calls queued\)$|waited \d+ s for the rate-limit window \(rate limit: [^)]*\): \d+ queued calls go$)/,
        );
      }
    }
    expect(failures).toEqual([]);
    expect(service.counts.ok).toBe(120);
    expect(service.counts.limited).toBeLessThanOrEqual(0.05 * (120 + service.counts.limited));
    // The window arithmetic: 120 requests are three windows of 40, the last sent at its start.
    expect(Math.max(...finished)).toBeLessThanOrEqual(1.4 * 8000);
    expect(vi.getTimerCount()).toBe(0);
  });
});
