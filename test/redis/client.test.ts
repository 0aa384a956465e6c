import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  defineScript,
  redisAdapter,
  type RedisClientLike,
  RedisUnavailableError,
} from '../../src/redis/client.js';
import {
  connectRedisClient,
  describeRedis,
  REDIS_LIBRARIES,
  type RedisTarget,
  redisTarget,
  type TestRedisClient,
} from '../support/redis.js';

// Increments a counter and answers its new value with the server's time: proof that it ran, once.
const COUNT = defineScript(`
redis.call('INCR', KEYS[1])
return { tonumber(redis.call('GET', KEYS[1])), ARGV[1] }
`);
// Holds the server for ARGV[1] ms: a slow Redis, as a script can make one.
const BUSY = defineScript(`
local function ms() local t = redis.call('TIME') return t[1] * 1000 + math.floor(t[2] / 1000) end
local stop = ms() + tonumber(ARGV[1])
while ms() < stop do end
return 1
`);

describe('defineScript', () => {
  it('computes the SHA-1 EVALSHA names the script by', () => {
    // SHA-1 of "return 1", as `redis-cli SCRIPT LOAD "return 1"` prints it.
    expect(defineScript('return 1').sha1).toBe('e0e1f9fabfc9d4800c877a703b823ac0578ff8db');
  });
});

describe('redisAdapter', () => {
  it('refuses an object that is neither client, naming what it looks for', () => {
    expect(() => redisAdapter({} as RedisClientLike)).toThrow(/node-redis 4–6.*ioredis 5–6/);
  });
});

describeRedis('redisAdapter against a real Redis', () => {
  let target: RedisTarget;
  let prefix = 0;
  const key = () => `test:adapter:${process.pid}:${++prefix}`;
  beforeAll(async () => {
    target = await redisTarget();
  });
  afterAll(() => target?.close());

  describe.each(REDIS_LIBRARIES)('%s', (library) => {
    let redis: TestRedisClient;
    beforeAll(async () => {
      redis = await connectRedisClient(library, target.url);
    });
    afterAll(() => redis?.close());

    it('says the client is ready once connected', () => {
      expect(redisAdapter(redis.client).ready).toBe(true);
    });

    it('runs a script by EVALSHA, and by EVAL once the server has forgotten it', async () => {
      const adapter = redisAdapter(redis.client);
      const counter = key();
      await redis.command('SCRIPT', 'FLUSH');
      // Unknown to the server: NOSCRIPT, then EVAL, which also loads it.
      expect(await adapter.run(COUNT, [counter], ['a'], 1000)).toEqual([1, 'a']);
      expect(await redis.command('SCRIPT', 'EXISTS', COUNT.sha1)).toEqual([1]);
      // Known now: EVALSHA alone, numbers sent as strings.
      expect(await adapter.run(COUNT, [counter], [7], 1000)).toEqual([2, '7']);
      expect(await redis.command('GET', counter)).toBe('2');
    });

    it('rejects with RedisUnavailableError when the server answers later than the timeout', async () => {
      const adapter = redisAdapter(redis.client);
      const slow = adapter.run(BUSY, [key()], [300], 20);
      await expect(slow).rejects.toThrow(RedisUnavailableError);
      await expect(slow).rejects.toThrow('Redis did not answer within 20 ms');
      // The late answer is dropped quietly; the client still works after it.
      expect(await adapter.run(COUNT, [key()], ['after'], 2000)).toEqual([1, 'after']);
    });

    it('sends a forgotten script whole even after the caller gave up: it still runs, its answer heard as late', async () => {
      const adapter = redisAdapter(redis.client);
      const counter = key();
      await redis.command('SCRIPT', 'FLUSH');
      // Redis busy for 300 ms: NOSCRIPT comes long after the 20 ms the caller waits.
      const busy = redis.command('EVAL', BUSY.lua, '0', '300');
      const heard: [unknown, boolean][] = [];
      const slow = adapter.run(COUNT, [counter], ['late'], 20, (answer, _, late) =>
        heard.push([answer, late]),
      );
      await expect(slow).rejects.toThrow('Redis did not answer within 20 ms');
      await busy;
      await expect.poll(() => heard).toEqual([[[1, 'late'], true]]);
      // A script that frees a place frees it, whoever still waits for its answer.
      expect(await redis.command('GET', counter)).toBe('1');
    });

    it("rejects with the server's error as RedisUnavailableError, its first line only", async () => {
      const adapter = redisAdapter(redis.client);
      const failing = defineScript("return redis.call('NOT-A-COMMAND')");
      const error = await adapter.run(failing, [key()], [], 1000).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedisUnavailableError);
      expect((error as Error).message).toMatch(
        /^Redis failed: .*(Unknown|unknown) (Redis )?command/,
      );
    });
  });
});

describeRedis(
  'redisAdapter when the server stops',
  () => {
    let target: RedisTarget;
    const clients: TestRedisClient[] = [];
    beforeAll(async () => {
      target = await redisTarget();
      for (const library of REDIS_LIBRARIES) {
        clients.push(await connectRedisClient(library, target.url));
      }
    });
    afterAll(async () => {
      for (const client of clients) await client.close();
      await target?.close();
    });
    afterEach(async () => {
      await target.server!.start();
    });

    it('is not ready, asks nothing while the server is down, and runs nothing late on reconnect', async () => {
      const counter = 'test:adapter:late';
      await target.server!.stop();
      for (const { client, library } of clients) {
        const adapter = redisAdapter(client);
        await expect.poll(() => adapter.ready, { message: library }).toBe(false);
        await expect(adapter.run(COUNT, [counter], ['x'], 1000)).rejects.toThrow(
          'the Redis client is not ready',
        );
      }
      await target.server!.start();
      for (const { client, library } of clients) {
        const adapter = redisAdapter(client);
        await expect.poll(() => adapter.ready, { message: library, timeout: 10_000 }).toBe(true);
      }
      // A fresh server: had a command been queued while it was down, the counter would exist.
      expect(await clients[0]!.command('EXISTS', counter)).toBe(0);
      for (const { client } of clients) {
        // The restarted server knows no script: EVALSHA's NOSCRIPT, then EVAL.
        expect(await redisAdapter(client).run(COUNT, [counter], ['y'], 1000)).toMatchObject([
          expect.any(Number),
          'y',
        ]);
      }
      expect(await clients[0]!.command('GET', counter)).toBe(String(clients.length));
    });
  },
  { ownServer: true },
);
