/**
 * `@employee-recognition/sdk/redis`: rate-limit pacing shared through the app's own Redis, for
 * every worker process and machine that uses one key (docs/many-workers.md), and the webhook
 * receiver's de-duplication shared the same way (`RedisDedupeStore`, docs/webhooks.md).
 *
 * ```ts
 * import { createClient } from 'redis';
 * import { Client } from '@employee-recognition/sdk';
 * import { RedisStore } from '@employee-recognition/sdk/redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const client = new Client({ rateLimit: { store: new RedisStore({ client: redis }) } });
 * ```
 *
 * @packageDocumentation
 */

export type { PacingStore, PacingWindow, SharedRateLimit } from '../core/config.js';
export type { IoRedisClientLike, NodeRedisClientLike, RedisClientLike } from './client.js';
export { REDIS_DEDUPE_DEFAULTS, RedisDedupeStore, type RedisDedupeStoreOptions } from './dedupe.js';
export { REDIS_STORE_DEFAULTS, RedisStore, type RedisStoreOptions } from './pacing.js';
