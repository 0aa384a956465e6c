/**
 * Every timer the SDK sets, through {@link later}, and every wait it hands to ky, through
 * {@link boundedDelay}; and a wait that a signal can end, for the mock's delays. A delay comes
 * from a service's header, a clock or arithmetic on both: whatever it is, no timer is set for
 * NaN, a negative or an infinite delay (Node fires those at once, which spins a loop that
 * reschedules), nor for more than a timer can hold.
 */

/** The longest delay a timer holds: setTimeout fires at once beyond 2^31 - 1 ms (about 24.8 days). */
export const MAX_DELAY_MS = 2 ** 31 - 1;

/** `ms` as a timer may take it: finite, ≥ 0 and at most {@link MAX_DELAY_MS}; NaN is 0. */
export function boundedDelay(ms: number): number {
  return ms > 0 ? Math.min(ms, MAX_DELAY_MS) : 0;
}

/** `setTimeout` for a delay passed through {@link boundedDelay}. */
export function later(callback: () => void, ms: number): ReturnType<typeof setTimeout> {
  return setTimeout(callback, boundedDelay(ms));
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts; leaves nothing behind. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = later(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
