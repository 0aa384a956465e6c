/**
 * A window's first rate span, on a fake clock: before a span has shown whether others spend the
 * window, a client sends at once half of what its first answer said was left, or ten (at most a
 * quarter of the limit) when that is more; then one request when the span ends, whose answer
 * measures; then, alone, the rest at once.
 */
import { describe, expect, it, vi } from 'vitest';
import { Throttle } from '../../src/core/throttle.js';
import { answer, START, target, useFakeClockFromStart } from '../support/throttle.js';

useFakeClockFromStart();

/**
 * A client alone on a key: its first answer says `remaining` of `limit` are left in a window that
 * resets in a minute; each later call is answered at once. When each of `calls` more went (ms
 * since START).
 */
async function alone(remaining: number, limit: number, calls: number) {
  const resetAt = START + 60_000;
  const throttle = new Throttle();
  await throttle.acquire({ target });
  let left = remaining;
  throttle.update(answer(left, resetAt, limit));
  const sentAt: number[] = [];
  const done = Array.from({ length: calls }, () =>
    throttle.acquire({ target }).then(() => {
      sentAt.push(Date.now() - START);
      throttle.update(answer(--left, resetAt, limit));
    }),
  );
  await vi.advanceTimersByTimeAsync(5000);
  await Promise.all(done);
  return sentAt;
}

/** How many of `sentAt` went at each time. */
function countsAt(sentAt: number[]) {
  const counts = new Map<number, number>();
  for (const at of sentAt) counts.set(at, (counts.get(at) ?? 0) + 1);
  return Object.fromEntries(counts);
}

describe('Throttle: the first rate span of a window', () => {
  it('sends half of what was left at once, then one at the span end, then the rest once it answered', async () => {
    expect(countsAt(await alone(40, 100, 30))).toEqual({ 0: 20, 1000: 10 });
  });

  it('sends ten at once when half of what was left is fewer', async () => {
    expect(countsAt(await alone(12, 100, 11))).toEqual({ 0: 10, 1000: 1 });
  });

  it('sends a quarter of the limit at once when that is fewer than ten, and half of what was left fewer still', async () => {
    expect(countsAt(await alone(9, 20, 8))).toEqual({ 0: 5, 1000: 3 });
  });

  it('sends half of what was left when a quarter of the limit is fewer', async () => {
    expect(countsAt(await alone(16, 20, 10))).toEqual({ 0: 8, 1000: 2 });
  });
});

describe('Throttle: a window after one the others spent', () => {
  /**
   * A client that saw the others spend 19 of its window's 50 in a second, with a request of its
   * own in flight when the next window shows: at its reset (`expired`), or on an answer before it.
   * When each of 40 calls after that went, each answered at once (ms since START).
   */
  async function afterOthersSpent(expired: boolean) {
    const resetAt = START + 10_000;
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(50, resetAt, 100));
    await throttle.acquire({ target });
    vi.setSystemTime(START + 1000);
    throttle.update(answer(30, resetAt, 100));
    await throttle.acquire({ target });
    vi.setSystemTime(expired ? resetAt : resetAt - 1000);
    const sentAt: number[] = [];
    let left = 90;
    const next = () =>
      throttle.acquire({ target }).then(() => {
        sentAt.push(Date.now() - START);
        throttle.update(answer(--left, START + 20_000, 100));
      });
    const calls = expired ? [next()] : [];
    throttle.update(answer(left, START + 20_000, 100));
    calls.push(...Array.from({ length: 40 }, next));
    await vi.advanceTimersByTimeAsync(0);
    return countsAt(sentAt);
  }

  // Its part of the last window: 1 of the 20 requests its answers showed (its own, the others'
  // 19), so 90 × 1/20 = 4.5 of the next one's 90 before a span has measured the others. Alone,
  // it would have sent 45 at once.
  it('sends its part of the last window at once, when the reset has passed first', async () => {
    expect(await afterOthersSpent(true)).toEqual({ 10000: 5 });
  });

  it('sends its part of the last window at once, when an answer shows the next before the reset', async () => {
    expect(await afterOthersSpent(false)).toEqual({ 9000: 5 });
  });
});

describe('Throttle: the answer that ends the first rate span', () => {
  it('spaces the calls after it by its part of what is left when it shows others spending', async () => {
    const resetAt = START + 10_000;
    const throttle = new Throttle();
    await throttle.acquire({ target });
    let left = 80;
    throttle.update(answer(left, resetAt));
    const sentAt: number[] = [];
    const calls = Array.from({ length: 44 }, () =>
      throttle.acquire({ target }).then(() => {
        sentAt.push(Date.now() - START);
        // The answer of the request at the span's end shows 3 of the others' requests.
        left -= Date.now() - START === 1000 ? 4 : 1;
        throttle.update(answer(left, resetAt));
      }),
    );
    await vi.advanceTimersByTimeAsync(5000);
    await Promise.all(calls);
    expect(countsAt(sentAt)).toEqual({ 0: 40, 1000: 1, 2000: 3 });
  });
  it('lets the next call go when that request got no answer, though others spend the window', async () => {
    const resetAt = START + 10_000;
    const throttle = new Throttle();
    await throttle.acquire({ target });
    // 20 left: ten go at once, the last one's answer showing 3 of the others' requests.
    let left = 20;
    throttle.update(answer(left, resetAt));
    for (let call = 0; call < 10; call++) {
      await throttle.acquire({ target });
      left -= call === 9 ? 4 : 1;
      throttle.update(answer(left, resetAt));
    }
    let measuringAt: number | undefined;
    let nextAt: number | undefined;
    void throttle.acquire({ target }).then(() => (measuringAt = Date.now() - START));
    void throttle.acquire({ target }).then(() => (nextAt = Date.now() - START));
    await vi.advanceTimersByTimeAsync(1000);
    expect([measuringAt, nextAt]).toEqual([1000, undefined]);
    throttle.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(nextAt).toBe(1000);
  });
});
