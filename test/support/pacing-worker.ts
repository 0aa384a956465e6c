/**
 * One worker of a bulk job that shares its key through Redis: started by `runPacingWorkers`
 * (pacing-workers.ts) as a process of its own with `node --import tsx`, as a customer's queue
 * consumers or replicas would run. It connects its own Redis client, waits for the parent's
 * "go" on stdin so every worker starts at once, creates its share of recognitions all at once,
 * and reports as one JSON line on stdout how the calls ended and what the service answered.
 *
 * Input (env PACING_WORKER, JSON): baseUrl, apiKey, redisUrl, library, prefix, calls, timeout.
 */
import { Client } from '@employee-recognition/sdk';
import { RedisStore } from '@employee-recognition/sdk/redis';
import { connectRedisClient, type RedisLibrary } from './redis.js';

interface WorkerInput {
  baseUrl: string;
  apiKey: string;
  recipientId: string;
  redisUrl: string;
  library: RedisLibrary;
  prefix: string;
  calls: number;
  /** The store's timeout in ms. */
  timeout: number;
}

const input = JSON.parse(process.env.PACING_WORKER ?? '{}') as WorkerInput;
const redis = await connectRedisClient(input.library, input.redisUrl);
const counts = { requests: 0, limited: 0 };
const warnings: string[] = [];
const client = new Client({
  apiKey: input.apiKey,
  baseUrl: input.baseUrl,
  logger: { debug() {}, info() {}, warn: (line) => warnings.push(line), error() {} },
  fetch: async (url, init) => {
    counts.requests++;
    const response = await fetch(url, init);
    if (response.status === 429) counts.limited++;
    return response;
  },
  rateLimit: {
    store: new RedisStore({ client: redis.client, prefix: input.prefix, timeout: input.timeout }),
  },
});

process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const outcomes = await Promise.allSettled(
  Array.from({ length: input.calls }, (_, index) =>
    client.recognitions.create({
      recipient_id: input.recipientId,
      message: `Thanks #${process.pid}-${index}`,
    }),
  ),
);
await redis.close();
process.stdout.write(
  `${JSON.stringify({
    library: input.library,
    succeeded: outcomes.filter((outcome) => outcome.status === 'fulfilled').length,
    failed: outcomes
      .filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected')
      .map((outcome) => String(outcome.reason)),
    ...counts,
    warnings,
  })}\n`,
);
process.exit(0);
