import { afterEach, describe, expect, it, vi } from 'vitest';
import { type PacingStore, type PacingWindow, resolveConfig } from '../../src/core/config.js';
import { ApiTimeoutError } from '../../src/core/errors.js';
import { Log } from '../../src/core/logger.js';
import { definePacingStore, SharedThrottle } from '../../src/core/shared-throttle.js';
import { createThrottle } from '../../src/core/throttle.js';
import { MAX_WAIT_MS } from '../../src/internal/headers.js';
import { TEST_API_KEY, TEST_BASE_URL } from '../support/core.js';

const START = Date.UTC(2026, 10, 22);
const target = { method: 'GET', url: `${TEST_BASE_URL}/v1/users` };

function useFakeClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START });
}

/** An answer's rate-limit headers: `remaining` left in a window that resets `resetInMs` from now. */
function rateHeaders(remaining: number, resetInMs: number, limit = 10) {
  return new Headers({
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(Math.ceil((Date.now() + resetInMs) / 1000)),
  });
}

describe('SharedThrottle (rateLimit: { store })', () => {
  const KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
  type Answer = number | undefined | Error | 'never';

  /** A store that answers `answers` in turn (the last one repeating) and records what it was told. */
  /** The key of every reserve: checked after each test, not inside `reserve`, where a failed
   * assertion would be a store failure the throttle falls back from. */
  const keys: string[] = [];
  afterEach(() => {
    expect(keys.filter((key) => key !== KEY)).toEqual([]);
    keys.length = 0;
  });

  function scriptedStore(...answers: Answer[]) {
    const reserved: string[] = [];
    const released: { holder: string; window: PacingWindow | undefined }[] = [];
    const store: PacingStore = {
      reserve: async (key, holder) => {
        keys.push(key);
        reserved.push(holder);
        const answer = answers.length > 1 ? answers.shift() : answers[0];
        if (answer === 'never') return new Promise(() => {});
        if (answer instanceof Error) throw answer;
        return answer;
      },
      release: async (_key, holder, window) => {
        released.push({ holder, window });
      },
    };
    return { store, reserved, released };
  }

  function sharedThrottle(store: PacingStore) {
    const lines: string[] = [];
    const log = new Log(
      {
        debug: () => {},
        info: (line) => lines.push(`info ${line}`),
        warn: (line) => lines.push(`warn ${line}`),
        error: (line) => lines.push(`error ${line}`),
      },
      'info',
    );
    return { throttle: new SharedThrottle(store, Promise.resolve(KEY), log), lines };
  }

  it('sends when the store answers 0, and gives the place back with what the answer said', async () => {
    useFakeClock();
    const { store, reserved, released } = scriptedStore(0);
    const { throttle, lines } = sharedThrottle(store);
    await throttle.acquire({ target });
    expect(keys).toEqual([KEY]);
    throttle.update(rateHeaders(7, 30_000));
    await vi.advanceTimersByTimeAsync(0);
    expect(released).toEqual([
      {
        holder: reserved[0],
        window: { limit: 10, remaining: 7, resetAt: Math.ceil((START + 30_000) / 1000) * 1000 },
      },
    ]);
    await throttle.acquire({ target });
    throttle.release();
    await vi.advanceTimersByTimeAsync(0);
    // Each place has a name of its own; an answer without headers frees it with no window.
    expect(new Set(reserved).size).toBe(2);
    expect(released[1]).toEqual({ holder: reserved[1], window: undefined });
    expect(lines).toEqual([]);
  });

  it('waits as long as the store says, tells the call why, then asks again', async () => {
    useFakeClock();
    const { store, reserved } = scriptedStore(5000, 0);
    const { throttle } = sharedThrottle(store);
    const onWait = vi.fn();
    let sent = false;
    const call = throttle.acquire({ target, onWait }).then(() => (sent = true));
    await vi.advanceTimersByTimeAsync(4999);
    expect(sent).toBe(false);
    expect(onWait).toHaveBeenCalledExactlyOnceWith(5000, 'rate limit: shared pacing store');
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(reserved).toHaveLength(2);
  });

  it("does not tell a call of the store's short waits, which are no reset", async () => {
    useFakeClock();
    const { store } = scriptedStore(25, 25, 0);
    const { throttle } = sharedThrottle(store);
    const onWait = vi.fn();
    const call = throttle.acquire({ target, onWait });
    await vi.advanceTimersByTimeAsync(50);
    await call;
    expect(onWait).not.toHaveBeenCalled();
  });

  it('asks again at once when a place of its own is freed', async () => {
    useFakeClock();
    const { store, reserved } = scriptedStore(0, 25, 0);
    const { throttle } = sharedThrottle(store);
    await throttle.acquire({ target });
    let sent = false;
    const second = throttle.acquire({ target }).then(() => (sent = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toBe(false);
    throttle.update(rateHeaders(5, 30_000));
    await vi.advanceTimersByTimeAsync(0);
    await second;
    expect(reserved).toHaveLength(3);
  });

  it.each<[string, Answer]>([
    ['cannot tell', undefined],
    ['fails', new Error('connection refused')],
    ['answers a negative wait', -5],
    ['answers a fraction', 1.5],
    ['answers NaN', Number.NaN],
    ['answers a wait beyond the 60 s cap', MAX_WAIT_MS + 60_000],
  ])('paces locally, at once and without failing, when the store %s', async (_, answer) => {
    useFakeClock();
    const { store } = scriptedStore(answer);
    const { throttle, lines } = sharedThrottle(store);
    await throttle.acquire({ target });
    throttle.update(rateHeaders(8, 30_000));
    await throttle.acquire({ target });
    throttle.update(rateHeaders(7, 30_000));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warn .*pacing store is unavailable.*pacing locally/);
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('gives a store that does not answer a second, then paces locally', async () => {
    useFakeClock();
    const { store } = scriptedStore('never');
    const { throttle, lines } = sharedThrottle(store);
    let sent = false;
    const call = throttle.acquire({ target }).then(() => (sent = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(sent).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(lines).toEqual([expect.stringMatching(/did not answer within 1000 ms/)]);
  });

  /**
   * A client whose first call the store did not answer within the second, so it went by local
   * pacing; the store's every question waits for the test to answer it (`grants`, in order), and
   * what it was told to release.
   */
  async function pacedLocallyFirst() {
    useFakeClock();
    const released: { holder: string; window: PacingWindow | undefined }[] = [];
    const grants: Array<(wait: number) => void> = [];
    const store: PacingStore = {
      reserve: () => new Promise((resolve) => grants.push(resolve)),
      release: async (_key, holder, window) => {
        released.push({ holder, window });
      },
    };
    const { throttle } = sharedThrottle(store);
    const first = throttle.acquire({ target });
    await vi.advanceTimersByTimeAsync(1000);
    await first;
    return { throttle, released, grants };
  }

  const resetIn30s = () => Math.ceil((Date.now() + 30_000) / 1000) * 1000;

  it('keeps a place the store grants late for the request paced locally meanwhile, until its answer', async () => {
    const { throttle, released, grants } = await pacedLocallyFirst();
    grants[0]!(0);
    await vi.advanceTimersByTimeAsync(0);
    // The place counts the request sent meanwhile: freed at once, the store would hand it to
    // another client while this request spends it, one answer 429 at the end of the window.
    expect(released).toEqual([]);
    throttle.update(rateHeaders(6, 30_000));
    await vi.advanceTimersByTimeAsync(0);
    expect(released).toEqual([
      {
        holder: expect.stringMatching(/^[0-9a-f]{16}:1$/),
        window: { limit: 10, remaining: 6, resetAt: resetIn30s() },
      },
    ]);
  });

  it('gives back again a place the store grants after the request it stood for was answered', async () => {
    const { throttle, released, grants } = await pacedLocallyFirst();
    throttle.update(rateHeaders(6, 30_000));
    await vi.advanceTimersByTimeAsync(0);
    grants[0]!(0);
    await vi.advanceTimersByTimeAsync(0);
    // A store whose release overtook the late grant would hold the place unused until it
    // expired, and every client of the key waiting while no window is known.
    const holder = expect.stringMatching(/^[0-9a-f]{16}:1$/);
    expect(released).toEqual([
      { holder, window: { limit: 10, remaining: 6, resetAt: resetIn30s() } },
      { holder, window: undefined },
    ]);
  });

  it('tells the store of each request it paces locally as it goes, and of its answer', async () => {
    const { throttle, released, grants } = await pacedLocallyFirst();
    throttle.update(rateHeaders(6, 30_000));
    // Within the second after a fallback, calls go by local pacing without waiting for the
    // store, but each still asks it: a store that is slow rather than gone counts the request.
    await throttle.acquire({ target });
    expect(grants).toHaveLength(2);
    grants[1]!(0);
    await vi.advanceTimersByTimeAsync(0);
    throttle.update(rateHeaders(5, 30_000));
    await vi.advanceTimersByTimeAsync(0);
    expect(released.map(({ holder, window }) => [holder.split(':')[1], window?.remaining])).toEqual(
      [
        ['1', 6],
        ['2', 5],
      ],
    );
    grants[0]!(5000);
    await vi.advanceTimersByTimeAsync(0);
    // A question answered with a wait gave no place: nothing more to give back.
    expect(released).toHaveLength(2);
  });

  it('asks the store again at the next call once it answers a locally paced request in time', async () => {
    const { throttle, grants } = await pacedLocallyFirst();
    throttle.update(rateHeaders(6, 30_000));
    await throttle.acquire({ target }); // within the second after: local, asking without waiting
    grants[1]!(25);
    await vi.advanceTimersByTimeAsync(0);
    // The store answers again: the next call waits for it, though the second has not passed; it
    // would have gone by local pacing into a window the store says the others hold.
    let sent = false;
    const third = throttle.acquire({ target }).then(() => (sent = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(grants).toHaveLength(3);
    expect(sent).toBe(false);
    grants[2]!(0);
    await third;
  });

  it("counts each fallback in the store's fallbacks, though it logs only the first of an outage", async () => {
    useFakeClock();
    // The second answer goes to the call paced locally, which asks without waiting.
    const scripted = scriptedStore(undefined, undefined, undefined, 0);
    const store = definePacingStore(scripted.store);
    const { throttle, lines } = sharedThrottle(store);
    expect(store.fallbacks).toBe(0);
    await throttle.acquire({ target });
    throttle.update(rateHeaders(98, 30_000, 100));
    expect(store.fallbacks).toBe(1);
    // Within the second that follows, calls pace locally without waiting for the store: no new
    // fallback.
    await throttle.acquire({ target });
    throttle.update(rateHeaders(97, 30_000, 100));
    expect(store.fallbacks).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    await throttle.acquire({ target });
    throttle.update(rateHeaders(96, 30_000, 100));
    expect(store.fallbacks).toBe(2);
    expect(scripted.reserved).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1000);
    await throttle.acquire({ target });
    expect(store.fallbacks).toBe(2);
    expect(lines).toEqual([
      expect.stringMatching(/^warn .*pacing locally/),
      expect.stringMatching(/^info .*answers again/),
    ]);
    // Read-only: the count is the SDK's to keep.
    expect(() => Object.assign(store, { fallbacks: 0 })).toThrow(TypeError);
  });

  it('paces by the answers it has seen while the store is down, and returns to it when it answers', async () => {
    useFakeClock();
    const { store, reserved } = scriptedStore(0, undefined, 0);
    const { throttle, lines } = sharedThrottle(store);
    await throttle.acquire({ target });
    // The last answer through the store: the window is spent for 10 s.
    throttle.update(rateHeaders(0, 10_000));
    let sent = false;
    const local = throttle.acquire({ target }).then(() => (sent = true));
    await vi.advanceTimersByTimeAsync(9000);
    expect(sent).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    await local;
    throttle.update(rateHeaders(9, 60_000));
    // A second later the store is asked again, answers, and pacing is shared again.
    await vi.advanceTimersByTimeAsync(1000);
    await throttle.acquire({ target });
    expect(reserved).toHaveLength(3);
    expect(lines).toEqual([
      expect.stringMatching(/^warn /),
      // The local queue tells its wait in the client's log, as the store's waits are told.
      expect.stringMatching(
        /^info \[employee-recognition\] waiting 10 s \(rate limit: X-RateLimit-Reset\) before GET /,
      ),
      'info [employee-recognition] The pacing store answers again: pacing is shared again.',
    ]);
  });

  it('rejects with ApiTimeoutError a call whose deadline comes before the wait ends', async () => {
    useFakeClock();
    const { store } = scriptedStore(5000);
    const { throttle } = sharedThrottle(store);
    const call = throttle.acquire({ target, deadline: Date.now() + 2000 });
    await expect(call).rejects.toBeInstanceOf(ApiTimeoutError);
  });

  it('takes an aborted call out of the queue and gives back a place granted meanwhile', async () => {
    useFakeClock();
    let grant: (wait: number) => void = () => {};
    const released: string[] = [];
    const store: PacingStore = {
      reserve: () => new Promise((resolve) => (grant = resolve)),
      release: async (_key, holder) => {
        released.push(holder);
      },
    };
    const { throttle } = sharedThrottle(store);
    const controller = new AbortController();
    const call = throttle.acquire({ target, signal: controller.signal });
    await vi.advanceTimersByTimeAsync(0);
    controller.abort(new Error('stop'));
    await expect(call).rejects.toThrow('stop');
    grant(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(released).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('names the key by a hash of the service and the identity, never the credential', async () => {
    const keys: string[] = [];
    const store = definePacingStore({
      reserve: async (key: string) => {
        keys.push(key);
        return 0;
      },
      release: async () => {},
    });
    const log = new Log(console, 'off');
    const tokens = (clientId: string) => Object.assign(async () => 'token-abcdefgh', { clientId });
    const configs = [
      { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL },
      { apiKey: TEST_API_KEY, baseUrl: 'https://other.example' },
      { apiKey: tokens('rc_one'), baseUrl: TEST_BASE_URL },
      { apiKey: tokens('rc_one'), baseUrl: TEST_BASE_URL },
      { apiKey: tokens('rc_two'), baseUrl: TEST_BASE_URL },
      { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, key: 'nightly-export' },
    ];
    for (const { key, ...options } of configs) {
      const throttle = createThrottle(
        resolveConfig({ ...options, rateLimit: { store, key } }),
        log,
      );
      await throttle!.acquire({ target });
    }
    expect(keys.every((key) => /^[0-9a-f]{32}$/.test(key))).toBe(true);
    // Same identity and service, same key; any difference, another key.
    expect(keys[2]).toBe(keys[3]);
    expect(new Set(keys).size).toBe(5);
    // Lower-cased, the key's body is hex itself: this could show in a hex name, and does not.
    expect(keys.join()).not.toContain(TEST_API_KEY.slice(8).toLowerCase());
  });
});
