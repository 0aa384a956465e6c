/**
 * The queue's timers and its choice, on a fake clock: `rateLimit: 'off'` makes no queue and
 * `'auto'` the one in memory; the wake timer is one, never longer than the cap (a reset just
 * over it is reached in two), following a reset that moved later, and cleared when the queue
 * empties; calls that leave by their signal leave the others in order.
 */
import { describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../src/core/config.js';
import { Log } from '../../src/core/logger.js';
import { createThrottle, RESET_ROUNDING_MS, Throttle } from '../../src/core/throttle.js';
import { MAX_WAIT_MS } from '../../src/internal/headers.js';
import { TEST_API_KEY, TEST_BASE_URL } from '../support/core.js';
import {
  answer,
  goesAt,
  queued,
  START,
  target,
  useFakeClockFromStart,
} from '../support/throttle.js';

useFakeClockFromStart();

describe('createThrottle', () => {
  const log = new Log(console, 'off');

  it("makes no queue for rateLimit: 'off', and the one in memory for 'auto'", () => {
    const config = (rateLimit: 'off' | 'auto') =>
      resolveConfig({ apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, rateLimit });
    expect(createThrottle(config('off'), log)).toBeUndefined();
    expect(createThrottle(config('auto'), log)).toBeInstanceOf(Throttle);
  });
});

describe('Throttle: the wake timer', () => {
  it('reaches a reset just over the cap in two timers, each within the cap', async () => {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(0, START + MAX_WAIT_MS + RESET_ROUNDING_MS));
    const call = queued(throttle);
    await vi.advanceTimersToNextTimerAsync();
    expect(Date.now() - START).toBe(MAX_WAIT_MS);
    expect(call.sentAt).toBeUndefined();
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersToNextTimerAsync();
    expect(call.sentAt).toBe(MAX_WAIT_MS + RESET_ROUNDING_MS);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('is one timer however many calls wait, and none once they all left by their signal', async () => {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(0, START + 5000));
    const controller = new AbortController();
    const calls = Array.from({ length: 3 }, () => queued(throttle, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort(new Error('gave up'));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((call) => (call.error as Error).message)).toEqual([
      'gave up',
      'gave up',
      'gave up',
    ]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('lets the others go in order when calls in the middle and at the head leave by their signal', async () => {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(0, START + 5000));
    const head = new AbortController();
    const middle = new AbortController();
    const order: string[] = [];
    const call = (name: string, signal?: AbortSignal) =>
      throttle.acquire({ target, signal }).then(
        () => {
          order.push(name);
          throttle.update(answer(50, START + 65_000));
        },
        () => order.push(`${name} aborted`),
      );
    const calls = [
      call('a', head.signal),
      call('b'),
      call('c', middle.signal),
      call('d'),
      call('e'),
    ];
    middle.abort();
    head.abort();
    await vi.advanceTimersByTimeAsync(5000);
    await Promise.all(calls);
    expect(order).toEqual(['c aborted', 'a aborted', 'b', 'd', 'e']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sends a call that arrives at the reset, before the timer fires, after the calls waiting', async () => {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(0, START + 5000));
    const order: string[] = [];
    const call = (name: string) =>
      throttle.acquire({ target }).then(() => {
        order.push(name);
        throttle.update(answer(50, START + 65_000));
      });
    const calls = [call('waiting'), call('also waiting')];
    vi.setSystemTime(START + 5000);
    calls.push(call('new'));
    await vi.advanceTimersByTimeAsync(0);
    await Promise.all(calls);
    expect(order).toEqual(['waiting', 'also waiting', 'new']);
  });

  it('follows a reset that an answer of the same window moved later', async () => {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(0, START + 30_000));
    const call = queued(throttle);
    await vi.advanceTimersByTimeAsync(1000);
    // Overtaken answers of one window: the reset reads a second later, and then earlier again.
    throttle.update(answer(0, START + 31_000));
    throttle.update(answer(0, START + 29_000));
    await goesAt(call, 31_000);
  });

  it('tells a call of a wait under a second, and rejects at once a call whose signal has aborted', async () => {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(0, START + 1000));
    vi.setSystemTime(START + 400);
    const onWait = vi.fn();
    const waiting = throttle.acquire({ target, onWait });
    expect(onWait).toHaveBeenCalledExactlyOnceWith(600, 'rate limit: X-RateLimit-Reset');
    await vi.advanceTimersByTimeAsync(600);
    await waiting;
    // The window is forgotten, and one request may go: not one whose caller gave up.
    await expect(
      new Throttle().acquire({ target, signal: AbortSignal.abort(new Error('before')) }),
    ).rejects.toThrow('before');
  });
});
