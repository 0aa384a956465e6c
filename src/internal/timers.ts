/**
 * A wait that a signal can end, for the mock's delays; every timer is cleared and every listener
 * removed however the wait ends. (The client's own waits between attempts are ky's.)
 */

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
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
