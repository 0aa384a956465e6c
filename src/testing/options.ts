import {
  DEFAULT_BASE_URL,
  DEFAULT_RATE_LIMIT_TIER,
  type RateLimitTier,
  WEBHOOK_DELIVERY_TIMEOUT_MS,
  WEBHOOK_RETRY_SCHEDULE_SECONDS,
} from '../contract.js';
import { normalizeBaseUrl } from '../core/config.js';
import type { MockKey } from './auth.js';
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
}

/** The options with their defaults applied. */
export type ResolvedOptions = Required<Omit<MockApiOptions, 'referenceDate' | 'tier' | 'oauth'>> & {
  referenceMs: number;
  oauth: ResolvedOAuthOptions;
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
  return {
    baseUrl,
    seed,
    recognitions,
    referenceMs: new Date(reference).getTime(),
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
  };
}
