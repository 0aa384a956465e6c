import {
  DEFAULT_BASE_URL,
  DEFAULT_RATE_LIMIT_TIER,
  HEADER_DEPRECATION,
  HEADER_LINK,
  HEADER_SUNSET,
  type OperationName,
  OPERATIONS,
  type RateLimitTier,
  WEBHOOK_DELIVERY_TIMEOUT_MS,
  WEBHOOK_RETRY_SCHEDULE_SECONDS,
} from '../contract.js';
import { normalizeBaseUrl } from '../core/config.js';
import type { MockKey } from './auth.js';
import { type MockDialect, type ResolvedDialect, resolveDialect } from './dialect.js';
import { type MockOAuthOptions, type ResolvedOAuthOptions, resolveOAuthOptions } from './oauth.js';
import { createRandom } from './random.js';
import type { WebhookFetch } from './webhook-delivery.js';

/** Options of `createMockApi`; every one has a default. */
export interface MockApiOptions {
  /** Where the MSW handlers intercept and relative `fetch` URLs point. Default the real service's. */
  baseUrl?: string | undefined;
  /** Seeds the data, the default key and event ids: the same seed gives the same mock. Default 1. */
  seed?: number | undefined;
  /** How many recognitions to seed. Default 300. */
  recognitions?: number | undefined;
  /**
   * The moment seeded data leads up to: recognitions lie in the 90 days before it. Default the
   * `now` clock's time when `now` is given, else 2026-11-21T09:30:00Z, so data never drifts.
   */
  referenceDate?: Date | string | number | undefined;
  /** The clock, in ms since the epoch, for timestamps, rate limits and idempotency. Default `Date.now`. */
  now?: (() => number) | undefined;
  /** The credentials the mock accepts. Default one key with every scope, `testKey`. */
  keys?: readonly MockKey[] | undefined;
  /**
   * The rate-limit tier of the default key: 10, 100 or 1000 requests per window. Default 100.
   * Keys given in `keys` carry their own `rateLimit`, so the two do not go together.
   */
  tier?: RateLimitTier | undefined;
  /** The rate-limit window in ms; a key's tier is its allowance per window. Default 60 000. */
  rateLimitWindowMs?: number | undefined;
  /** How deliveries reach receivers. Default the global `fetch` at the time of each delivery. */
  webhookFetch?: WebhookFetch | undefined;
  /** The waits between delivery attempts, in ms. Default the contract's schedule: 5 s, 5 min … 10 h. */
  webhookRetryDelaysMs?: readonly number[] | undefined;
  /** How long an attempt may take before it fails, in ms. Default 15 000. */
  webhookTimeoutMs?: number | undefined;
  /** The mock's authorization server: its address, clients and token lifetime. */
  oauth?: MockOAuthOptions | undefined;
  /**
   * Operations the mock marks deprecated, by name: every answer of theirs carries `Deprecation`,
   * `Sunset` and `Link` as the service would send them, so the client's warning shows in your
   * tests before the service sends it. `{ 'users.get': { sunsetAt: '2027-06-30' } }`, or `true`
   * for a deprecation as of the reference date with no sunset.
   */
  deprecations?: Readonly<Partial<Record<OperationName, MockDeprecation | true>>> | undefined;
  /**
   * The standard variants the mock speaks instead of the contract's forms: other rate-limit
   * headers, RFC 9457 errors, `Link` paging, a skewed clock, renamed record fields. Default
   * none: `{ errors: 'problem', pagination: 'link' }` changes those two and keeps the rest.
   */
  dialect?: MockDialect | undefined;
}

/** How the mock announces one operation's deprecation (RFC 9745, RFC 8594, RFC 8288). */
export interface MockDeprecation {
  /** When it was deprecated, sent as `Deprecation: @<seconds>`. Default the reference date. */
  deprecatedAt?: Date | string | number | undefined;
  /** When it stops answering, sent as `Sunset: <HTTP-date>`. Default none (no `Sunset`). */
  sunsetAt?: Date | string | number | undefined;
  /** The page about the deprecation, sent as `Link: <url>; rel="deprecation"`. */
  deprecationLink?: string | undefined;
  /** The sunset policy, sent as `Link: <url>; rel="sunset"`. */
  sunsetLink?: string | undefined;
}

/** The options with their defaults applied. */
export type ResolvedOptions = Required<
  Omit<MockApiOptions, 'referenceDate' | 'tier' | 'oauth' | 'deprecations' | 'dialect'>
> & {
  dialect: ResolvedDialect;
  referenceMs: number;
  oauth: ResolvedOAuthOptions;
  /** The headers of each deprecated operation's answers, by its `method path` template. */
  deprecations: ReadonlyMap<string, Record<string, string>>;
};

/** The data of a mock that is given no `referenceDate` and no clock leads up to this moment. */
export const DEFAULT_REFERENCE_DATE = '2026-11-21T09:30:00Z';
const DEFAULT_SEED = 1;
const DEFAULT_RECOGNITIONS = 300;
const DEFAULT_RATE_LIMIT_WINDOW_MS = 60_000;
const TIERS: readonly number[] = [10, 100, 1000] satisfies RateLimitTier[];
// A stream of its own, so the key does not change when the seeded data does.
const KEY_STREAM = 0x6b6579;

/** Applies the defaults; the only place they live. */
export function resolveOptions(options: MockApiOptions): ResolvedOptions {
  const seed = options.seed ?? DEFAULT_SEED;
  const recognitions = options.recognitions ?? DEFAULT_RECOGNITIONS;
  const rateLimitWindowMs = options.rateLimitWindowMs ?? DEFAULT_RATE_LIMIT_WINDOW_MS;
  const tier = options.tier ?? DEFAULT_RATE_LIMIT_TIER;
  if (!Number.isSafeInteger(seed)) throw new RangeError('seed must be a whole number');
  if (!Number.isSafeInteger(recognitions) || recognitions < 0) {
    throw new RangeError('recognitions must be a whole number, 0 or more');
  }
  if (!(rateLimitWindowMs > 0 && Number.isFinite(rateLimitWindowMs))) {
    throw new RangeError('rateLimitWindowMs must be a number of ms above 0');
  }
  if (!TIERS.includes(tier)) throw new RangeError(`tier must be one of ${TIERS.join(', ')}`);
  if (options.keys?.length === 0) throw new TypeError('keys must hold at least one credential');
  if (options.keys && options.tier !== undefined) {
    throw new TypeError('tier sets the default key; give each of keys its own rateLimit');
  }
  const reference = options.referenceDate ?? options.now?.() ?? DEFAULT_REFERENCE_DATE;
  const baseUrl = normalizeBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL);
  const referenceMs = new Date(reference).getTime();
  return {
    baseUrl,
    seed,
    recognitions,
    referenceMs,
    now: options.now ?? Date.now,
    keys: options.keys ?? [
      {
        key: `rk_test_${createRandom(seed ^ KEY_STREAM).alphanumeric(32)}`,
        scopes: '*',
        rateLimit: tier,
      },
    ],
    rateLimitWindowMs,
    webhookFetch: options.webhookFetch ?? ((url, init) => globalThis.fetch(url, init)),
    webhookRetryDelaysMs:
      options.webhookRetryDelaysMs ??
      WEBHOOK_RETRY_SCHEDULE_SECONDS.map((seconds) => seconds * 1000),
    webhookTimeoutMs: options.webhookTimeoutMs ?? WEBHOOK_DELIVERY_TIMEOUT_MS,
    oauth: resolveOAuthOptions(options.oauth, baseUrl, seed),
    deprecations: deprecationHeaders(options.deprecations ?? {}, referenceMs),
    dialect: resolveDialect(options.dialect),
  };
}

/** The headers each deprecated operation answers with, in the RFCs' forms, checked as given. */
function deprecationHeaders(
  deprecations: NonNullable<MockApiOptions['deprecations']>,
  referenceMs: number,
): Map<string, Record<string, string>> {
  const headers = new Map<string, Record<string, string>>();
  for (const [name, given] of Object.entries(deprecations)) {
    if (!Object.hasOwn(OPERATIONS, name)) {
      throw new TypeError(
        `deprecations: ${JSON.stringify(name)} is not an operation, such as users.get`,
      );
    }
    if (given === undefined) continue;
    const notice = given === true ? {} : given;
    const field = `deprecations[${JSON.stringify(name)}]`;
    const deprecatedAt = noticeDate(notice.deprecatedAt ?? referenceMs, `${field}.deprecatedAt`);
    const links = [
      noticeLink(notice.deprecationLink, 'deprecation', `${field}.deprecationLink`),
      noticeLink(notice.sunsetLink, 'sunset', `${field}.sunsetLink`),
    ].filter((link) => link !== undefined);
    headers.set(OPERATIONS[name as OperationName], {
      [HEADER_DEPRECATION]: `@${Math.floor(deprecatedAt.getTime() / 1000)}`,
      ...(notice.sunsetAt !== undefined && {
        [HEADER_SUNSET]: noticeDate(notice.sunsetAt, `${field}.sunsetAt`).toUTCString(),
      }),
      ...(links.length > 0 && { [HEADER_LINK]: links.join(', ') }),
    });
  }
  return headers;
}

// The years an HTTP-date writes, and that the client reads as a date (src/internal/deprecation.ts).
function noticeDate(value: Date | string | number, field: string): Date {
  const date = new Date(value);
  const year = date.getUTCFullYear();
  if (!(year >= 1990 && year <= 9999)) {
    throw new RangeError(`${field} must be a date from 1990 to 9999, not ${String(value)}`);
  }
  return date;
}

function noticeLink(link: string | undefined, rel: string, field: string): string | undefined {
  if (link === undefined) return undefined;
  const url = URL.canParse(link) ? new URL(link) : undefined;
  if (url?.protocol !== 'https:' && url?.protocol !== 'http:') {
    throw new TypeError(`${field} must be an http(s) URL, not ${JSON.stringify(link)}`);
  }
  return `<${url.href}>; rel="${rel}"`;
}
