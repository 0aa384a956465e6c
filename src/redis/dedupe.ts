/**
 * The Redis de-duplication store of the webhook receiver:
 * `createWebhookReceiver({ dedupe: new RedisDedupeStore({ client }) })`. Every process and
 * machine that receives one endpoint's deliveries claims their ids in one Redis, atomically, on
 * Redis's clock: `SET NX PX` for the lease, `SET PX` as handled once the handlers succeeded.
 */
import { ConfigurationError } from '../core/config.js';
import type { WebhookClaim, WebhookDedupeStore } from '../webhooks/dedupe.js';
import { defineScript, redisAdapter, type RedisAdapter, type RedisClientLike } from './client.js';

/** Options of {@link RedisDedupeStore}. */
export interface RedisDedupeStoreOptions {
  /** The app's own connected client: node-redis 4–6 (`createClient()`) or ioredis 5–6 (`new Redis()`). */
  client: RedisClientLike;
  /** The start of every key's name, to keep apart apps that share a Redis. Default `employee-recognition:webhook:`. */
  prefix?: string | undefined;
  /**
   * Milliseconds to wait for Redis. Past it, or when Redis fails, the receiver handles the
   * delivery as one not seen before (at least once, never lost) and logs that once. Default 1000.
   */
  timeout?: number | undefined;
}

/** Defaults of {@link RedisDedupeStoreOptions}. */
export const REDIS_DEDUPE_DEFAULTS = {
  /** The start of every key's name; the `webhook-id` follows. */
  prefix: 'employee-recognition:webhook:',
  /** Milliseconds to wait for Redis before handling the delivery as one not seen. */
  timeout: 1000,
} as const;

// An id's value: the token of the attempt that holds its lease, or 'handled' once handled (the
// scripts write that word literally, so that an app that does not use this store bundles none of
// them). Tokens are UUIDs, so neither is ever taken for the other.

/** Claim: KEYS[1] the id's key; ARGV[1] the token, ARGV[2] the lease in ms. */
const CLAIM = /* @__PURE__ */ defineScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 'claimed' end
if redis.call('GET', KEYS[1]) == 'handled' then return 'handled' end
return 'in_progress'
`);

/**
 * Complete: KEYS[1]; ARGV[1] the token, ARGV[2] the retention in ms. Marked handled, with the
 * retention as its new expiry, while the token holds the id or nobody does (its lease ran out
 * unclaimed); a newer holder keeps its claim.
 */
const COMPLETE = /* @__PURE__ */ defineScript(`
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] or holder == 'handled' then
  redis.call('SET', KEYS[1], 'handled', 'PX', ARGV[2])
end
return 1
`);

/** Release: KEYS[1]; ARGV[1] the token. Frees the id while the token still holds it. */
const RELEASE = /* @__PURE__ */ defineScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`);

const CLAIMS: readonly unknown[] = ['claimed', 'in_progress', 'handled'];

/**
 * A {@link WebhookDedupeStore} in the app's Redis, shared by every process and machine that
 * receives one endpoint's deliveries. Keys hold the `webhook-id` after the prefix, never a secret.
 *
 * @example
 * ```ts
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const receiver = createWebhookReceiver({ dedupe: new RedisDedupeStore({ client: redis }) });
 * ```
 */
export class RedisDedupeStore implements WebhookDedupeStore {
  readonly #redis: RedisAdapter;
  readonly #prefix: string;
  readonly #timeout: number;

  /** @throws ConfigurationError when `client` is not a node-redis or ioredis client, or an option is invalid. */
  constructor(options: RedisDedupeStoreOptions) {
    const { prefix = REDIS_DEDUPE_DEFAULTS.prefix, timeout = REDIS_DEDUPE_DEFAULTS.timeout } =
      options ?? {};
    try {
      this.#redis = redisAdapter(options?.client);
    } catch (error) {
      throw new ConfigurationError('client', (error as Error).message);
    }
    if (typeof prefix !== 'string') {
      throw new ConfigurationError('prefix', '`prefix` must be a string.');
    }
    if (!(Number.isFinite(timeout) && timeout > 0)) {
      throw new ConfigurationError(
        'timeout',
        '`timeout` must be a number of milliseconds above 0.',
      );
    }
    this.#prefix = prefix;
    this.#timeout = timeout;
  }

  async claim(id: string, token: string, leaseMs: number): Promise<WebhookClaim> {
    const claim = await this.#run(CLAIM, id, [token, Math.ceil(leaseMs)]);
    // An answer the script never gives (a proxy, a stub): the receiver handles the delivery.
    if (!CLAIMS.includes(claim)) throw new Error(`Redis answered the claim with ${String(claim)}`);
    return claim as WebhookClaim;
  }

  async complete(id: string, token: string, retentionMs: number): Promise<void> {
    await this.#run(COMPLETE, id, [token, Math.ceil(retentionMs)]);
  }

  async release(id: string, token: string): Promise<void> {
    await this.#run(RELEASE, id, [token]);
  }

  #run(script: typeof CLAIM, id: string, args: Array<string | number>): Promise<unknown> {
    return this.#redis.run(script, [this.#prefix + id], args, this.#timeout);
  }
}
