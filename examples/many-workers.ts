/**
 * Many workers, one key: a worker of a bulk job that shares the key's rate limit with every
 * other worker through Redis (docs/many-workers.md). Start as many as you like, on as many
 * machines, against one Redis: together they send at the key's rate limit and meet no 429.
 *
 *   REDIS_URL=redis://localhost:6379 RECOGNITION_API_KEY=rk_test_… RECOGNITION_BASE_URL=https://… \
 *     npx tsx examples/many-workers.ts 250
 *
 * Against the mock (`npm run mock` prints its address and key), several at once:
 *   for i in 1 2 3 4; do REDIS_URL=… RECOGNITION_API_KEY=… RECOGNITION_BASE_URL=… npx tsx examples/many-workers.ts 50 & done; wait
 */
import { pathToFileURL } from 'node:url';
import { createClient } from 'redis';
import { Client, type ClientOptions } from '@employee-recognition/sdk';
import { RedisStore } from '@employee-recognition/sdk/redis';

/** What one worker did. */
export interface WorkerSummary {
  created: number;
  failed: number;
  ms: number;
}

/**
 * Thanks `recipientId` `count` times, all calls started at once: the client queues them and the
 * Redis store lets each go when the key's shared window has room. `options` are the client's
 * (apiKey, baseUrl …); `redisUrl` the Redis every worker uses.
 */
export async function runWorker(
  redisUrl: string,
  count: number,
  options: ClientOptions = {},
  recipientId?: string,
): Promise<WorkerSummary> {
  const redis = createClient({ url: redisUrl });
  // Without a listener node-redis ends the process when Redis goes away; the SDK paces locally
  // meanwhile and logs it once, so nothing else is needed here.
  redis.on('error', () => {});
  await redis.connect();
  try {
    const client = new Client({
      ...options,
      rateLimit: { store: new RedisStore({ client: redis }) },
    });
    const recipient = recipientId ?? (await client.users.list({ limit: 2 })).data[1]!.id;
    const started = Date.now();
    const outcomes = await Promise.allSettled(
      Array.from({ length: count }, (_, index) =>
        client.recognitions.create({
          recipient_id: recipient,
          message: `Thanks for the migration, part ${index + 1}!`,
        }),
      ),
    );
    const failed = outcomes.filter((outcome) => outcome.status === 'rejected').length;
    return { created: count - failed, failed, ms: Date.now() - started };
  } finally {
    await redis.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const count = Number(process.argv[2] ?? 100);
  const summary = await runWorker(process.env.REDIS_URL ?? 'redis://localhost:6379', count);
  console.log(
    `worker ${process.pid}: ${summary.created} created, ${summary.failed} failed, in ${(summary.ms / 1000).toFixed(1)} s`,
  );
}
