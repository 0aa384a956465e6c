import { afterAll, beforeAll, expect, it } from 'vitest';
import { runWorker } from '../../examples/many-workers.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { describeRedis, type RedisTarget, redisTarget } from '../support/redis.js';

describeRedis('examples/many-workers.ts', () => {
  let target: RedisTarget;
  let server: MockServer;
  beforeAll(async () => {
    target = await redisTarget();
    server = await startMockServer({ tier: 10, rateLimitWindowMs: 1000 });
  });
  afterAll(async () => {
    await server?.close();
    await target?.close();
  });

  it('three workers of one key create 24 recognitions through Redis with no failure', async () => {
    const before = server.api.store.recognitions.all().length;
    const summaries = await Promise.all(
      [0, 1, 2].map(() =>
        runWorker(target.url, 8, { apiKey: server.api.testKey, baseUrl: server.url }),
      ),
    );
    expect(summaries.map(({ created, failed }) => [created, failed])).toEqual([
      [8, 0],
      [8, 0],
      [8, 0],
    ]);
    expect(server.api.store.recognitions.all()).toHaveLength(before + 24);
  });
});
