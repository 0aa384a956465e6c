/**
 * What a relay aborts with the caller's reason: a controller of the SDK's (a call's own signal),
 * or a call waiting in the rate-limit queue, which needs no signal of its own.
 */
export interface Follower {
  abort(reason: unknown): void;
}

/**
 * The caller's abort, relayed to what the SDK waits on for each call. However many calls share
 * one caller's signal (a request-scoped or shutdown signal), it gets one `abort` listener from a
 * relay, and each follower leaves the relay when its wait or call ends: Node warns past ten
 * listeners on one signal, and the engine's `AbortSignal.any()` over a long-lived signal has
 * leaked memory in Node releases, so no call hands the caller's signal on.
 */
export class AbortRelay {
  readonly #followers = new WeakMap<AbortSignal, Followers>();

  /**
   * Aborts `follower` (by default a new controller) with `source`'s reason, at once when it has
   * already aborted; give it back to {@link leave}.
   */
  follow(source: AbortSignal): AbortController;
  follow<F extends Follower>(source: AbortSignal, follower: F): F;
  follow(source: AbortSignal, follower: Follower = new AbortController()): Follower {
    if (source.aborted) {
      follower.abort(source.reason);
      return follower;
    }
    let followers = this.#followers.get(source);
    if (followers === undefined) {
      const all = new Set<Follower>();
      const onAbort = () => {
        this.#followers.delete(source);
        for (const each of all) each.abort(source.reason);
      };
      followers = { all, onAbort };
      this.#followers.set(source, followers);
      source.addEventListener('abort', onAbort, { once: true });
    }
    followers.all.add(follower);
    return follower;
  }

  /** Takes a follower off `source`; the last one takes the listener with it. */
  leave(source: AbortSignal, follower: Follower): void {
    const followers = this.#followers.get(source);
    if (followers === undefined || !followers.all.delete(follower)) return;
    if (followers.all.size === 0) {
      this.#followers.delete(source);
      source.removeEventListener('abort', followers.onAbort);
    }
  }
}

/**
 * The relay every client and queue uses: a caller's signal gets one listener however many calls,
 * queued or sent, and however many clients share it.
 */
export const aborts = new AbortRelay();

interface Followers {
  all: Set<Follower>;
  onAbort: () => void;
}
