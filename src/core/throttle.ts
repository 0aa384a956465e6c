import { parseRateLimit } from '../internal/headers.js';

/**
 * Client-side pacing from the service's own rate-limit headers (opt-in: `rateLimit: 'auto'`).
 *
 * Each answer's X-RateLimit-Remaining and -Reset say how many requests the window still allows
 * and when it refills. Requests beyond that wait for the reset instead of earning a 429. While
 * nothing is known yet (the first request, or a window that has just reset) one request goes
 * alone to learn the state, so a burst of any size never overshoots.
 */
export class Throttle {
  /** Requests the current window still allows, less those already sent; undefined = unknown. */
  #available: number | undefined;
  /** When the current window refills, in ms since the epoch. */
  #resetAt = 0;
  #inFlight = 0;
  readonly #waiters = new Set<() => void>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Resolves when a request may be sent; rejects with the signal's reason if it aborts first. */
  async acquire({ signal }: { signal?: AbortSignal | undefined; deadline?: number | undefined; onWait?: (ms: number, cause: string) => void }): Promise<void> {
    while (!this.#tryTake()) {
      signal?.throwIfAborted();
      await this.#nextChange(signal);
    }
  }

  /** Records what an answer said about the window and frees its place. */
  update(headers: Headers): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    const rateLimit = parseRateLimit(headers);
    if (rateLimit) {
      // Requests still in flight may not be counted in `remaining` yet: assume they are not.
      this.#available = Math.max(0, rateLimit.remaining - this.#inFlight);
      this.#resetAt = rateLimit.reset.getTime();
    }
    this.#wake();
  }

  /** Frees the place of a request that got no answer with headers. */
  release(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    this.#wake();
  }

  #tryTake(): boolean {
    if (this.#available !== undefined && this.#available <= 0 && Date.now() >= this.#resetAt) {
      this.#available = undefined;
    }
    const mayGo = this.#available === undefined ? this.#inFlight === 0 : this.#available > 0;
    if (!mayGo) return false;
    if (this.#available !== undefined) this.#available--;
    this.#inFlight++;
    return true;
  }

  #nextChange(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.#waiters.delete(wake);
        if (this.#waiters.size === 0) this.#cancelTimer();
        reject(signal?.reason);
      };
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.#waiters.add(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (this.#available !== undefined && this.#available <= 0) this.#wakeAtReset();
    });
  }

  #wakeAtReset(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#wake();
      },
      Math.max(0, this.#resetAt - Date.now()),
    );
  }

  #cancelTimer(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #wake(): void {
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const wake of waiters) wake();
  }
}
