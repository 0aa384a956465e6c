/**
 * The service's timing headers, parsed without trusting them: every result is a finite number of
 * milliseconds ≥ 0, or undefined when a header says nothing usable. Pure functions that import
 * nothing of the core, so the promise, the transport and the throttle can all use them.
 */
import {
  HEADER_RATE_LIMIT_LIMIT,
  HEADER_RATE_LIMIT_REMAINING,
  HEADER_RATE_LIMIT_RESET,
  HEADER_RETRY_AFTER,
} from '../contract.js';

/** The longest the SDK waits on the service's word: a longer wait goes back to the caller. */
export const MAX_WAIT_MS = 60_000;

/** The X-RateLimit-* headers of an answer, parsed. */
export interface RateLimitInfo {
  /** Requests allowed per window (the key's tier). */
  limit: number;
  /** Requests left in the current window. */
  remaining: number;
  /** When the window resets. */
  reset: Date;
}

// Later than any real reset (year 2286): a reset beyond it is garbage, not a time.
const MAX_RESET_SECONDS = 1e10;

/**
 * Parses X-RateLimit-Limit, -Remaining and -Reset (Unix seconds); undefined if any is missing,
 * not a plain non-negative number, or a reset no clock will reach.
 */
export function parseRateLimit(headers: Headers): RateLimitInfo | undefined {
  const limit = plainNumber(headers.get(HEADER_RATE_LIMIT_LIMIT));
  const remaining = plainNumber(headers.get(HEADER_RATE_LIMIT_REMAINING));
  const reset = plainNumber(headers.get(HEADER_RATE_LIMIT_RESET));
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  if (reset > MAX_RESET_SECONDS) return undefined;
  return { limit, remaining, reset: new Date(reset * 1000) };
}

/**
 * Milliseconds the service asks to wait: Retry-After (delay-seconds or an HTTP-date), else
 * X-RateLimit-Reset (Unix seconds), else the IETF `RateLimit-Reset` / `RateLimit: …;t=` (delta
 * seconds). Undefined when none says anything usable, so the caller falls back to backoff. A
 * header repeated (`30, 30`) counts when its values agree. A window's reset counts only when its
 * remaining count is not above 0: every answer carries the reset, and a 503 from a window with
 * requests to spare is no reason to wait for it.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const retryAfter = single(headers.get(HEADER_RETRY_AFTER));
  if (retryAfter !== undefined) {
    const seconds = plainNumber(retryAfter);
    if (seconds !== undefined) return toMs(seconds);
    const date = /^[A-Za-z]{3},/.test(retryAfter) ? Date.parse(retryAfter) : Number.NaN;
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  const reset = plainNumber(single(headers.get(HEADER_RATE_LIMIT_RESET)));
  if (
    reset !== undefined &&
    reset <= MAX_RESET_SECONDS &&
    spent(headers, HEADER_RATE_LIMIT_REMAINING)
  ) {
    return Math.max(0, reset * 1000 - now);
  }
  const ietfReset = plainNumber(single(headers.get('ratelimit-reset')));
  if (ietfReset !== undefined && spent(headers, 'ratelimit-remaining')) return toMs(ietfReset);
  const ietf = headers.get('ratelimit');
  if (ietf !== null && !/(?:^|[;,\s])(?:r|remaining)=0*[1-9]/.test(ietf.slice(0, 1024))) {
    // draft-ietf-httpapi-ratelimit-headers: `"policy";r=0;t=30`, or the older `reset=30`.
    const match = /(?:^|[;,\s])(?:t|reset)=(\d{1,12}(?:\.\d{1,6})?)(?=$|[;,\s])/.exec(
      ietf.slice(0, 1024),
    );
    if (match) return toMs(Number(match[1]));
  }
  return undefined;
}

/** False when the window's remaining count says requests are left; true when it is 0 or unknown. */
function spent(headers: Headers, name: string): boolean {
  const remaining = plainNumber(single(headers.get(name)));
  return remaining === undefined || remaining <= 0;
}

/** A header's one value: a list of equal values counts as that value, differing ones as none. */
function single(value: string | null): string | undefined {
  if (value === null) return undefined;
  const values = new Set(
    value
      .slice(0, 1024)
      .split(',')
      .map((part) => part.trim()),
  );
  // An HTTP-date has a comma of its own: then the whole value is the one value.
  if (/^[A-Za-z]{3},/.test(value.trim())) return value.trim();
  return values.size === 1 ? [...values][0] : undefined;
}

/** A non-negative decimal written plainly (no sign, exponent, unit, NaN or Infinity). */
function plainNumber(value: string | null | undefined): number | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim();
  if (!/^\d{1,15}(?:\.\d{1,6})?$/.test(trimmed)) return undefined;
  return Number(trimmed);
}

function toMs(seconds: number): number {
  return Math.round(seconds * 1000);
}
