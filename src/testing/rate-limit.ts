import {
  HEADER_RATE_LIMIT_LIMIT,
  HEADER_RATE_LIMIT_REMAINING,
  HEADER_RATE_LIMIT_RESET,
  HEADER_RETRY_AFTER,
} from '../contract.js';

/** The outcome of counting one request. */
export interface RateLimitDecision {
  allowed: boolean;
  /** X-RateLimit-* on every answer, plus Retry-After on a refusal. */
  headers: Record<string, string>;
}

/**
 * Fixed windows per credential: a window opens with a credential's first request, lasts
 * `windowMs` and admits `limit` requests; refused requests do not count. The contract's burst
 * allowance (20 % over the tier's pace within 10 s) is not modelled: within its window a
 * credential may spend its whole tier at once.
 */
export function createRateLimiter(windowMs: number) {
  const windows = new Map<string | symbol, { start: number; count: number }>();
  return {
    take(bucket: string | symbol, limit: number, now: number): RateLimitDecision {
      let window = windows.get(bucket);
      if (!window || now >= window.start + windowMs) {
        window = { start: now, count: 0 };
        windows.set(bucket, window);
      }
      const allowed = window.count < limit;
      if (allowed) window.count++;
      const resetMs = window.start + windowMs;
      const headers: Record<string, string> = {
        [HEADER_RATE_LIMIT_LIMIT]: String(limit),
        [HEADER_RATE_LIMIT_REMAINING]: String(limit - window.count),
        [HEADER_RATE_LIMIT_RESET]: String(Math.ceil(resetMs / 1000)),
      };
      if (!allowed)
        headers[HEADER_RETRY_AFTER] = String(Math.max(1, Math.ceil((resetMs - now) / 1000)));
      return { allowed, headers };
    },
    clear(): void {
      windows.clear();
    },
  };
}
