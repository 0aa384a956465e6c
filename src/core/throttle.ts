import { aborts, type Follower } from '../internal/abort.js';
import { MAX_WAIT_MS, parseRateLimit } from '../internal/headers.js';
import { later } from '../internal/timers.js';
import { type ApiKeySource, type ClientConfig, PACER, type SharedRateLimit } from './config.js';
import { ApiTimeoutError, RateLimitError, type RequestTarget } from './errors.js';
import type { Log } from './logger.js';

/** What a call hands the queue: who it is, how long it may wait, and whom to tell when it does. */
export interface AcquireOptions {
  /** The call's method and URL, for the errors the queue raises. */
  target: RequestTarget;
  /** The caller's signal: an abort takes the call out of the queue at once. */
  signal?: AbortSignal | undefined;
  /** Time (ms since the epoch) by which the call must be sent; undefined for none. */
  deadline?: number | undefined;
  /**
   * Told once, when the call has to wait: `ms` for the window to reset, or about `ms` for its turn
   * while the key's live use is shared.
   */
  onWait?: ((ms: number, cause: string) => void) | undefined;
  /** Redacts the call's secrets (internal/redact.ts) out of the log line that names it. */
  redact?: ((text: string) => string) | undefined;
}

/** Waits of this long or longer are logged at info, with their cause. */
export const LOGGED_WAIT_MS = 1000;
const WAIT_CAUSE = 'rate limit: X-RateLimit-Reset';
const SHARED_CAUSE = "rate limit: the key's live use is shared";
// X-RateLimit-Reset is whole seconds, rounded up: a window of the full minute, waited for from its
// first request, reads up to a second longer than the cap. Refusing it would fail every bulk job.
export const RESET_ROUNDING_MS = 1000;
/**
 * The others' rate is measured over this long at least: a process of theirs that stalls for
 * less does not look stopped, and one that stopped looks so after this long.
 */
const RATE_SPAN_MS = 1000;
/**
 * A reset given in seconds from now (IETF `RateLimit-Reset`, `RateLimit`'s `t`, a small
 * `X-RateLimit-Reset`) is read as now + delta, rounded up to the second: two answers of one window
 * read resets this far apart (the rounding, and the answers' latency), and a window cannot reset
 * twice within it.
 */
export const SAME_WINDOW_MS = 2 * RESET_ROUNDING_MS;
/**
 * Before a rate span has shown whether others spend a window, a client sends at once at most half
 * of what its first answer there said was left, or this many (at most a quarter of the limit) when
 * that is more: a consumer it cannot see yet keeps its part of the window.
 */
const PROBE_FLOOR = 10;

/**
 * A client's rate-limit queue, as the request core uses it: a place before each attempt, and the
 * answer (or its absence) after.
 */
export interface Pacer {
  /** Resolves when the call may be sent; rejects on abort, past the deadline or the 60 s cap. */
  acquire(options: AcquireOptions): Promise<void>;
  /** Records what an answer said about the window and frees its place. */
  update(headers: Headers): void;
  /** Frees the place of a request that got no answer with headers. */
  release(): void;
}

/**
 * How a store made by `definePacingStore()` (or `new RedisStore()`) makes a client's queue. Given
 * the client's credential and `rateLimit`, it settles the key's name in the store at once (a
 * ConfigurationError when the key has none: the client's construction calls it to check), and
 * returns what makes the queue for the service's address.
 */
export type PacerFactory = (
  apiKey: ApiKeySource,
  rateLimit: SharedRateLimit,
) => (baseUrl: string, log: Log) => Pacer;

/**
 * The client's queue for its `rateLimit` option: none for `'off'`, in memory for `'auto'`, and for
 * a store the queue the store brings (core/shared-throttle.ts), so that a client without one
 * carries none of that code.
 */
export function createThrottle(config: ClientConfig, log: Log): Pacer | undefined {
  const { rateLimit } = config;
  if (rateLimit === 'off') return undefined;
  if (rateLimit === 'auto') return new Throttle(log);
  const pacer = (rateLimit.store as unknown as Record<typeof PACER, PacerFactory>)[PACER];
  return pacer(config.apiKey, rateLimit)(config.baseUrl, log);
}

/** A call told of a wait, for its lines ({@link WaitLines}): in a queue, or before a retry. */
export interface ToldWait {
  readonly options: AcquireOptions;
  /** Told about the window it waits for. */
  notified: boolean;
  /** Until when it was last told it waits (ms since the epoch). */
  until?: number | undefined;
  /** The wait it was told of, for the log. */
  group?: WaitGroup | undefined;
}

/** A call waiting for its place, in a local or a shared queue. */
export interface Waiter extends ToldWait {
  readonly resolve: () => void;
  readonly reject: (reason: unknown) => void;
  /**
   * With a signal: takes the waiter out of the queue at the caller's abort, with its reason; the
   * waiter is then the relay's follower (internal/abort.ts).
   */
  readonly abort: ((reason: unknown) => void) | undefined;
  settled: boolean;
}

/** The calls told of one wait, for its two lines. */
interface WaitGroup {
  readonly cause: string;
  readonly at: number;
  readonly first: ToldWait;
  ms: number;
  calls: number;
  waiting: number;
  went: number;
  logged: boolean;
}

/**
 * A queue's info lines: the calls queued behind one wait (a window's reset, the turns of a shared
 * key, the store's answer, a 429's Retry-After) share one line when it starts, saying how many wait, and one when they
 * go; a call that waits alone keeps its line naming it. Each call's `onWait` (the observer, the
 * wait metric) is told at once, per call.
 */
export class WaitLines {
  readonly #log: Log | undefined;
  readonly #groups = new Map<string, WaitGroup>();

  constructor(log: Log | undefined) {
    this.#log = log;
  }

  /**
   * Tells a waiter of its wait, unless it knows of it: it was told of one that ends no more than
   * a logged wait's length sooner (a wait that grew, from a paced turn to a reset, is told
   * again). The line waits for {@link flush}, so one line counts a batch.
   */
  tell(waiter: ToldWait, ms: number, cause: string): void {
    const at = Date.now();
    if (waiter.notified && at + ms < (waiter.until ?? 0) + LOGGED_WAIT_MS) return;
    waiter.notified = true;
    waiter.until = at + ms;
    waiter.options.onWait?.(ms, cause);
    this.leave(waiter, false);
    if (ms < LOGGED_WAIT_MS) return;
    let group = this.#groups.get(cause);
    if (!group) {
      group = { cause, at, first: waiter, ms, calls: 0, waiting: 0, went: 0, logged: false };
      this.#groups.set(cause, group);
    }
    if (!group.logged) group.ms = Math.max(group.ms, ms);
    group.calls++;
    group.waiting++;
    waiter.group = group;
  }

  /** Logs the start of each wait told since the last flush. */
  flush(): void {
    for (const group of this.#groups.values()) {
      if (group.logged) continue;
      group.logged = true;
      const { target, redact = String } = group.first.options;
      this.#log?.info(
        `waiting ${Math.round(group.ms / 1000)} s ${group.calls > 1 ? `for the rate-limit window (${group.cause}; ${group.calls} calls queued)` : `(${group.cause}) before ${redact(`${target.method} ${target.url}`)}`}`,
      );
    }
  }

  /** A told waiter leaves its wait, `sent` or not: the last one's leaving ends its group. */
  leave(waiter: ToldWait, sent: boolean): void {
    const { group } = waiter;
    if (!group) return;
    waiter.group = undefined;
    if (sent) group.went++;
    if (--group.waiting > 0) return;
    this.#groups.delete(group.cause);
    if (group.calls > 1 && group.went > 0) {
      this.#log?.info(
        `waited ${Math.round((Date.now() - group.at) / 1000)} s for the rate-limit window (${group.cause}): ${group.went} queued calls go`,
      );
    }
  }
}

/**
 * Client-side pacing from the service's own rate-limit headers (`rateLimit: 'auto'`, the default).
 *
 * Each answer's X-RateLimit-Remaining and -Reset say how many requests the window still allows
 * and when it refills; requests beyond that queue, first come first served, for the reset instead
 * of earning a 429. The queue holds a few hundred bytes per call and at most two timers however
 * long it is (the next reset, the earliest deadline), and no call holds a socket while it waits.
 *
 * Other clients may spend the same key. So every window starts as TCP does, with one request
 * and one more in flight per answer. What the window had spent before this client's first answer
 * in it is history (a cron job, an earlier CLI command, a restarted worker): it costs nothing but
 * the requests it took. Live demand is what the window's count loses between two of this client's
 * answers beyond its own requests: measured as a rate and projected to the reset, when it and the
 * calls waiting here would spend what is left before the reset, the client keeps in flight only
 * its share of what is left (its part of that live spending) and spreads it over the time left, so
 * that the others' answers keep telling it what the server counted. Alone, or with demand the
 * window carries, it sends at once. docs/architecture.md ("Pacing") works examples.
 */
export class Throttle implements Pacer {
  readonly #lines: WaitLines;
  /** What the server last said the window allows; undefined while no window is known. */
  #remaining: number | undefined;
  /** When the known window refills, in ms since the epoch. */
  #resetAt = 0;
  /** Requests sent and not yet answered. */
  #inFlight = 0;
  /** Requests allowed in flight at once in this window: 1, then one more per answer. */
  #window = 1;
  /** Answers this client had counted in the known window. */
  #counted = 0;
  /** What this client's first answer in the known window said was left. */
  #firstRemaining = 0;
  /** The most of the others' requests its answers have shown in the known window. */
  #seen = 0;
  /**
   * The others' live demand, in requests per ms: how many more of their requests the window
   * counted over the last {@link RATE_SPAN_MS} or more (from `#markAt`, when `#markSeen` were
   * seen), or over less when that tells of more.
   */
  #rate = 0;
  /** Their rate over the last whole span alone: what a moment's burst says is no steady rate. */
  #spanRate = 0;
  #markAt = 0;
  /** When this client last heard the known window's count: the others have spent since. */
  #heardAt = 0;
  #markSeen = 0;
  /**
   * This client's own sends, counted per {@link RATE_SPAN_MS}: the current span's (from
   * `#spanAt`) and the one before, so its recent rate is demand as the others' is.
   */
  #spanAt = 0;
  #spanSent = 0;
  #lastSpanSent = 0;
  /**
   * Whether a whole rate span has measured the others in the known window, and what this client
   * sent since its first answer there, of the budget it may send before ({@link PROBE_FLOOR}).
   */
  #measured = false;
  /** This client's part of the last window's spending, for the next one's budget. */
  #lastShare = 1;
  #probeSent = 0;
  #probeBudget = Infinity;
  /**
   * Whether others were spending the last window this client knew while calls waited here: the
   * next window then starts slow again.
   */
  #othersLive = false;
  /** Waiting calls in arrival order, from `#head` on; settled ones are skipped. */
  #queue: Waiter[] = [];
  #head = 0;
  /** Waiting calls before this index have been told about their paced turn from `#toldAt`. */
  #toldUpTo = 0;
  #toldAt = 0;
  /** The reset every waiting call has been judged against (cap, deadline, onWait). */
  #judgedResetAt = 0;
  /** When a client sharing its key sends next, and the time between its paced sends. */
  #nextAt = 0;
  #spacing = 0;
  #wakeTimer: ReturnType<typeof setTimeout> | undefined;
  #wakeAt = Infinity;
  #deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  #deadlineTimerAt = Infinity;

  /** `log`: where the queue's waits are told (none: told to each call's `onWait` only). */
  constructor(log?: Log) {
    this.#lines = new WaitLines(log);
  }

  /**
   * Resolves when the call may be sent. Rejects with the signal's reason when it aborts, with an
   * {@link ApiTimeoutError} when the wait would pass `deadline`, and at once with a local
   * {@link RateLimitError} (its `retryAfter` set) when the window resets more than
   * {@link MAX_WAIT_MS} from now (give or take the header's one-second rounding).
   */
  acquire(options: AcquireOptions): Promise<void> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.#expireWindow();
    if (this.#size() === 0 && this.#mayGo(Date.now())) {
      this.#take(Date.now());
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        options,
        resolve,
        reject,
        abort:
          signal &&
          ((reason) => {
            this.#settle(waiter, reason);
            this.#compact();
          }),
        notified: false,
        settled: false,
      };
      if (signal) aborts.follow(signal, waiter as Follower);
      this.#queue.push(waiter);
      const now = Date.now();
      if (!this.#judge(waiter, now)) {
        this.#compact();
        return;
      }
      // Paced: its turn comes after the calls ahead of it, one spacing apart, or at the reset,
      // when the next window tells.
      if (this.#paced(now)) {
        const turn = Math.max(0, this.#nextAt - now) + (this.#size() - 1) * this.#spacing;
        this.#tell(waiter, Math.min(turn, this.#resetAt - now));
      }
      this.#armDeadline(options.deadline);
      this.#drain();
    });
  }

  /** Records what an answer said about the window and frees its place. */
  update(headers: Headers): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    this.observe(headers);
  }

  /**
   * Records what an answer to a request this queue did not send said about the window: a shared
   * store's request, so that local pacing knows the window if the store stops answering.
   */
  observe(headers: Headers): void {
    const info = parseRateLimit(headers);
    if (info) {
      const resetAt = info.reset.getTime();
      const known = this.#remaining;
      const now = Date.now();
      // A reset read from a delta moves with the rounding and the latency: within that, the same
      // window unless it reads later, near the known reset, with a count risen beyond what this
      // client's answers overtaking each other explain (the window refilled). A count that rose
      // long before the reset, or on the same reset, is an answer others' requests overtook too.
      const near = known !== undefined && Math.abs(resetAt - this.#resetAt) <= SAME_WINDOW_MS;
      const refilled =
        near &&
        resetAt > this.#resetAt &&
        now + SAME_WINDOW_MS >= this.#resetAt &&
        info.remaining > known + this.#inFlight + 1;
      if (known === undefined || (near ? refilled : resetAt > this.#resetAt)) {
        // A window this client had not seen: answers from the one before no longer count, and
        // what it spent before this answer is history.
        const live = this.#othersLive || (known !== undefined && this.#seen > 0);
        if (known !== undefined) this.#lastShare = this.#share();
        this.#othersLive = false;
        // Its calls are judged against its reset when it is spent, even one a window had before.
        this.#judgedResetAt = 0;
        this.#resetAt = resetAt;
        this.#remaining = info.remaining;
        this.#counted = 0;
        this.#firstRemaining = info.remaining;
        this.#seen = 0;
        this.#rate = this.#spanRate = 0;
        // Others spent the window before while this client was active: they may have spent this
        // one before its answer too, so it starts slow again.
        if (live) this.#window = 1;
        this.#markAt = now;
        this.#markSeen = 0;
        this.#measured = false;
        this.#nextAt = 0;
        this.#probeSent = 0;
        // Others spent the window before: at most this client's part of it then.
        this.#probeBudget = live
          ? info.remaining * Math.min(this.#lastShare, 1 / 2)
          : Math.max(info.remaining / 2, Math.min(PROBE_FLOOR, info.limit / 4));
      } else if (near) {
        // Answers overtake each other: the lowest count is the latest; the latest reset is safe.
        this.#remaining = Math.min(known, info.remaining);
        this.#resetAt = Math.max(this.#resetAt, resetAt);
      } else if (info.remaining <= 0 && resetAt > now + SAME_WINDOW_MS) {
        // An earlier reset still ahead is no window that ended: a sliding window or a token
        // bucket, once spent, names when it allows the next request, before it is whole again.
        this.#remaining = 0;
        this.#resetAt = resetAt;
      }
      if (this.#resetAt - resetAt <= SAME_WINDOW_MS) {
        this.#counted++;
        this.#heardAt = now;
        this.#measure(now);
      }
    }
    this.#window++;
    this.#drain();
  }

  /** Frees the place of a request that got no answer with headers. */
  release(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    // A measuring request that got no answer measured nothing.
    if (this.#nextAt === Infinity) this.#nextAt = 0;
    this.#drain();
  }

  #size(): number {
    return this.#queue.length - this.#head;
  }

  /** Forgets a window once its reset time has passed: the next answer tells the new one. */
  #expireWindow(): void {
    if (this.#remaining !== undefined && Date.now() >= this.#resetAt) {
      // Others who spent the window while calls were waiting here spend the next one too.
      this.#othersLive = this.#seen > 0 && (this.#size() > 0 || this.#inFlight > 0);
      this.#lastShare = this.#share();
      this.#remaining = undefined;
      this.#window = 1;
      this.#counted = 0;
    }
  }

  #mayGo(now: number): boolean {
    if (this.#inFlight >= this.#window) return false;
    const remaining = this.#remaining;
    if (remaining === undefined) return true;
    // In-flight requests may not be in `remaining` yet: assume they are not.
    if (remaining - this.#inFlight <= 0) return false;
    // Nor is what the others spent since the last answer, at their measured rate: processes that
    // each heard a few left would all send into the window they spent meanwhile. An answer in
    // flight tells; with none, the window is spent by that measure and the next call waits for
    // the reset, told (within the cap: a guess never fails a call). The count is older than the
    // answer's arrival by its way back, and they spent then too: in bench 6d in memory, processes
    // that heard a few left 50–250 ms before sent into the window the others had spent. 50 ms of
    // their rate; 100 ms left two live clients' last places unused (docs/benchmarks.md, 6g).
    if (remaining - this.#inFlight <= this.#spanRate * (now - this.#heardAt + 50)) {
      if (this.#inFlight > 0) return false;
      if (this.#resetAt - now <= MAX_WAIT_MS) this.#nextAt = this.#resetAt;
    }
    // Once others were seen spending the window, never more in flight than this client's share:
    // a moment without their answers is no proof they stopped (a stalled process).
    if (this.#inFlight >= Math.ceil(remaining * this.#share())) return false;
    return now >= this.#nextAt || !this.#paced(now);
  }

  /** True while sends are spaced: the window is shared, or its first span is not measured yet. */
  #paced(now: number): boolean {
    return this.#probing(now) || this.#pressed(now);
  }

  /**
   * True while this client has spent its budget in the known window before a rate span has
   * measured the others: until the span ends, and then until the answer of one more request.
   */
  #probing(now: number): boolean {
    return (
      this.#remaining !== undefined &&
      !this.#measured &&
      this.#probeSent >= this.#probeBudget &&
      (now < this.#markAt + RATE_SPAN_MS || this.#inFlight > 0)
    );
  }

  /**
   * The requests of others the known window counted since this client's first answer in it: what
   * it lost beyond this client's own requests, answered or in flight (which the server may have
   * counted already, so live demand errs low rather than seeing answers that overtook each other).
   */
  #foreign(): number {
    const lost = this.#firstRemaining - (this.#remaining ?? this.#firstRemaining);
    return Math.max(0, lost - (this.#counted - 1) - this.#inFlight);
  }

  /**
   * Measures the others' demand at an answer: over a span of at least {@link RATE_SPAN_MS}, so
   * that a process that stalls a moment (a busy machine) does not look stopped, and sooner when
   * they spend faster than the last span said (a burst).
   */
  #measure(now: number): void {
    this.#seen = Math.max(this.#seen, this.#foreign());
    const more = this.#seen - this.#markSeen;
    const elapsed = now - this.#markAt;
    if (elapsed >= RATE_SPAN_MS) {
      this.#measured = true;
      this.#rate = this.#spanRate = more / elapsed;
      if (this.#nextAt === Infinity) {
        this.#nextAt = now;
        if (this.#pressed(now)) this.#space(now);
      }
      this.#markAt = now;
      this.#markSeen = this.#seen;
    } else if (more > 0) {
      this.#rate = Math.max(this.#rate, more / Math.max(1, elapsed));
    }
  }

  /** This client's part of the window's live spending: 1 while it is alone. */
  #share(): number {
    const own = Math.max(1, this.#counted - 1);
    return own / (own + this.#seen);
  }

  /**
   * True while the window must be shared: the others' live demand and this client's own (the
   * calls waiting here, and the rate it has been sending at: a loop of awaited calls never has
   * more than one waiting), each projected to the reset, would spend what is left before it.
   */
  #pressed(now: number): boolean {
    if (this.#rate === 0 || this.#remaining === undefined) return false;
    const left = this.#resetAt - now;
    // The others' spending runs from the last answer, whose count `#remaining` is.
    return (
      this.#rate * (this.#resetAt - this.#heardAt) + this.#demand(now, left) >
      this.#remaining - this.#inFlight
    );
  }

  /** This client's demand until the reset `left` ms away: its queue and its recent rate. */
  #demand(now: number, left: number): number {
    const spans = Math.floor((now - this.#spanAt) / RATE_SPAN_MS);
    if (spans > 0) {
      this.#lastSpanSent = spans === 1 ? this.#spanSent : 0;
      this.#spanSent = 0;
      this.#spanAt += spans * RATE_SPAN_MS;
    }
    // The span before counts for the part of it still within the last RATE_SPAN_MS.
    const recent = this.#lastSpanSent * (1 - (now - this.#spanAt) / RATE_SPAN_MS) + this.#spanSent;
    return Math.max(1, this.#size()) + (recent / RATE_SPAN_MS) * Math.max(0, left);
  }

  /**
   * Takes a place. A client that shares its key spreads its part of what is left evenly over
   * the time left, so the others' answers keep telling it what the server counted: sent in one
   * burst, several clients' calls would all be counted before any of them heard. Its part leaves
   * the others their projected demand, and at least half of what is left is its own when it
   * needs it (max-min fairness between this client and the rest).
   */
  #take(now: number): void {
    this.#demand(now, 0);
    this.#spanSent++;
    this.#inFlight++;
    if (this.#remaining !== undefined) this.#probeSent++;
    if (this.#probing(now)) {
      this.#spacing = 0;
      // Past the span, this request measures: the next waits for its answer (#measure).
      this.#nextAt = now < this.#markAt + RATE_SPAN_MS ? this.#markAt + RATE_SPAN_MS : Infinity;
      return;
    }
    if (this.#pressed(now)) this.#space(now);
  }

  /** Spaces the next send: this client's part of what is left, over the time left. */
  #space(now: number): void {
    const left = Math.max(0, this.#resetAt - now);
    // Shares of the whole window since this client's first answer in it: the others' (what they
    // spent, and their rate to the reset) and its own (what it sent, and its demand to the reset).
    const capacity = this.#firstRemaining + 1;
    const own = this.#counted + this.#inFlight;
    const fair = Math.max(
      capacity - this.#seen - this.#rate * left,
      Math.min(own + this.#demand(now, left), capacity / 2),
    );
    const part = fair - own;
    // Its share spent, it waits for the reset. Otherwise at most a rate span apart: only an
    // answer can tell that the others have stopped (and a reset an hour away spreads nothing
    // over the hour).
    this.#spacing = part < 1 ? left : Math.min(left / part, RATE_SPAN_MS);
    this.#nextAt = now + this.#spacing;
  }

  /** Tells a waiter, once, that it waits about `ms` for its turn on a shared key. */
  #tell(waiter: Waiter, ms: number): void {
    if (ms > 0) this.#lines.tell(waiter, ms, SHARED_CAUSE);
  }

  /** True while nothing but the window's reset can let a call go. */
  #blockedUntilReset(now: number): boolean {
    // No window known (undefined) compares as no number: never spent.
    return this.#remaining! <= 0 && now < this.#resetAt;
  }

  /**
   * Settles a waiter that cannot be served in time: the reset is beyond the cap or its deadline.
   * Tells it about its wait otherwise. False when it was settled.
   */
  #judge(waiter: Waiter, now: number): boolean {
    if (waiter.settled) return false;
    const { target, deadline } = waiter.options;
    if (deadline !== undefined && now >= deadline) {
      this.#settle(waiter, timeoutError(target, 0));
      return false;
    }
    if (!this.#blockedUntilReset(now)) return true;
    const ms = this.#resetAt - now;
    if (ms > MAX_WAIT_MS + RESET_ROUNDING_MS) {
      this.#settle(
        waiter,
        new RateLimitError({
          status: 429,
          message: `The rate limit resets in ${Math.ceil(ms / 1000)} s, longer than the SDK waits (${MAX_WAIT_MS / 1000} s)`,
          retryAfter: ms,
          local: true,
          ...target,
        }),
      );
      return false;
    }
    // No deadline (undefined) compares as no number: never before the reset.
    if (deadline! < this.#resetAt) {
      this.#settle(waiter, timeoutError(target, ms));
      return false;
    }
    this.#lines.tell(waiter, ms, WAIT_CAUSE);
    return true;
  }

  #settle(waiter: Waiter, error?: unknown): void {
    if (waiter.settled) return;
    waiter.settled = true;
    if (waiter.abort) aborts.leave(waiter.options.signal!, waiter as Follower);
    this.#lines.leave(waiter, error === undefined);
    if (error === undefined) waiter.resolve();
    else waiter.reject(error);
  }

  /** Lets waiting calls go, and logs the waits it told. */
  #drain(): void {
    this.#letGo();
    this.#lines.flush();
  }

  /** Lets waiting calls go, in order, while the window allows; arms the reset timer otherwise. */
  #letGo(): void {
    this.#expireWindow();
    const now = Date.now();
    while (this.#size() > 0) {
      const waiter = this.#queue[this.#head] as Waiter;
      if (waiter.settled) {
        this.#head++;
        continue;
      }
      if (!this.#mayGo(now)) break;
      this.#take(now);
      this.#head++;
      this.#settle(waiter);
    }
    this.#compact();
    if (this.#size() === 0) {
      this.#clearTimers();
      return;
    }
    if (this.#blockedUntilReset(now) && this.#judgedResetAt !== this.#resetAt) {
      // The window is spent: every waiting call now knows it waits for its reset at least.
      this.#judgedResetAt = this.#resetAt;
      for (let index = this.#head; index < this.#queue.length; index++) {
        this.#judge(this.#queue[index] as Waiter, now);
      }
      this.#compact();
      if (this.#size() === 0) return;
    }
    if (this.#remaining === undefined) return; // the answer in flight will tell
    // The reset, or sooner the next paced send: one timer, moved earlier when need be.
    const paced = this.#nextAt > now && this.#paced(now);
    if (paced) {
      // Every call waiting is told about when its turn comes: again when it moved later.
      const turn = Math.min(this.#nextAt, this.#resetAt);
      if (turn >= this.#toldAt + LOGGED_WAIT_MS) {
        this.#toldAt = turn;
        this.#toldUpTo = 0;
      }
      for (let index = Math.max(this.#head, this.#toldUpTo); index < this.#queue.length; index++) {
        const turn = this.#nextAt + (index - this.#head) * this.#spacing;
        this.#tell(this.#queue[index] as Waiter, Math.min(turn, this.#resetAt) - now);
      }
      this.#toldUpTo = this.#queue.length;
    }
    const wakeAt = paced ? Math.min(this.#nextAt, this.#resetAt) : this.#resetAt;
    if (this.#wakeTimer !== undefined && this.#wakeAt <= wakeAt) return;
    clearTimeout(this.#wakeTimer);
    this.#wakeAt = wakeAt;
    this.#wakeTimer = later(
      () => {
        this.#wakeTimer = undefined;
        this.#drain();
      },
      Math.min(wakeAt - now, MAX_WAIT_MS),
    );
  }

  /** Drops settled waiters from the front, and the array's dead part once it is large. */
  #compact(): void {
    while (this.#head < this.#queue.length && (this.#queue[this.#head] as Waiter).settled) {
      this.#head++;
    }
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#toldUpTo = 0;
      this.#head = 0;
      this.#clearTimers();
    } else if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#toldUpTo = 0;
      this.#head = 0;
    }
  }

  #armDeadline(deadline: number | undefined): void {
    if (deadline === undefined || deadline >= this.#deadlineTimerAt) return;
    clearTimeout(this.#deadlineTimer);
    this.#deadlineTimerAt = deadline;
    this.#deadlineTimer = later(
      () => {
        this.#deadlineTimer = undefined;
        this.#deadlineTimerAt = Infinity;
        const now = Date.now();
        let next = Infinity;
        for (let index = this.#head; index < this.#queue.length; index++) {
          const waiter = this.#queue[index] as Waiter;
          if (this.#judge(waiter, now) && waiter.options.deadline !== undefined) {
            next = Math.min(next, waiter.options.deadline);
          }
        }
        this.#compact();
        this.#lines.flush();
        if (next !== Infinity && this.#size() > 0) this.#armDeadline(next);
      },
      // Every timer within the cap: a deadline further away is checked again when this one fires.
      Math.min(Math.max(0, deadline - Date.now()), MAX_WAIT_MS),
    );
  }

  #clearTimers(): void {
    clearTimeout(this.#wakeTimer);
    clearTimeout(this.#deadlineTimer);
    this.#wakeTimer = undefined;
    this.#wakeAt = Infinity;
    this.#deadlineTimer = undefined;
    this.#deadlineTimerAt = Infinity;
  }
}

/** The error of a call whose wait for the rate limit would pass its deadline. */
export function timeoutError(target: RequestTarget, resetInMs: number): ApiTimeoutError {
  const when = resetInMs > 0 ? ` (the window resets in ${Math.ceil(resetInMs / 1000)} s)` : '';
  return new ApiTimeoutError(
    target,
    `${target.method} ${target.url} would wait for the rate limit${when} beyond its timeout.`,
  );
}
