/**
 * What the throttle's own tests (test/core/throttle.*.test.ts) share: a whole-second start on a
 * fake clock, a call's target, an answer's rate-limit headers, and a call queued on a throttle
 * whose outcome a test reads once it has one.
 */
import { afterEach, beforeEach, expect, vi } from 'vitest';
import type { Pacer } from '../../src/core/throttle.js';

/** A whole second, as X-RateLimit-Reset counts. */
export const START = Date.UTC(2026, 10, 22);
export const target = { method: 'GET', url: 'https://api.example/v1/users' };

/** Runs each test of the file on a fake clock (its timers and `Date`) from {@link START}. */
export function useFakeClockFromStart(): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

/** An answer's headers: `remaining` left of `limit` in a window that resets at `resetAt` (ms). */
export function answer(remaining: number, resetAt: number, limit = 100): Headers {
  return new Headers({
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(Math.ceil(resetAt / 1000)),
  });
}

/** A call queued on `throttle`: when it went or failed (ms since START), and its error. */
export function queued(
  throttle: Pacer,
  options: { deadline?: number; signal?: AbortSignal } = {},
): { sentAt?: number; failedAt?: number; error?: unknown } {
  const call: { sentAt?: number; failedAt?: number; error?: unknown } = {};
  throttle.acquire({ target, ...options }).then(
    () => (call.sentAt = Date.now() - START),
    (error: unknown) => {
      call.failedAt = Date.now() - START;
      call.error = error;
    },
  );
  return call;
}

/**
 * Runs the fake clock to `at` (ms since START) and checks that `call` (from {@link queued}) is
 * still waiting a millisecond before and goes then: neither early nor late.
 */
export async function goesAt(call: { sentAt?: number }, at: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(START + at - 1 - Date.now());
  expect(call.sentAt).toBeUndefined();
  await vi.advanceTimersByTimeAsync(1);
  expect(call.sentAt).toBe(at);
}
