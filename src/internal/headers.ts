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

// Later than any real reset (year 2286): a reset beyond it is garbage, not a time.
const MAX_RESET_SECONDS = 1e10;
// Earlier than any window still open (2001-09-09): an X-RateLimit-Reset below it is seconds from
// now, as GitHub-style and IETF-style servers both send under that name.
const MIN_UNIX_RESET_SECONDS = 1e9;

/**
 * The rate-limit window an answer describes, from the first family present of: X-RateLimit-Limit,
 * -Remaining and -Reset (Unix seconds, or seconds from `now` when below 10^9); the IETF draft's
 * RateLimit-Limit, -Remaining and -Reset (seconds from `now`); its structured `RateLimit` field,
 * `"policy";r=…;t=…` with the limit from `RateLimit-Policy`'s `q` (or the older `limit=…,
 * remaining=…, reset=…`). Undefined when no family gives a plain limit, remaining and reset. A
 * reset counted from now is rounded up to the second, so answers of one window agree on it.
 */
export function parseRateLimit(headers: Headers, now = Date.now()): RateLimitInfo | undefined {
  const x = window(
    headers.get(HEADER_RATE_LIMIT_LIMIT),
    headers.get(HEADER_RATE_LIMIT_REMAINING),
    headers.get(HEADER_RATE_LIMIT_RESET),
  );
  if (x) return info(x, x[2] < MIN_UNIX_RESET_SECONDS, now, 'x-ratelimit');
  const fields = window(
    headers.get('ratelimit-limit'),
    headers.get('ratelimit-remaining'),
    headers.get('ratelimit-reset'),
  );
  if (fields) return info(fields, true, now, 'ratelimit');
  const structured = structuredWindow(headers);
  return structured && info(structured, true, now, 'ratelimit-structured');
}

/** Limit, remaining and reset as plain numbers; a field's first list member counts (`100, 100;w=60`). */
function window(...values: (string | null | undefined)[]): [number, number, number] | undefined {
  const numbers = values.map((value) => plainNumber(value?.slice(0, 1024).split(/[,;]/)[0]));
  const [limit, remaining, reset] = numbers;
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  return reset > MAX_RESET_SECONDS ? undefined : [limit, remaining, reset];
}

function info(
  [limit, remaining, reset]: [number, number, number],
  fromNow: boolean,
  now: number,
  family: RateLimitFamily,
): RateLimitInfo {
  const at = fromNow ? Math.ceil(now / 1000 + reset) * 1000 : reset * 1000;
  return { limit, remaining, reset: new Date(at), family };
}

/**
 * The window of the structured `RateLimit` field (draft-ietf-httpapi-ratelimit-headers): of its
 * policies, the one with the fewest requests left, its limit the `q` of the `RateLimit-Policy`
 * member of the same name (or of the only one, or that member's bare number); or the older
 * dictionary `limit=…, remaining=…, reset=…`.
 */
function structuredWindow(headers: Headers): [number, number, number] | undefined {
  const members = structuredMembers(headers.get('ratelimit'));
  const dictionary = new Map(members.map((member) => [member.name, member.value]));
  const old = window(dictionary.get('limit'), dictionary.get('remaining'), dictionary.get('reset'));
  if (old) return old;
  const policies = structuredMembers(headers.get('ratelimit-policy'));
  let best: [number, number, number] | undefined;
  for (const member of members) {
    const policy =
      policies.find((candidate) => candidate.name === member.name) ??
      (policies.length === 1 ? policies[0] : undefined);
    // draft-08 on: `"name";q=100;w=60`; before it, the bare limit: `100;w=60`.
    const limit = policy?.params.get('q') ?? policy?.name;
    const found = window(limit, member.params.get('r'), member.params.get('t'));
    if (found && (best === undefined || found[1] < best[1])) best = found;
  }
  return best;
}

interface StructuredMember {
  /** The item (a string or token) or the dictionary key. */
  name: string;
  /** A dictionary member's value. */
  value: string | undefined;
  params: Map<string, string>;
}

/**
 * The members of a structured field list or dictionary (RFC 9651), read loosely in one pass over
 * the value's first kilobyte, 16 members at most: `"name";a=1;b=2, key=value;c=3`. Quotes are
 * dropped from names and values; a comma or semicolon inside quotes does not split.
 */
function structuredMembers(value: string | null): StructuredMember[] {
  const members: StructuredMember[] = [];
  if (value === null) return members;
  const parts: string[][] = [[]];
  let current = '';
  let quoted = false;
  for (const char of value.slice(0, 1024)) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === ';' || char === ',')) {
      parts.at(-1)!.push(current.trim());
      current = '';
      if (char === ',') parts.push([]);
    } else current += char;
  }
  parts.at(-1)!.push(current.trim());
  for (const [head = '', ...rest] of parts.slice(0, 16)) {
    const [name = '', value] = head.split('=', 2);
    const params = new Map(
      rest.map((param) => param.split('=', 2) as [string, string]).filter(([, v]) => v),
    );
    members.push({ name: name.toLowerCase(), value, params });
  }
  return members;
}

/**
 * Milliseconds the service asks to wait: Retry-After (delay-seconds or an HTTP-date), else
 * X-RateLimit-Reset (Unix seconds, or seconds from now below 10^9), else the IETF `RateLimit-Reset` / `RateLimit: …;t=` (delta
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
    return reset < MIN_UNIX_RESET_SECONDS ? toMs(reset) : Math.max(0, reset * 1000 - now);
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
