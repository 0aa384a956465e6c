import {
  HEADER_RATE_LIMIT_LIMIT,
  HEADER_RATE_LIMIT_REMAINING,
  HEADER_RATE_LIMIT_RESET,
  HEADER_RETRY_AFTER,
} from '../contract.js';

/**
 * The header family the mock announces its rate-limit window in (the `dialect` option's
 * `rateLimitHeaders`):
 * - `x-ratelimit`: the contract's `X-RateLimit-Limit`, `-Remaining`, `-Reset` (Unix seconds);
 * - `x-ratelimit-seconds`: the same names, the reset in seconds from now;
 * - `ratelimit`: the IETF draft's earlier `RateLimit-Limit`, `-Remaining`, `-Reset` (seconds from now);
 * - `ratelimit-structured`: the draft's current structured fields, `RateLimit: "default";r=…;t=…`
 *   and `RateLimit-Policy: "default";q=…;w=…`;
 * - `none`: no rate-limit headers at all (`Retry-After` still comes with a 429).
 */
export type MockRateLimitHeaders =
  'x-ratelimit' | 'x-ratelimit-seconds' | 'ratelimit' | 'ratelimit-structured' | 'none';

/** The outcome of counting one request. */
export interface RateLimitDecision {
  allowed: boolean;
  /** The window's rate-limit headers on every answer, plus Retry-After on a refusal. */
  headers: Record<string, string>;
}

/**
 * Fixed windows per credential: a window opens with a credential's first request, lasts
 * `windowMs` and admits `limit` requests; refused requests do not count. The contract's burst
 * allowance (20 % over the tier's pace within 10 s) is not modelled: within its window a
 * credential may spend its whole tier at once. `family` names the headers that say so.
 */
export function createRateLimiter(windowMs: number, family: MockRateLimitHeaders = 'x-ratelimit') {
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
      const seconds = Math.max(1, Math.ceil((resetMs - now) / 1000));
      const remaining = limit - window.count;
      const headers = windowHeaders(family, limit, remaining, Math.ceil(resetMs / 1000), seconds);
      if (!allowed) headers[HEADER_RETRY_AFTER] = String(seconds);
      return { allowed, headers };
    },
    clear(): void {
      windows.clear();
    },
  };

  function windowHeaders(
    kind: MockRateLimitHeaders,
    limit: number,
    remaining: number,
    resetUnix: number,
    resetSeconds: number,
  ): Record<string, string> {
    switch (kind) {
      case 'none':
        return {};
      case 'ratelimit':
        return {
          'ratelimit-limit': String(limit),
          'ratelimit-remaining': String(remaining),
          'ratelimit-reset': String(resetSeconds),
        };
      case 'ratelimit-structured':
        return {
          ratelimit: `"default";r=${remaining};t=${resetSeconds}`,
          'ratelimit-policy': `"default";q=${limit};w=${Math.ceil(windowMs / 1000)}`,
        };
      default:
        return {
          [HEADER_RATE_LIMIT_LIMIT]: String(limit),
          [HEADER_RATE_LIMIT_REMAINING]: String(remaining),
          [HEADER_RATE_LIMIT_RESET]: String(kind === 'x-ratelimit' ? resetUnix : resetSeconds),
        };
    }
  }
}
