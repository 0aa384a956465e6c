/**
 * The Redis pacing store: `new Client({ rateLimit: { store: new RedisStore({ client }) } })`.
 * Every process and machine of a key asks one Lua script before each request and tells another
 * after each answer; Redis runs each atomically, on its own clock.
 */
import { ConfigurationError, type PacingStore, type PacingWindow } from '../core/config.js';
import { definePacingStore, fallbacksOf } from '../core/shared-throttle.js';
import { SAME_WINDOW_MS } from '../core/throttle.js';
import { MAX_WAIT_MS } from '../internal/headers.js';
import {
  type AnswerObserver,
  defineScript,
  redisAdapter,
  type RedisAdapter,
  type RedisClientLike,
  type RedisScript,
} from './client.js';

/** Options of {@link RedisStore}. */
export interface RedisStoreOptions {
  /** The app's own connected client: node-redis 4–6 (`createClient()`) or ioredis 5–6 (`new Redis()`). */
  client: RedisClientLike;
  /** The start of every key's name, to keep apart apps that share a Redis. Default `employee-recognition:pacing:`. */
  prefix?: string | undefined;
  /**
   * Milliseconds to wait for Redis before pacing a request locally, from 1 to 60,000; or
   * `'auto'` (the default): four times the 99th percentile of Redis's last 100 round trips,
   * from 50 ms to 1 s (1 s until it has heard 100), so a store on a busy machine waits as long
   * as its Redis answers there, and one on an idle machine gives up on a hung Redis after 50 ms.
   */
  timeout?: number | 'auto' | undefined;
}

/** Defaults of {@link RedisStoreOptions}, and the store's timings, in one place. */
export const REDIS_STORE_DEFAULTS = {
  /** The start of every key's name. */
  prefix: 'employee-recognition:pacing:',
  /**
   * Milliseconds to wait for Redis before pacing a request locally: `'auto'`, adapted to the
   * round trips the store observes (below). Why (docs/many-workers.md, "How long the store
   * waits"): on a busy machine a loaded redis-server or worker answers in tens to hundreds of
   * ms, and each answer given up on paces a client alone for a second. In bench 6d (32 workers,
   * 2 busy cores) a fixed 50 ms, the old default, fell back 318 times and met 28.8 % 429s and
   * 9 failed calls; `'auto'` fell back 12 times, 0.7 % 429s. A fixed 1 s would hold the queue
   * up to a second about once a second wherever Redis hangs; adapted, a store waits long only
   * where Redis has been slow.
   */
  timeout: 'auto',
  /** `'auto'`: the shortest timeout, where answers come in a few ms; the old fixed default. */
  minTimeoutMs: 50,
  /** `'auto'`: the longest, the same second that bounds any store's answer in the SDK. */
  maxTimeoutMs: 1000,
  /** `'auto'`: the timeout is this many times the high percentile of the recent round trips. */
  timeoutFactor: 4,
  /** `'auto'`: how many recent round trips (answers, late ones included) it is taken from. */
  roundTrips: 100,
  /** A request's place expires this long after it was taken: a dead worker's places come back. */
  placeTtlMs: 30_000,
  /** A window's key expires this long after the window resets (its limit serves the next one). */
  windowTtlMs: 60_000,
  /** A wait while requests in flight hold the window's last places, or the first request probes. */
  pollMs: 25,
  /**
   * A store's first question with each script (the reserve, the release) may take this long
   * however short `timeout` is: it compiles the client's code paths, and Redis loads the script
   * (NOSCRIPT, then EVAL).
   */
  firstTimeoutMs: 1000,
} as const;

// Shared by both scripts: the time on Redis's clock, so the clocks of workers never matter; and
// what counts as a number the SDK wrote (a whole number in range, not NaN or inf).
const PRELUDE = `
if redis.replicate_commands then redis.replicate_commands() end
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function whole(x, low, high)
  return x ~= nil and x == x and x >= low and x <= high and math.floor(x) == x
end
local window, inflight = KEYS[1], KEYS[2]
`;

/**
 * Reserve: 0 and a place for ARGV[1] when the window has room; else the wait in ms; -1 when the
 * keys hold what the SDK did not write (removed, so the next question starts clean), -2 when the
 * window resets beyond the cap. Room is what the service said is left less the requests in
 * flight; a window whose reset has passed is whole again; with nothing known one request goes
 * alone, as a probe, and its answer tells the window.
 */
const RESERVE = defineScript(`${PRELUDE}
local holder, hold, poll, cap = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local wtype, ftype = redis.call('TYPE', window).ok, redis.call('TYPE', inflight).ok
if (wtype ~= 'hash' and wtype ~= 'none') or (ftype ~= 'zset' and ftype ~= 'none') then
  redis.call('DEL', window, inflight)
  return -1
end
local now = now_ms()
redis.call('ZREMRANGEBYSCORE', inflight, '-inf', now)
local count = redis.call('ZCARD', inflight)
local state = redis.call('HMGET', window, 'limit', 'remaining', 'reset')
local room, wait
if state[1] == false and state[2] == false and state[3] == false then
  room, wait = 1 - count, poll
else
  local limit, remaining, reset = tonumber(state[1]), tonumber(state[2]), tonumber(state[3])
  if not (whole(limit, 1, 1e9) and whole(remaining, 0, 1e9) and whole(reset, 0, 1e15)) then
    redis.call('DEL', window, inflight)
    return -1
  end
  if now >= reset then
    room, wait = limit - count, poll
  else
    room = remaining - count
    if remaining > 0 then wait = math.min(poll, reset - now) else wait = reset - now end
  end
end
if room > 0 then
  redis.call('ZADD', inflight, now + hold, holder)
  redis.call('PEXPIRE', inflight, hold)
  return 0
end
if wait > cap then return -2 end
return wait
`);

/**
 * Release: frees ARGV[1]'s place and records the answer's window (ARGV[2..4]: limit, remaining,
 * reset in ms; empty when the answer had none; ARGV[6]: how far apart two answers of one window
 * may read its reset), as the in-memory queue judges answers (core/throttle.ts, `observe`). A
 * reset read from a delta moves with the rounding and the latency: a reset within ARGV[6] of the
 * known one is the same window (the lowest remaining, the later reset, as answers overtake each
 * other) unless it reads later, near the known reset, with a count risen beyond what the places
 * in flight explain (a refill). A later reset is a new window, and so is any once the known one has reset. A spent
 * answer whose earlier reset is still ahead holds (a sliding window or a bucket names when it
 * allows the next request); any other earlier one is an old answer.
 */
const RELEASE = defineScript(`${PRELUDE}
redis.call('ZREM', inflight, ARGV[1])
local limit, remaining, reset, keep, same = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
if not (whole(limit, 1, 1e9) and whole(remaining, 0, 1e9) and whole(reset, 0, 1e15)) then return 0 end
local now = now_ms()
if reset <= now then return 0 end
local known = redis.call('HMGET', window, 'remaining', 'reset')
local known_remaining, known_reset = tonumber(known[1]), tonumber(known[2])
local near = known_reset ~= nil and math.abs(reset - known_reset) <= same
if known_reset == nil or known_remaining == nil or now >= known_reset
  or (near and reset > known_reset and now + same >= known_reset
    and remaining > known_remaining + redis.call('ZCARD', inflight) + 1)
  or (not near and reset > known_reset) then
  redis.call('HSET', window, 'limit', limit, 'remaining', remaining, 'reset', reset)
elseif near then
  redis.call('HSET', window, 'limit', limit, 'remaining', math.min(known_remaining, remaining), 'reset', math.max(known_reset, reset))
elseif remaining == 0 and reset > now + same then
  redis.call('HSET', window, 'remaining', 0, 'reset', reset)
else
  return 0
end
redis.call('PEXPIRE', window, reset - now + keep)
return 0
`);

/**
 * A {@link PacingStore} in the app's own Redis, for every process and machine that shares a key.
 *
 * Per key and service it keeps two keys, named by a hash of the service's address and the key's
 * identity (never the credential), under `prefix`, with a hash tag so both land on one Redis
 * Cluster slot: `<prefix>{<hash>}:window` (the limit, remaining and reset the service last
 * said; it expires a minute after the reset) and `<prefix>{<hash>}:in-flight` (the places of
 * requests sent and not yet answered; each expires 30 s after it was taken, so a worker that
 * dies holding places does not starve the others).
 *
 * Redis that is not ready, slower than `timeout`, or failing makes a request pace locally: the
 * client logs it once at warn, counts it in {@link RedisStore.fallbacks}, and comes back to Redis
 * when it answers again.
 */
export class RedisStore implements PacingStore {
  readonly #redis: RedisAdapter;
  readonly #prefix: string;
  /** The fixed timeout, or the round trips that set it (`'auto'`). */
  readonly #timeout: number | RoundTrips;
  /**
   * The scripts Redis has answered for this store: until one has been, its question gets the
   * first question's timeout, as Redis may have to load it (NOSCRIPT, then EVAL).
   */
  readonly #answered = new Set<RedisScript>();

  constructor(options: RedisStoreOptions) {
    if (options === null || typeof options !== 'object') {
      throw new ConfigurationError('options', 'new RedisStore() takes an options object.');
    }
    try {
      this.#redis = redisAdapter(options.client);
    } catch (error) {
      throw new ConfigurationError('client', (error as Error).message);
    }
    const prefix = options.prefix ?? REDIS_STORE_DEFAULTS.prefix;
    if (typeof prefix !== 'string' || prefix.length > 200 || /[{}]/.test(prefix)) {
      throw new ConfigurationError(
        'prefix',
        '`prefix` must be a string of at most 200 characters, without `{` or `}` (they make the Redis Cluster hash tag).',
      );
    }
    this.#prefix = prefix;
    const timeout = options.timeout ?? REDIS_STORE_DEFAULTS.timeout;
    if (timeout === 'auto') {
      this.#timeout = new RoundTrips();
    } else if (typeof timeout === 'number' && timeout >= 1 && timeout <= MAX_WAIT_MS) {
      this.#timeout = timeout;
    } else {
      throw new ConfigurationError(
        'timeout',
        `\`timeout\` must be 'auto' or a number of ms from 1 to ${MAX_WAIT_MS}.`,
      );
    }
    definePacingStore(this);
  }

  /**
   * How many times a client of this store paced a request locally because the store could not
   * tell (Redis not ready, slower than `timeout`, failing, or holding values the SDK did not
   * write), over every client that uses this store, since it was made. Each fallback paces that
   * client locally for a second; the first of an outage is also logged at warn. Read-only.
   */
  get fallbacks(): number {
    return fallbacksOf(this);
  }

  async reserve(key: string, holder: string): Promise<number | undefined> {
    // A place granted after the client gave up stands for the request it paced locally meanwhile:
    // the client releases it with that request's answer (core/shared-throttle.ts, Place). Both
    // go by one connection to one slot, so Redis runs the release after the reserve (but for a
    // reserve sent again as EVAL after NOSCRIPT, whose place may then wait out its 30 s).
    const answer = await this.#run(
      RESERVE,
      this.#keys(key),
      [holder, REDIS_STORE_DEFAULTS.placeTtlMs, REDIS_STORE_DEFAULTS.pollMs, MAX_WAIT_MS + 1000],
      this.#observe,
    );
    if (answer === -1) {
      throw new Error('the pacing keys held values the SDK did not write; they were removed');
    }
    return typeof answer === 'number' && answer >= 0 ? answer : undefined;
  }

  async release(key: string, holder: string, window: PacingWindow | undefined): Promise<void> {
    await this.#run(
      RELEASE,
      this.#keys(key),
      [
        holder,
        window?.limit ?? '',
        window?.remaining ?? '',
        window?.resetAt ?? '',
        REDIS_STORE_DEFAULTS.windowTtlMs,
        SAME_WINDOW_MS,
      ],
      this.#observe,
    );
  }

  /** Asks Redis to run `script` within the timeout of the next question, and notes its answer. */
  async #run(
    script: RedisScript,
    keys: string[],
    args: Array<string | number>,
    observe: AnswerObserver,
  ): Promise<unknown> {
    const timeout = typeof this.#timeout === 'number' ? this.#timeout : this.#timeout.timeoutMs();
    const answer = await this.#redis.run(
      script,
      keys,
      args,
      this.#answered.has(script) ? timeout : Math.max(timeout, REDIS_STORE_DEFAULTS.firstTimeoutMs),
      observe,
    );
    this.#answered.add(script);
    return answer;
  }

  readonly #observe: AnswerObserver = (_, roundTripMs) => {
    if (typeof this.#timeout !== 'number') this.#timeout.add(roundTripMs);
  };

  /** The window's key and the in-flight key, one hash tag for both. */
  #keys(key: string): string[] {
    const tag = `${this.#prefix}{${key.replace(/[{}]/g, '')}}`;
    return [`${tag}:window`, `${tag}:in-flight`];
  }
}

/**
 * `timeout: 'auto'`: the last {@link REDIS_STORE_DEFAULTS.roundTrips} round trips, late answers
 * included (a Redis that answers in 300 ms on a busy machine teaches the store to wait for it),
 * and the timeout they set. A Redis that hangs answers nothing, so it teaches nothing: the store
 * keeps giving up after what its answers took before. Until it has heard that many, it waits the
 * longest: a few quick answers are no 99th percentile, and in bench 6d every worker that gave up
 * early, after 63 or 368 ms as its workers started together, paced locally into the window the
 * store was granting to the others (docs/benchmarks.md, "Findings of issue 45").
 */
class RoundTrips {
  readonly #samples: number[] = [];
  #next = 0;
  #timeout: number = REDIS_STORE_DEFAULTS.maxTimeoutMs;

  add(roundTripMs: number): void {
    const { roundTrips, minTimeoutMs, maxTimeoutMs, timeoutFactor } = REDIS_STORE_DEFAULTS;
    this.#samples[this.#next] = Math.min(roundTripMs, maxTimeoutMs);
    this.#next = (this.#next + 1) % roundTrips;
    if (this.#samples.length < roundTrips) return;
    // The 99th percentile of the hundred: the second highest.
    const high = [...this.#samples].sort((a, b) => a - b).at(-2)!;
    this.#timeout = Math.min(maxTimeoutMs, Math.max(minTimeoutMs, Math.ceil(high * timeoutFactor)));
  }

  timeoutMs(): number {
    return this.#timeout;
  }
}
