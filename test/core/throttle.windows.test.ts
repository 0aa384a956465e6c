/**
 * How the throttle reads the windows its answers tell of, one answer at a time on a fake clock:
 * one request in flight, then one more per answer; a window forgotten at its reset; answers of
 * one window that overtake each other; a new window; an earlier reset of a spent sliding window
 * or token bucket. Each case checks when the next call goes, to the millisecond.
 */
import { describe, expect, it, vi } from 'vitest';
import { Throttle } from '../../src/core/throttle.js';
import {
  answer,
  goesAt,
  queued,
  START,
  target,
  useFakeClockFromStart,
} from '../support/throttle.js';

useFakeClockFromStart();

/** Lets settled promises run, without moving the clock. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('Throttle: requests in flight', () => {
  it('sends one request before the first answer, then one more in flight per answer', async () => {
    const throttle = new Throttle();
    const calls = Array.from({ length: 6 }, () => queued(throttle));
    await settle();
    expect(calls.map((call) => call.sentAt !== undefined)).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
    // The first answer: two in flight at once.
    throttle.update(answer(99, START + 60_000));
    await settle();
    expect(calls.filter((call) => call.sentAt !== undefined)).toHaveLength(3);
    // One more answer: three in flight.
    throttle.update(answer(98, START + 60_000));
    await settle();
    expect(calls.filter((call) => call.sentAt !== undefined)).toHaveLength(5);
  });

  it('frees the place of a request that got no answer, and a release grows no window', async () => {
    const throttle = new Throttle();
    const calls = Array.from({ length: 3 }, () => queued(throttle));
    await settle();
    throttle.release();
    await settle();
    expect(calls.filter((call) => call.sentAt !== undefined)).toHaveLength(2);
    // Still one in flight at a time: no answer has said anything.
    throttle.release();
    await settle();
    expect(calls.filter((call) => call.sentAt !== undefined)).toHaveLength(3);
  });

  it('frees one place per request that got no answer', async () => {
    const throttle = new Throttle();
    const calls = Array.from({ length: 5 }, () => queued(throttle));
    await settle();
    throttle.update(answer(99, START + 60_000));
    await settle();
    // Two in flight, of two allowed: one gives up, one more goes.
    throttle.release();
    await settle();
    expect(calls.filter((call) => call.sentAt !== undefined)).toHaveLength(4);
  });

  it('lets the next call go when the request that was to measure the others got no answer', async () => {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    // 12 left of 20: 6 go at once, one more when the rate span ends, whose answer measures.
    let left = 12;
    throttle.update(answer(left, START + 60_000, 20));
    for (let call = 0; call < 6; call++) {
      await throttle.acquire({ target });
      throttle.update(answer(--left, START + 60_000, 20));
    }
    const measuring = queued(throttle);
    const next = queued(throttle);
    await vi.advanceTimersByTimeAsync(1000);
    expect([measuring.sentAt, next.sentAt]).toEqual([1000, undefined]);
    throttle.release();
    await settle();
    expect(next.sentAt).toBe(1000);
  });

  it('an answer without rate-limit headers frees the place and grows the window', async () => {
    const throttle = new Throttle();
    const calls = Array.from({ length: 4 }, () => queued(throttle));
    await settle();
    throttle.update(new Headers());
    await settle();
    expect(calls.filter((call) => call.sentAt !== undefined)).toHaveLength(3);
  });
});

describe('Throttle: a spent window', () => {
  it('holds every call until its reset, then sends one and waits for its answer', async () => {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(0, START + 5000));
    const calls = Array.from({ length: 3 }, () => queued(throttle));
    await vi.advanceTimersByTimeAsync(4999);
    expect(calls.map((call) => call.sentAt)).toEqual([undefined, undefined, undefined]);
    await vi.advanceTimersByTimeAsync(1);
    // The window is forgotten at its reset: one request finds out what the next one allows.
    expect(calls.map((call) => call.sentAt)).toEqual([5000, undefined, undefined]);
    throttle.update(answer(99, START + 65_000));
    await settle();
    expect(calls.map((call) => call.sentAt)).toEqual([5000, 5000, 5000]);
  });

  it('keeps the lowest count of answers that overtook each other in one window', async () => {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(0, START + 5000));
    // An older answer of the same window, overtaken: it still had 3 left.
    throttle.update(answer(3, START + 5000));
    const call = queued(throttle);
    await goesAt(call, 5000);
  });

  it('keeps the latest reset of one window, read a second or two apart', async () => {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(0, START + 6000));
    throttle.update(answer(0, START + 4000));
    const call = queued(throttle);
    await goesAt(call, 6000);
  });

  it('takes a later reset more than two seconds on as a new window, with its count', async () => {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(0, START + 5000));
    const call = queued(throttle);
    await settle();
    // A window this client had not seen: 50 left, though the last one was spent.
    throttle.update(answer(50, START + 7001));
    await settle();
    expect(call.sentAt).toBe(0);
  });

  it('takes a reset two seconds later, long before the known one, as the same window', async () => {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(0, START + 5000));
    throttle.update(answer(50, START + 7000));
    const call = queued(throttle);
    await goesAt(call, 7000);
  });

  it('takes a count risen beyond its own requests, on a later reset near the known one, as a refilled window', async () => {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(0, START + 5000));
    const call = queued(throttle);
    await vi.advanceTimersByTimeAsync(3000);
    expect(call.sentAt).toBeUndefined();
    throttle.update(answer(2, START + 6000));
    await settle();
    expect(call.sentAt).toBe(3000);
  });

  it.each([
    ['a count its own answers overtaking each other explain', 1, 3000],
    ['a risen count more than two seconds before the reset', 2, 2999],
  ])('takes %s as the same window', async (_, remaining, at) => {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(0, START + 5000));
    const call = queued(throttle);
    await vi.advanceTimersByTimeAsync(at);
    throttle.update(answer(remaining, START + 6000));
    await vi.advanceTimersByTimeAsync(5999 - at);
    expect(call.sentAt).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(call.sentAt).toBe(6000);
  });

  it('takes an earlier reset still ahead of a spent window as when the next request is allowed', async () => {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(40, START + 60_000));
    // A sliding window, spent: its next request is allowed in 10 s, long before it is whole.
    throttle.update(answer(0, START + 10_000));
    const call = queued(throttle);
    await goesAt(call, 10_000);
  });

  it('ignores an earlier reset with requests left, or one within two seconds', async () => {
    for (const [remaining, resetAt] of [
      [1, START + 10_000],
      [0, START + 2000],
    ] as const) {
      const throttle = new Throttle();
      await throttle.acquire({ target });
      throttle.update(answer(40, START + 60_000));
      throttle.update(answer(remaining, resetAt));
      const call = queued(throttle);
      await settle();
      expect(call.sentAt).toBe(0);
    }
  });
});

describe('Throttle: which answers start a new window', () => {
  it('takes a count risen on the same reset, a moment before it, as an answer overtaken', async () => {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    vi.setSystemTime(START + 4000);
    throttle.update(answer(0, START + 5000));
    // An older answer of the same window: 3 left then, none now.
    throttle.update(answer(3, START + 5000));
    const call = queued(throttle);
    await goesAt(call, 5000);
  });

  it('takes a risen count its requests still in flight explain as the same window, on a later reset near it', async () => {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(10, START + 5000));
    await throttle.acquire({ target });
    await throttle.acquire({ target });
    throttle.update(answer(9, START + 5000));
    await throttle.acquire({ target });
    await throttle.acquire({ target });
    // Three in flight: one answer says the window is spent, an older one, overtaken, 2 left.
    vi.setSystemTime(START + 4000);
    throttle.update(answer(0, START + 5000));
    throttle.update(answer(2, START + 6000));
    const call = queued(throttle);
    await vi.advanceTimersByTimeAsync(1999);
    expect(call.sentAt).toBeUndefined();
    // The answer of the last one in flight tells of the next window.
    throttle.update(answer(99, START + 66_000));
    await settle();
    expect(call.sentAt).toBe(5999);
  });

  it("does not count an answer of the window before, heard after its reset, in the next window's start", async () => {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(50, START + 5000));
    await throttle.acquire({ target });
    await throttle.acquire({ target });
    // Both in flight at the reset: the next window starts with one request in flight at a time.
    vi.setSystemTime(START + 5000);
    const call = queued(throttle);
    await settle();
    expect(call.sentAt).toBeUndefined();
    // An answer to a request of the window before: one in flight still, the next window unknown.
    throttle.update(answer(47, START + 5000));
    await settle();
    expect(call.sentAt).toBeUndefined();
    throttle.release();
    await settle();
    expect(call.sentAt).toBe(5000);
  });
});
