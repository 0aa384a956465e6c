/**
 * The SDK's waits that a signal can end: a sleep between attempts and an attempt's deadline. One
 * implementation of each, so every timer is cleared and every listener removed however a wait
 * ends.
 */

/**
 * A per-attempt AbortSignal that fires when the caller's signal does or when `timeout` ms pass;
 * restarted once the headers arrive so the body gets the same budget again.
 */
export class Deadline {
  readonly #controller = new AbortController();
  readonly #timeout: number;
  readonly #callerSignal: AbortSignal | undefined;
  readonly #onCallerAbort = () => this.#controller.abort(this.#callerSignal?.reason);
  #timer: ReturnType<typeof setTimeout> | undefined;
  timedOut = false;

  constructor(timeout: number, callerSignal: AbortSignal | undefined) {
    this.#timeout = timeout;
    this.#callerSignal = callerSignal;
    if (callerSignal?.aborted) this.#onCallerAbort();
    else callerSignal?.addEventListener('abort', this.#onCallerAbort, { once: true });
    this.restart();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  restart(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.timedOut = true;
      this.#controller.abort(new DOMException('The attempt timed out.', 'TimeoutError'));
    }, this.#timeout);
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#callerSignal?.removeEventListener('abort', this.#onCallerAbort);
  }
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
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
