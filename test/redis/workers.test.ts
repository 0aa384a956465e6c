/**
 * Worker processes (2, 4 and 8), each with its own Redis client, share one key through Redis.
 *
 * Time: one of the suite's slowest files (57 s of a full run on two shared cores; 34 s of it the
 * 8 processes): each worker is a Node process that loads the SDK and a Redis client, and the
 * job of 24 calls crosses windows of 10 a second on the mock's clock and Redis's, which are real.
 * Processes are what customers run, and what a single-process test cannot stand for.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '@employee-recognition/sdk/testing';
import { runPacingWorkers } from '../support/pacing-workers.js';
import { describeRedis, type RedisTarget, redisTarget } from '../support/redis.js';

const TIER = 10;
const WINDOW_MS = 1000;
const CALLS = 24;

describeRedis('worker processes sharing one key through Redis', () => {
  let target: RedisTarget;
  let mock: MockServer | undefined;
  beforeAll(async () => {
    target = await redisTarget();
  });
  afterAll(async () => {
    await mock?.close();
    await target?.close();
  });

  it.each([2, 4, 8])(
    '%i processes, each with its own Redis client, finish the job with no failure and no 429',
    async (workers) => {
      await mock?.close();
      mock = await startMockServer({ tier: TIER, rateLimitWindowMs: WINDOW_MS });
      const reports = await runPacingWorkers({
        workers,
        baseUrl: mock.url,
        apiKey: mock.api.testKey,
        recipientId: mock.api.store.users.all()[1]!.id,
        redisUrl: target.url,
        prefix: `test:workers:${process.pid}:${workers}:`,
        calls: CALLS / workers,
        // A loaded machine can stall a worker's event loop past the 50 ms default; the fallback
        // that triggers is tested on its own (pacing.test.ts), here every question gets its answer.
        timeout: 5000,
      });
      expect(reports.flatMap((report) => report.failed)).toEqual([]);
      expect(reports.flatMap((report) => report.warnings)).toEqual([]);
      expect(reports.reduce((sum, report) => sum + report.succeeded, 0)).toBe(CALLS);
      expect(reports.reduce((sum, report) => sum + report.limited, 0)).toBe(0);
      expect(reports.reduce((sum, report) => sum + report.requests, 0)).toBe(CALLS);
    },
    120_000,
  );
});
