/**
 * A signal of the SDK's own for each call, following the caller's. However many calls share one
 * caller's signal (a request-scoped or shutdown signal), it gets one `abort` listener from a
 * relay, and each call's signal leaves the relay when the call settles: Node warns past ten
 * listeners on one signal, and the engine's `AbortSignal.any()` over a long-lived signal has
 * leaked memory in Node releases, so no call hands the caller's signal on.
 */
export class AbortRelay {
  readonly #followers = new WeakMap<AbortSignal, Followers>();

  /** A new controller that aborts with `source`'s reason; give it back to {@link leave}. */
  follow(source: AbortSignal): AbortController {
    const controller = new AbortController();
    if (source.aborted) {
      controller.abort(source.reason);
      return controller;
    }
    let followers = this.#followers.get(source);
    if (followers === undefined) {
      const controllers = new Set<AbortController>();
      const onAbort = () => {
        this.#followers.delete(source);
        for (const follower of controllers) follower.abort(source.reason);
      };
      followers = { controllers, onAbort };
      this.#followers.set(source, followers);
      source.addEventListener('abort', onAbort, { once: true });
    }
    followers.controllers.add(controller);
    return controller;
  }

  /** Takes a settled call's controller off `source`; the last one takes the listener with it. */
  leave(source: AbortSignal, controller: AbortController): void {
    const followers = this.#followers.get(source);
    if (followers === undefined || !followers.controllers.delete(controller)) return;
    if (followers.controllers.size === 0) {
      this.#followers.delete(source);
      source.removeEventListener('abort', followers.onAbort);
    }
  }
}

interface Followers {
  controllers: Set<AbortController>;
  onAbort: () => void;
}
