/**
 * Pacing shared through a store (`rateLimit: { store }`): the queue that asks the store, and
 * `definePacingStore()`, which gives a store that queue. Imported only by stores, so a client
 * pacing in memory carries none of it.
 */
import type { Log } from './logger.js';
import {
  type ApiKeySource,
  ConfigurationError,
  type PacingStore,
  PACER,
  type SharedRateLimit,
} from './config.js';
import { aborts, type Follower } from '../internal/abort.js';
import { parseRateLimit, MAX_WAIT_MS } from '../internal/headers.js';
import { later } from '../internal/timers.js';
import {
  type AcquireOptions,
  type Pacer,
  type Waiter,
  type PacerFactory,
  RESET_ROUNDING_MS,
  Throttle,
  timeoutError,
  WaitLines,
} from './throttle.js';

const WAIT_CAUSE = 'rate limit: shared pacing store';

/** Fallbacks to local pacing, per store, over every client that uses it. */
const FALLBACKS = new WeakMap<PacingStore, number>();

/** How many times clients of `store` paced a request locally because it could not tell. */
export function fallbacksOf(store: PacingStore): number {
  return FALLBACKS.get(store) ?? 0;
}

/**
 * Makes `store` one a client can use as `rateLimit: { store }`: the SDK drives it with the queue
 * below. For a store of another engine than Redis (docs/many-workers.md says what it must do).
 *
 * The store gains a read-only `fallbacks` (unless it has its own, as `RedisStore` does): how many
 * times a client of it paced a request locally because the store could not tell (it failed, took
 * longer than a second, or answered what no window explains). Each fallback paces that client
 * locally for a second; the first of an outage is also logged at warn.
 */
export function definePacingStore<Store extends PacingStore>(
  store: Store,
): Store & {
  /** How many requests clients of this store paced locally because it could not tell. Read-only. */
  readonly fallbacks: number;
} {
  if (
    typeof store?.reserve !== 'function' ||
    typeof store.release !== 'function' ||
    !Object.isExtensible(store)
  ) {
    throw new ConfigurationError(
      'store',
      'definePacingStore() takes an object with reserve and release methods that is not frozen.',
    );
  }
  const pacer: PacerFactory = (apiKey, rateLimit) => {
    const identity = pacingIdentity(apiKey, rateLimit);
    return (baseUrl, log) => new SharedThrottle(store, storeKey(baseUrl, identity), log);
  };
  Object.defineProperty(store, PACER, { value: pacer });
  if (!('fallbacks' in store)) {
    Object.defineProperty(store, 'fallbacks', { get: () => fallbacksOf(store) });
  }
  return store as Store & { readonly fallbacks: number };
}

/**
 * What names the key in a pacing store: the customer's `rateLimit.key`, else the API key itself
 * (which the store only ever sees hashed), else the `clientId` of a credential function such as
 * `clientCredentials()`. Any other function hands out tokens that change, and has no name.
 */
function pacingIdentity(apiKey: ApiKeySource, rateLimit: SharedRateLimit): string {
  if (rateLimit.key != null) return `key:${rateLimit.key}`;
  if (typeof apiKey === 'string') return `api-key:${apiKey}`;
  const clientId = (apiKey as { clientId?: unknown }).clientId;
  if (typeof clientId === 'string' && clientId !== '') return `client-id:${clientId}`;
  throw new ConfigurationError(
    'rateLimit.key',
    'A shared pacing store needs a stable name for the key: set `rateLimit.key`, since the credential function has no `clientId` and its tokens change.',
  );
}

/**
 * The key's name in a store: SHA-256 of the service's address and the key's identity, 32 hex
 * digits. The store never sees the identity itself, so an API key never reaches it.
 */
async function storeKey(baseUrl: string, identity: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(`${baseUrl}\n${identity}`),
  );
  return hex(new Uint8Array(digest, 0, 16));
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A store that has not answered in this long counts as unable to tell. */
const STORE_TIMEOUT_MS = 1000;
/** After a store could not tell, calls pace locally this long before it is asked again. */
const STORE_RETRY_MS = 1000;
/** The longest wait a store may answer: the cap, and the reset header's rounding. */
const MAX_STORE_WAIT_MS = MAX_WAIT_MS + RESET_ROUNDING_MS;
/**
 * Waits from this long on are a window's reset, and each call is told of its first; shorter ones
 * are the store asking the client to ask again while the window's last places are in flight.
 */
const RESET_WAIT_MS = 1000;
/**
 * A place of this client's, named `holder` in the store. Every place is given back when its
 * request is `done`, with what the answer said, also one the local queue paced (`local`) while
 * the store could not tell in time: its question was asked all the same (the one that took too
 * long, or one sent as the request went), and a store that is slow rather than gone grants it
 * late and counts the request in flight like the others' until then. Uncounted, such a request
 * spent a place the store then handed to another client, whose request met a 429: 11 of the 17
 * of a bench 6d run at 32 workers went so (docs/benchmarks.md, "Findings of issue 45").
 */
interface Place {
  holder: string;
  local?: boolean;
  done?: boolean;
}

/**
 * Pacing shared through a {@link PacingStore} (`rateLimit: { store }`): every process of a key asks
 * the store before each request, and the store, which hears every process's answers, says "send"
 * or "wait this long". Calls of this client still queue here, first come first served; only the
 * first asks, so a long queue costs the store one question at a time.
 *
 * A store that cannot tell (down, slow, failing, or answering garbage) never fails a call: the
 * call is paced by a local {@link Throttle}, which has seen every answer and so knows the window,
 * the change is logged once at warn, counted in the store's `fallbacks`, and the store is asked
 * again a second later.
 */
export class SharedThrottle implements Pacer {
  readonly #store: PacingStore;
  readonly #key: Promise<string>;
  readonly #log: Log;
  readonly #local: Throttle;
  readonly #lines: WaitLines;
  /** Names this client's places in the store: random, so that no two clients share one. */
  readonly #id = randomId();
  #sequence = 0;
  /** This client's places, oldest first: granted by the store, or taken in the local queue. */
  #places: Place[] = [];
  #queue: Waiter[] = [];
  #pumping = false;
  /** Ends the pump's wait early: a place was freed here, or the call at the front left. */
  #wake: (() => void) | undefined;
  /** Until then calls pace locally without asking: the store could not tell a moment ago. */
  #localUntil = 0;
  /** Whether the store's failure was logged, and not yet its return. */
  #warned = false;

  constructor(store: PacingStore, key: Promise<string>, log: Log) {
    this.#store = store;
    this.#key = key;
    this.#log = log;
    this.#local = new Throttle(log);
    this.#lines = new WaitLines(log);
    // A key that cannot be computed (no Web Crypto) shows when the store is first asked.
    key.catch(() => {});
  }

  acquire(options: AcquireOptions): Promise<void> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        options,
        resolve,
        reject,
        abort:
          signal &&
          ((reason) => {
            this.#settle(waiter, reason);
            this.#wake?.();
          }),
        notified: false,
        settled: false,
      };
      if (signal) aborts.follow(signal, waiter as Follower);
      this.#queue.push(waiter);
      void this.#pump();
    });
  }

  update(headers: Headers): void {
    if (this.#done(this.#places.shift(), headers)?.local) this.#local.update(headers);
    else this.#local.observe(headers);
  }

  release(): void {
    if (this.#done(this.#places.shift())?.local) this.#local.release();
  }

  /**
   * A place's request was answered (with `headers`), or will not be sent: the store frees its
   * place, recording the window the answer said (one that fails expires there by itself).
   * Returns the place.
   */
  #done(place: Place | undefined, headers?: Headers): Place | undefined {
    if (place) {
      place.done = true;
      const info = headers && parseRateLimit(headers);
      const window = info && {
        limit: info.limit,
        remaining: info.remaining,
        resetAt: info.reset.getTime(),
      };
      this.#key
        .then((key) => bounded(this.#store.release(key, place.holder, window)))
        .catch(() => {});
    }
    this.#wake?.();
    return place;
  }

  /** Serves the queue from its front, one question to the store at a time, until it is empty. */
  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      let waiter: Waiter | undefined;
      while ((waiter = this.#front()) !== undefined) {
        const { deadline, target } = waiter.options;
        if (deadline !== undefined && Date.now() >= deadline) {
          this.#settle(waiter, timeoutError(target, 0));
          continue;
        }
        if (Date.now() < this.#localUntil) {
          await this.#paceLocally(waiter);
          continue;
        }
        const place = this.#place();
        const wait = await this.#ask(place);
        if (wait === undefined) {
          FALLBACKS.set(this.#store, fallbacksOf(this.#store) + 1);
          this.#localUntil = Date.now() + STORE_RETRY_MS;
          await this.#paceLocally(waiter, place);
        } else if (wait === 0) {
          // Aborted while the store answered: the place goes back at once.
          if (waiter.settled) this.#done(place);
          else {
            this.#places.push(place);
            this.#settle(waiter);
          }
        } else {
          this.#judge(wait);
          await this.#sleep(wait);
        }
      }
    } finally {
      this.#pumping = false;
    }
  }

  /** The first call still waiting, dropping those that left. */
  #front(): Waiter | undefined {
    while (this.#queue[0]?.settled) this.#queue.shift();
    return this.#queue[0];
  }

  /**
   * The store's answer as a wait in ms, or undefined when it cannot tell: it failed, took longer
   * than a second, or answered what no window explains. Its failure is logged once, and its
   * return after that.
   */
  async #ask(place: Place): Promise<number | undefined> {
    let wait: unknown;
    let reason = 'it could not tell';
    try {
      wait = await bounded(this.#reserve(place));
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
    }
    if (
      typeof wait === 'number' &&
      Number.isInteger(wait) &&
      wait >= 0 &&
      wait <= MAX_STORE_WAIT_MS
    ) {
      if (this.#warned) {
        this.#warned = false;
        this.#log.info('The pacing store answers again: pacing is shared again.');
      }
      return wait;
    }
    if (wait !== undefined) reason = 'it answered a wait no window explains';
    if (!this.#warned) {
      this.#warned = true;
      this.#log.warn(
        `The pacing store is unavailable (${reason}): pacing locally, from this client's answers, until it answers again.`,
      );
    }
    return undefined;
  }

  /**
   * Lets the front call go by the local queue, which paces it from the answers this client has
   * seen, and waits until it has: the calls behind it stay here, so that once the store answers
   * again they are paced by it.
   */
  async #paceLocally(waiter: Waiter, asked?: Place): Promise<void> {
    this.#detach(waiter);
    try {
      await this.#local.acquire(waiter.options);
    } catch (error) {
      this.#done(asked);
      waiter.reject(error);
      return;
    }
    // The store is told of the request as it goes (Place), without waiting for its answer; once
    // it answers such a question in time again, the next call asks it and waits, rather than
    // pacing locally for the rest of the second into a window the others may have spent.
    const place = asked ?? this.#place();
    if (!asked) {
      this.#reserve(place).then(
        () => (this.#localUntil = 0),
        () => {},
      );
    }
    place.local = true;
    this.#places.push(place);
    waiter.resolve();
  }

  #place(): Place {
    return { holder: `${this.#id}:${++this.#sequence}` };
  }

  /**
   * Asks the store for `place`. A place it grants after the place's request is done (its answer
   * came late, and the release went first) is given back again: held unused until it expired
   * there, it would keep every client of the key waiting while no window is known.
   */
  #reserve(place: Place): Promise<number | undefined> {
    // Resolved, as a store of the customer's own may answer without a promise.
    const reserved = this.#key.then((key) => this.#store.reserve(key, place.holder));
    reserved.then(
      (wait) => wait === 0 && place.done && this.#done(place),
      () => {},
    );
    return reserved;
  }

  /** Rejects the calls whose deadline comes before `wait` ends; tells the others of a reset's wait. */
  #judge(wait: number): void {
    const until = Date.now() + wait;
    for (const waiter of this.#queue) {
      if (waiter.settled) continue;
      const { deadline, target } = waiter.options;
      if (deadline !== undefined && deadline < until) {
        this.#settle(waiter, timeoutError(target, wait));
      } else if (wait >= RESET_WAIT_MS) {
        this.#lines.tell(waiter, wait, WAIT_CAUSE);
      }
    }
    this.#lines.flush();
  }

  /** Waits `ms`, or less when a place is freed here or the front call leaves. */
  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const timer = later(done, ms);
      this.#wake = done;
    });
  }

  #detach(waiter: Waiter, sent = false): void {
    waiter.settled = true;
    this.#lines.leave(waiter, sent);
    if (waiter.abort) aborts.leave(waiter.options.signal!, waiter as Follower);
  }

  #settle(waiter: Waiter, error?: unknown): void {
    if (waiter.settled) return;
    this.#detach(waiter, error === undefined);
    if (error === undefined) waiter.resolve();
    else waiter.reject(error);
  }
}

/**
 * `promise`, or a rejection once the store has taken {@link STORE_TIMEOUT_MS}. The timer's end
 * waits for the event loop's I/O of that turn: when this process itself was stalled past the
 * second (a busy machine), the store's answer may be waiting unread, and it counts.
 */
function bounded<T>(promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = later(
      () => afterIo(() => reject(new Error(`it did not answer within ${STORE_TIMEOUT_MS} ms`))),
      STORE_TIMEOUT_MS,
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Runs `task` after the I/O the event loop has waiting: at once where there is no setImmediate. */
function afterIo(task: () => void): void {
  if (typeof setImmediate === 'function') setImmediate(task);
  else later(task, 0);
}

function randomId(): string {
  return hex(crypto.getRandomValues(new Uint8Array(8)));
}
