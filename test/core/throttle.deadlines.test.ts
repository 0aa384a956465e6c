/**
 * A waiting call's deadline, on a fake clock: each call fails at its own deadline, to the
 * millisecond, not before, by one timer moved to the earliest; a deadline further than the cap is
 * checked again within the cap; the calls without one keep waiting.
 */
import { describe, expect, it, vi } from 'vitest';
import { ApiTimeoutError } from '../../src/core/errors.js';
import { Throttle } from '../../src/core/throttle.js';
import { MAX_WAIT_MS } from '../../src/internal/headers.js';
import { answer, queued, START, target, useFakeClockFromStart } from '../support/throttle.js';

useFakeClockFromStart();

/** A throttle with its first request in flight: the window is not known yet. */
async function awaitingFirstAnswer() {
  const throttle = new Throttle();
  await throttle.acquire({ target });
  return throttle;
}

describe('Throttle: deadlines of waiting calls', () => {
  it('fails each call at its own deadline, the earliest first, with one timer', async () => {
    const throttle = await awaitingFirstAnswer();
    const later = queued(throttle, { deadline: START + 5000 });
    const sooner = queued(throttle, { deadline: START + 3000 });
    const none = queued(throttle);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(2999);
    expect([later.failedAt, sooner.failedAt]).toEqual([undefined, undefined]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sooner.failedAt).toBe(3000);
    expect(sooner.error).toBeInstanceOf(ApiTimeoutError);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1999);
    expect(later.failedAt).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(later.failedAt).toBe(5000);
    expect(later.error).toBeInstanceOf(ApiTimeoutError);
    // The call without a deadline waits for the answer, with no timer.
    expect(vi.getTimerCount()).toBe(0);
    throttle.update(new Headers());
    await vi.advanceTimersByTimeAsync(0);
    expect(none).toEqual({ sentAt: 5000 });
  });

  it('keeps the earlier timer when a later deadline joins', async () => {
    const throttle = await awaitingFirstAnswer();
    const sooner = queued(throttle, { deadline: START + 2000 });
    const later = queued(throttle, { deadline: START + 4000 });
    await vi.advanceTimersByTimeAsync(2000);
    expect(sooner.failedAt).toBe(2000);
    expect(later.failedAt).toBeUndefined();
    await vi.advanceTimersByTimeAsync(2000);
    expect(later.failedAt).toBe(4000);
  });

  it('checks a deadline beyond the cap again within the cap, and fails the call at it', async () => {
    const throttle = await awaitingFirstAnswer();
    const call = queued(throttle, { deadline: START + MAX_WAIT_MS * 2 + 30_000 });
    await vi.advanceTimersToNextTimerAsync();
    expect(Date.now() - START).toBe(MAX_WAIT_MS);
    expect(call.failedAt).toBeUndefined();
    await vi.advanceTimersToNextTimerAsync();
    expect(Date.now() - START).toBe(MAX_WAIT_MS * 2);
    await vi.advanceTimersToNextTimerAsync();
    expect(call.failedAt).toBe(MAX_WAIT_MS * 2 + 30_000);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fails at once a call whose deadline has passed, and sends the others', async () => {
    const throttle = await awaitingFirstAnswer();
    const late = queued(throttle, { deadline: START + 0 });
    const waiting = queued(throttle, { deadline: START + 1000 });
    await vi.advanceTimersByTimeAsync(0);
    expect(late.failedAt).toBe(0);
    expect((late.error as Error).message).toBe(
      'GET https://api.example/v1/users would wait for the rate limit beyond its timeout.',
    );
    throttle.update(new Headers());
    await vi.advanceTimersByTimeAsync(0);
    expect(waiting.sentAt).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('waits for a spent window whose reset is its deadline, and fails at the deadline, not before', async () => {
    const throttle = await awaitingFirstAnswer();
    throttle.update(answer(0, START + 5000));
    const call = queued(throttle, { deadline: START + 5000 });
    await vi.advanceTimersByTimeAsync(4999);
    expect(call.failedAt).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(call.failedAt).toBe(5000);
    expect(call.error).toBeInstanceOf(ApiTimeoutError);
  });
});
