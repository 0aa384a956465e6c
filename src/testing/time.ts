// The mock's clock: timestamps as the contract writes them, and timers that leave nothing behind.

/** Milliseconds in a day. */
export const DAY_MS = 86_400_000;

/** An ISO 8601 UTC timestamp to the second, the form the contract shows (`2026-11-21T09:30:00Z`). */
export function toTimestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Keeps a timer from holding a Node process open; browsers' numeric timers have nothing to do. */
export function unref(timer: ReturnType<typeof setTimeout>): void {
  (timer as { unref?: () => void }).unref?.();
}

/**
 * Waits `ms`, or rejects with the reason of the first of `signals` to abort, clearing the timer.
 * The timer stays ref'd: someone awaits it, and Node must not exit under them.
 */
export function sleep(ms: number, signals: readonly AbortSignal[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = signals.find((signal) => signal.aborted);
    if (aborted) return reject(aborted.reason);
    const stop = () => {
      clearTimeout(timer);
      for (const signal of signals) signal.removeEventListener('abort', onAbort);
    };
    const onAbort = (event: Event) => {
      stop();
      reject((event.target as AbortSignal).reason);
    };
    const timer = setTimeout(() => {
      stop();
      resolve();
    }, ms);
    for (const signal of signals) signal.addEventListener('abort', onAbort, { once: true });
  });
}
