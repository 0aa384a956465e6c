/**
 * Simulated rate-limited services and their consumers, on the test's fake clock: the pacing
 * tests drive a client's queue (core/throttle.ts, core/shared-throttle.ts) against them without
 * HTTP, so a scenario of minutes runs in milliseconds and a property can run hundreds of them.
 */
import type { PacingStore } from '../../src/core/config.js';
import { SAME_WINDOW_MS } from '../../src/core/throttle.js';
import type { Pacer } from '../../src/core/throttle.js';

/**
 * How the service counts: a fixed window opened by the first request, a fixed window on the
 * clock (its starts are multiples of its length), a sliding window (a request counts for its
 * length after it), or a token bucket (`limit` tokens, refilled at `limit` per window).
 */
export type Limiter = 'fixed-first' | 'fixed-clock' | 'sliding' | 'bucket';

/**
 * The headers it answers with: the contract's `X-RateLimit-*` (reset in Unix seconds), the same
 * with the reset in seconds from now, the IETF draft's `RateLimit-*`, or its structured field.
 */
export type Family = 'x-ratelimit' | 'x-ratelimit-seconds' | 'ratelimit' | 'ratelimit-structured';

export interface ServiceOptions {
  limiter: Limiter;
  family: Family;
  limit: number;
  windowMs: number;
}

export interface Answer {
  limited: boolean;
  headers: Headers;
}

export function simulatedService({ limiter, family, limit, windowMs }: ServiceOptions) {
  let windowStart: number | undefined;
  let used = 0;
  const counted: number[] = [];
  let tokens = limit;
  let filledAt = 0;
  const counts = { ok: 0, limited: 0 };

  /** What is left now, and when the service says it resets; counts a request when `take`. */
  const state = (
    now: number,
    take: boolean,
  ): { remaining: number; resetAt: number; ok: boolean } => {
    if (limiter === 'sliding') {
      while (counted.length > 0 && counted[0]! + windowMs <= now) counted.shift();
      const ok = counted.length < limit;
      if (take && ok) counted.push(now);
      // Whole again once the last request counted has left the window.
      const resetAt = counted.length > 0 ? counted[counted.length - 1]! + windowMs : now;
      // When spent, the reset is when the oldest leaves, the first request allowed again.
      return {
        remaining: limit - counted.length,
        resetAt: counted.length >= limit ? counted[0]! + windowMs : resetAt,
        ok,
      };
    }
    if (limiter === 'bucket') {
      const rate = limit / windowMs;
      tokens = Math.min(limit, tokens + (now - filledAt) * rate);
      filledAt = now;
      const ok = tokens >= 1;
      if (take && ok) tokens -= 1;
      const remaining = Math.floor(tokens);
      // Full again, or when spent the next whole token.
      const resetAt = now + (remaining > 0 ? (limit - tokens) / rate : (1 - tokens) / rate);
      return { remaining, resetAt, ok };
    }
    if (limiter === 'fixed-clock') windowStart ??= now - (now % windowMs);
    else windowStart ??= now;
    if (now - windowStart >= windowMs) {
      windowStart += Math.floor((now - windowStart) / windowMs) * windowMs;
      used = 0;
    }
    const ok = used < limit;
    if (take && ok) used++;
    return { remaining: limit - used, resetAt: windowStart + windowMs, ok };
  };

  return {
    counts,
    /** A request arriving at the service now: whether it was refused, and the answer's headers. */
    request(now = Date.now()): Answer {
      const { remaining, resetAt, ok } = state(now, true);
      if (ok) counts.ok++;
      else counts.limited++;
      return {
        limited: !ok,
        headers: rateHeaders(family, limit, remaining, resetAt, now, windowMs),
      };
    },
    /** When the service would let the next request count (for the tests' own reasoning). */
    resetAt: (now = Date.now()) => state(now, false).resetAt,
  };
}

function rateHeaders(
  family: Family,
  limit: number,
  remaining: number,
  resetAt: number,
  now: number,
  windowMs: number,
): Headers {
  const inSeconds = String(Math.max(0, Math.ceil((resetAt - now) / 1000)));
  switch (family) {
    case 'x-ratelimit':
    case 'x-ratelimit-seconds':
      return new Headers({
        'x-ratelimit-limit': String(limit),
        'x-ratelimit-remaining': String(remaining),
        'x-ratelimit-reset':
          family === 'x-ratelimit' ? String(Math.ceil(resetAt / 1000)) : inSeconds,
      });
    case 'ratelimit':
      return new Headers({
        'ratelimit-limit': String(limit),
        'ratelimit-remaining': String(remaining),
        'ratelimit-reset': inSeconds,
      });
    case 'ratelimit-structured':
      return new Headers({
        ratelimit: `"default";r=${remaining};t=${inSeconds}`,
        'ratelimit-policy': `"default";q=${limit};w=${Math.ceil(windowMs / 1000)}`,
      });
  }
}

/** A small deterministic generator (mulberry32), for latencies and bursts. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface CallRecord {
  sentAt: number;
  limited: boolean;
}

/**
 * One call through `pacer` to `service`, the request `latency()` ms on the way there and as long
 * on the way back; `sent` is told when it leaves (after its wait), and the pacer hears the answer.
 */
export async function pacedCall(
  pacer: Pacer,
  service: { request(now?: number): Answer },
  latency: () => number,
  options: { onWait?: (ms: number, cause: string) => void; sent?: (at: number) => void } = {},
): Promise<CallRecord> {
  await pacer.acquire({
    target: { method: 'GET', url: 'https://api.example.test/v1/users' },
    onWait: options.onWait,
  });
  const sentAt = Date.now();
  options.sent?.(sentAt);
  await sleep(latency());
  const answer = service.request();
  await sleep(latency());
  pacer.update(answer.headers);
  return { sentAt, limited: answer.limited };
}

/**
 * A consumer this client cannot see (another app on the key): a request every `everyMs`, or
 * `burst` requests at once every `burst × everyMs`, until `until()` says stop. Its 429s, with
 * the service's window each met, are in `limitedAt`.
 */
export function foreignConsumer(
  service: { request(now?: number): Answer },
  { everyMs, burst = 1, startAt = 0 }: { everyMs: number; burst?: number; startAt?: number },
) {
  const limitedAt: number[] = [];
  let sent = 0;
  const tick = () => {
    for (let index = 0; index < burst; index++) {
      sent++;
      if (service.request().limited) limitedAt.push(Date.now());
    }
    timer = setTimeout(tick, everyMs * burst);
  };
  let timer = setTimeout(tick, startAt);
  return {
    limitedAt,
    sent: () => sent,
    stop: () => clearTimeout(timer),
  };
}

/**
 * A {@link PacingStore} in memory, with the Redis store's rules (src/redis/pacing.ts): room is
 * what the service last said is left less the places in flight, and its release judges answers
 * as the Redis script's does; a window whose reset has passed
 * is whole again; with nothing known one request goes alone; a place expires after 30 s.
 */
export function memoryPacingStore(pollMs = 25) {
  let window: { limit: number; remaining: number; resetAt: number } | undefined;
  const places = new Map<string, number>();
  const store: PacingStore = {
    reserve(_key, holder) {
      const now = Date.now();
      for (const [name, expires] of places) if (expires <= now) places.delete(name);
      let room: number;
      let wait = pollMs;
      if (window === undefined) room = 1 - places.size;
      else if (now >= window.resetAt) room = window.limit - places.size;
      else {
        room = window.remaining - places.size;
        wait = window.remaining > 0 ? Math.min(pollMs, window.resetAt - now) : window.resetAt - now;
      }
      if (room > 0) {
        places.set(holder, now + 30_000);
        return Promise.resolve(0);
      }
      return Promise.resolve(Math.min(wait, 61_000));
    },
    release(_key, holder, said) {
      places.delete(holder);
      const now = Date.now();
      if (!said || said.resetAt <= now) return Promise.resolve();
      const near =
        window !== undefined && Math.abs(said.resetAt - window.resetAt) <= SAME_WINDOW_MS;
      if (
        window === undefined ||
        now >= window.resetAt ||
        (near &&
          said.resetAt > window.resetAt &&
          now + SAME_WINDOW_MS >= window.resetAt &&
          said.remaining > window.remaining + places.size + 1) ||
        (!near && said.resetAt > window.resetAt)
      ) {
        window = { ...said };
      } else if (near) {
        window = {
          limit: said.limit,
          remaining: Math.min(window.remaining, said.remaining),
          resetAt: Math.max(window.resetAt, said.resetAt),
        };
      } else if (said.remaining === 0 && said.resetAt > now + SAME_WINDOW_MS) {
        window = { ...window, remaining: 0, resetAt: said.resetAt };
      }
      return Promise.resolve();
    },
  };
  return Object.assign(store, {
    /** The places held now (expired ones included until the next reserve drops them). */
    held: () => places.size,
  });
}
