/**
 * The service's timing headers, parsed without trusting them: every result is a finite number of
 * milliseconds ≥ 0, or undefined when a header says nothing usable. Pure functions that import
 * nothing of the core, so the promise, the transport and the throttle can all use them.
 */
import { HEADER_RETRY_AFTER } from '../contract.js';

/** The longest the SDK waits on the service's word: a longer wait goes back to the caller. */
export const MAX_WAIT_MS = 60_000;

/**
 * Which header family carried an answer's rate-limit window:
 * - `x-ratelimit`: the contract's `X-RateLimit-Limit`, `-Remaining`, `-Reset`;
 * - `ratelimit`: the IETF draft's earlier `RateLimit-Limit`, `-Remaining`, `-Reset` (seconds from now);
 * - `ratelimit-structured`: the draft's structured `RateLimit` field, with the limit in it or in
 *   `RateLimit-Policy`.
 */
export type RateLimitFamily = 'x-ratelimit' | 'ratelimit' | 'ratelimit-structured';

/** The rate-limit window an answer's headers describe, parsed. */
export interface RateLimitInfo {
  /** Requests allowed per window (the key's tier). */
  limit: number;
  /** Requests left in the current window. */
  remaining: number;
  /** When the window resets. */
  reset: Date;
  /** The header family that carried the window; always set on what the SDK parses. */
  family?: RateLimitFamily | undefined;
}

// Later than any real reset (year 2286), in every family: a reset beyond it is garbage, not a
// time, and would be beyond the dates a Date holds.
const MAX_RESET_SECONDS = 1e10;
// Earlier than any window still open (2001-09-09): an X-RateLimit-Reset below it is seconds from
// now, as many servers send under that name.
const MIN_UNIX_RESET_SECONDS = 1e9;

/**
 * The rate-limit window an answer describes, from the first family present of: X-RateLimit-Limit,
 * -Remaining and -Reset (Unix seconds, or seconds from `now` when below 10^9); the IETF draft's
 * RateLimit-Limit, -Remaining and -Reset (seconds from `now`); its structured `RateLimit` field
 * (`"policy";r=…;t=…`, its limit the `q` of the same policy in `RateLimit-Policy`, or the older
 * `limit=…, remaining=…, reset=…`). Undefined when that family lacks a plain limit, remaining or
 * reset. A reset counted from now is rounded up to the second, so answers of one window agree.
 */
export function parseRateLimit(headers: Headers, now = Date.now()): RateLimitInfo | undefined {
  const window = readWindow(headers, now);
  // Both are plain numbers ≥ 0 when given: the sum is NaN when either is missing.
  if (!(window && window.limit! + window.remaining! >= 0)) return undefined;
  // Rounded up to the second, so answers of one window agree on a reset given from now.
  window.reset = new Date(Math.ceil(+window.reset / 1000) * 1000);
  return window as RateLimitInfo;
}

type Window = Omit<RateLimitInfo, 'limit' | 'remaining'> & {
  limit: number | undefined;
  remaining: number | undefined;
};

/** What the first rate-limit family present says: its reset, with its limit and remaining if given. */
function readWindow(headers: Headers, now: number): Window | undefined {
  const fromNow = (seconds: number) => new Date(now + seconds * 1000);
  // The contract's X-RateLimit-* (HEADER_RATE_LIMIT_*), then the IETF draft's RateLimit-*.
  for (const family of ['x-ratelimit', 'ratelimit'] as const) {
    // A field's first member: `100, 100;w=60` (an early draft's policies) is 100.
    const [limit, remaining, reset] = ['limit', 'remaining', 'reset'].map((name) =>
      plainNumber(headers.get(`${family}-${name}`)?.slice(0, 1024).split(/[,;]/)[0]),
    );
    if (reset !== undefined && reset <= MAX_RESET_SECONDS) {
      const delta = family === 'ratelimit' || reset < MIN_UNIX_RESET_SECONDS;
      return { limit, remaining, reset: delta ? fromNow(reset) : new Date(reset * 1000), family };
    }
  }
  // draft-ietf-httpapi-ratelimit-headers: `"policy";r=0;t=30` with `"policy";q=100;w=60` (or, in
  // earlier drafts, `100;w=60`), or the older `limit=100, remaining=0, reset=30`.
  const value = headers.get('ratelimit')?.slice(0, 1024) ?? '';
  const reset = param(value, 't|reset');
  if (reset === undefined || reset > MAX_RESET_SECONDS) return undefined;
  const name = /^\s*("[^"]*")/.exec(value)?.[1];
  const policies = (headers.get('ratelimit-policy') ?? '').slice(0, 1024).split(',');
  const policy = policies.find((member) => name && member.trim().startsWith(name)) ?? policies[0]!;
  return {
    limit: param(value, 'limit') ?? param(policy, 'q') ?? plainNumber(policy.split(';')[0]),
    remaining: param(value, 'r|remaining'),
    reset: fromNow(reset),
    family: 'ratelimit-structured',
  };
}

/** The first `name=<number>` parameter of a structured field (`names`: alternatives, `a|b`). */
function param(value: string, names: string): number | undefined {
  const match = new RegExp(
    `(?:^|[;,\\s])(?:${names})=(\\d{1,15}(?:\\.\\d{1,6})?)(?=$|[;,\\s])`,
  ).exec(value);
  return match ? Number(match[1]) : undefined;
}

/**
 * Milliseconds the service asks to wait: Retry-After (delay-seconds or an HTTP-date), else the
 * reset of the rate-limit window ({@link parseRateLimit}'s families). Undefined when none says
 * anything usable, so the caller falls back to backoff. A Retry-After repeated (`30, 30`) counts
 * when its values agree. A window's reset counts only when its remaining count is not above 0: every
 * answer carries the reset, and a 503 from a window with requests to spare is no reason to wait.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const retryAfter = single(headers.get(HEADER_RETRY_AFTER));
  if (retryAfter !== undefined) {
    const seconds = plainNumber(retryAfter);
    if (seconds !== undefined) return toMs(seconds);
    const date = /^[A-Za-z]{3},/.test(retryAfter) ? Date.parse(retryAfter) : Number.NaN;
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  const window = readWindow(headers, now);
  return window && !(window.remaining! > 0) ? Math.max(0, +window.reset - now) : undefined;
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
