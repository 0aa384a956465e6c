/**
 * Whether the others were live when a window ends, on a fake clock, answer by answer: a window
 * the others spent while this client's calls waited or its requests were in flight starts slow
 * (one request in flight, then one more per answer) and its first rate span sends at most this
 * client's part of the window before; one they spent while it was idle, or that it spent alone,
 * starts as a first window does (half of what is left, or ten at most a quarter of the limit).
 */
import { describe, expect, it, vi } from 'vitest';
import { Throttle } from '../../src/core/throttle.js';
import { answer, START, target, useFakeClockFromStart } from '../support/throttle.js';

useFakeClockFromStart();

const FIRST_RESET = START + 10_000;
const NEXT_RESET = START + 20_000;

/** Lets settled promises run, without moving the clock. */
const settle = () => vi.advanceTimersByTimeAsync(0);

/**
 * Calls on `throttle`, each answered as soon as it goes, counting down from `left` (of 100) in
 * the window that resets at `resetAt`: when each went (ms since START).
 */
function answeredAtOnce(throttle: Throttle, left: number, resetAt = NEXT_RESET) {
  const sentAt: number[] = [];
  const call = () =>
    throttle.acquire({ target }).then(() => {
      sentAt.push(Date.now() - START);
      throttle.update(answer(--left, resetAt));
    });
  return { sentAt, call };
}

/** Calls on `throttle` that get no answer: how many went. */
async function goingAtOnce(throttle: Throttle, calls: number) {
  let went = 0;
  for (let call = 0; call < calls; call++) void throttle.acquire({ target }).then(() => went++);
  await settle();
  return went;
}

/** How many of `sentAt` went at each time. */
function countsAt(sentAt: number[]) {
  const counts = new Map<number, number>();
  for (const at of sentAt) counts.set(at, (counts.get(at) ?? 0) + 1);
  return Object.fromEntries(counts);
}

/**
 * A client whose two answers a second apart showed the others spend 19 of the first window's 50
 * (`left` the second said), none of its requests in flight.
 */
async function beside19(left = 30) {
  const throttle = new Throttle();
  await throttle.acquire({ target });
  throttle.update(answer(50, FIRST_RESET));
  await throttle.acquire({ target });
  vi.setSystemTime(START + 1000);
  throttle.update(answer(left, FIRST_RESET));
  return throttle;
}

describe('Throttle: a window after one the others spent', () => {
  it('starts slow when the others spent the window while calls waited here for its reset', async () => {
    // The others took 49 of the 50: the window is spent, the calls wait for its reset.
    const throttle = await beside19(0);
    const { sentAt, call } = answeredAtOnce(throttle, 12);
    const calls = Array.from({ length: 8 }, call);
    await vi.advanceTimersByTimeAsync(8999);
    expect(sentAt).toEqual([]);
    await vi.advanceTimersByTimeAsync(2001);
    await Promise.all(calls);
    // Its part of the last window, 1 of 50: a fraction of the 11 left, so one request after the
    // first; one when the rate span ends, whose answer shows it alone; then the rest.
    expect(countsAt(sentAt)).toEqual({ 10000: 2, 11000: 6 });
  });

  it('starts as a first window when the others spent the window while nothing waited here', async () => {
    const throttle = await beside19();
    vi.setSystemTime(FIRST_RESET);
    const { sentAt, call } = answeredAtOnce(throttle, 12);
    await Promise.all(Array.from({ length: 8 }, call));
    // Ten of the 11 left before a span measures: all eight at once.
    expect(countsAt(sentAt)).toEqual({ 10000: 8 });
  });

  it('starts slow, with one in flight, when an answer shows the next window before the reset', async () => {
    // The client sent 7 of the window's requests, the others 3: its part, 0.7, more than half.
    const throttle = new Throttle();
    const { call } = answeredAtOnce(throttle, 51, FIRST_RESET);
    for (let sent = 0; sent < 7; sent++) await call();
    await throttle.acquire({ target });
    vi.setSystemTime(START + 1000);
    throttle.update(answer(40, FIRST_RESET));
    await throttle.acquire({ target });
    vi.setSystemTime(START + 9000);
    throttle.update(answer(40, NEXT_RESET));
    // Half of the 40 before a span measures, but one request in flight, then one more per answer.
    expect(await goingAtOnce(throttle, 8)).toBe(2);
  });
});

describe('Throttle: a window after one it spent alone', () => {
  it('starts as a first window when calls waited here for the reset of a window it spent alone', async () => {
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(0, FIRST_RESET));
    const { sentAt, call } = answeredAtOnce(throttle, 12);
    const calls = Array.from({ length: 8 }, call);
    await vi.advanceTimersByTimeAsync(10_000);
    await Promise.all(calls);
    expect(countsAt(sentAt)).toEqual({ 10000: 8 });
  });

  it('keeps its requests in flight when an answer shows the next window before the reset', async () => {
    const throttle = new Throttle();
    const { call } = answeredAtOnce(throttle, 41, FIRST_RESET);
    for (let sent = 0; sent < 3; sent++) await call();
    await throttle.acquire({ target });
    vi.setSystemTime(START + 9000);
    throttle.update(answer(12, NEXT_RESET));
    // Five in flight at once (one, then one more per answer), and ten of the 12 before a span.
    expect(await goingAtOnce(throttle, 8)).toBe(5);
  });

  it('keeps them too in the window after one that started slow, when it was alone in that one', async () => {
    const throttle = await beside19(0);
    const { sentAt, call } = answeredAtOnce(throttle, 40);
    const calls = Array.from({ length: 8 }, call);
    await vi.advanceTimersByTimeAsync(11_000);
    await Promise.all(calls);
    expect(sentAt).toHaveLength(8);
    await throttle.acquire({ target });
    vi.setSystemTime(START + 19_000);
    throttle.update(answer(12, START + 30_000));
    expect(await goingAtOnce(throttle, 12)).toBe(10);
  });
});
