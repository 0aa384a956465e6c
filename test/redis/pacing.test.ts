import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  ConfigurationError,
  definePacingStore,
  type Logger,
} from '@employee-recognition/sdk';
import { RedisStore } from '@employee-recognition/sdk/redis';
import { type MockServer, startMockServer } from '@employee-recognition/sdk/testing';
import {
  connectRedisClient,
  describeRedis,
  REDIS_LIBRARIES,
  type RedisTarget,
  redisTarget,
  type TestRedisClient,
} from '../support/redis.js';

const TIER = 10;
const WINDOW_MS = 1000;

/** A logger that keeps its lines, by level. */
function keptLog() {
  const lines: { level: keyof Logger; message: string }[] = [];
  const logger: Logger = {
    debug: () => {},
    info: (message) => lines.push({ level: 'info', message }),
    warn: (message) => lines.push({ level: 'warn', message }),
    error: (message) => lines.push({ level: 'error', message }),
  };
  return { logger, lines, warnings: () => lines.filter((line) => line.level === 'warn') };
}

/** A fetch that counts answers by status. */
function countingFetch() {
  const counts = { requests: 0, limited: 0 };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    counts.requests++;
    const response = await globalThis.fetch(input, init);
    if (response.status === 429) counts.limited++;
    return response;
  };
  return { counts, fetch };
}

/** Every key under `prefix` with its type, time to live and whole value. */
async function dump(redis: TestRedisClient, prefix: string) {
  const entries: { key: string; type: string; pttl: number; value: unknown }[] = [];
  let cursor = '0';
  do {
    const [next, keys] = (await redis.command(
      'SCAN',
      cursor,
      'MATCH',
      `${prefix}*`,
      'COUNT',
      '1000',
    )) as [string, string[]];
    cursor = next;
    for (const key of keys) {
      const type = String(await redis.command('TYPE', key));
      const pttl = Number(await redis.command('PTTL', key));
      const value =
        type === 'hash'
          ? await redis.command('HGETALL', key)
          : type === 'zset'
            ? await redis.command('ZRANGE', key, '0', '-1', 'WITHSCORES')
            : await redis.command('DUMP', key);
      entries.push({ key, type, pttl, value });
    }
  } while (cursor !== '0');
  return entries.sort((a, b) => a.key.localeCompare(b.key));
}

let prefixes = 0;
const uniquePrefix = () => `test:pacing:${process.pid}:${++prefixes}:`;

describe('rateLimit: { store } options', () => {
  const store = definePacingStore({ reserve: async () => 0, release: async () => {} });

  it('names rateLimit.key when a credential function has neither clientId nor key', () => {
    const error = (() => {
      try {
        new Client({ apiKey: async () => 'token-abcdefgh', rateLimit: { store } });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).option).toBe('rateLimit.key');
    expect((error as Error).message).toContain('rateLimit.key');
  });

  it('accepts a credential function with a clientId, or any credential with rateLimit.key', () => {
    const tokens = Object.assign(async () => 'token-abcdefgh', { clientId: 'rc_client' });
    expect(() => new Client({ apiKey: tokens, rateLimit: { store } })).not.toThrow();
    expect(
      () => new Client({ apiKey: async () => 'token-abcdefgh', rateLimit: { store, key: 'jobs' } }),
    ).not.toThrow();
  });

  it('refuses a store not made by definePacingStore or RedisStore, and an empty key, naming the option', () => {
    expect(
      () =>
        new Client({
          apiKey: 'rk_test_abcdefghijklmnopqrstuvwx',
          rateLimit: { store: {} as never },
        }),
    ).toThrow(expect.objectContaining({ option: 'rateLimit.store' }));
    expect(
      () =>
        new Client({ apiKey: 'rk_test_abcdefghijklmnopqrstuvwx', rateLimit: { store, key: ' ' } }),
    ).toThrow(expect.objectContaining({ option: 'rateLimit.key' }));
  });

  it('refuses a RedisStore without a Redis client, naming the option', () => {
    expect(() => new RedisStore({ client: {} as never })).toThrow(
      expect.objectContaining({ option: 'client' }),
    );
    expect(
      () => new RedisStore({ client: { status: 'ready', evalsha() {} } as never, prefix: 'a{b}' }),
    ).toThrow(expect.objectContaining({ option: 'prefix' }));
  });
});

describeRedis('RedisStore against a real Redis and the mock server', () => {
  let target: RedisTarget;
  let mock: MockServer;
  beforeAll(async () => {
    target = await redisTarget();
  });
  afterAll(() => target?.close());
  afterEach(async () => {
    await mock?.close();
  });

  describe.each(REDIS_LIBRARIES)('%s', (library) => {
    const redis: TestRedisClient[] = [];
    beforeAll(async () => {
      // One connection per client: as separate workers would have.
      for (let index = 0; index < 3; index++) {
        redis.push(await connectRedisClient(library, target.url));
      }
    });
    afterAll(async () => {
      for (const client of redis) await client.close();
    });

    it('three clients of one key spend its windows together: no 429, no failure', async () => {
      mock = await startMockServer({ tier: TIER, rateLimitWindowMs: WINDOW_MS });
      const prefix = uniquePrefix();
      const { counts, fetch } = countingFetch();
      const log = keptLog();
      const clients = redis.map(
        ({ client }) =>
          new Client({
            apiKey: mock.api.testKey,
            baseUrl: mock.url,
            fetch,
            logger: log.logger,
            // A loaded test machine can stall an event loop past the 50 ms default, and the
            // fallback it triggers has tests of its own: here every question gets its answer.
            rateLimit: { store: new RedisStore({ client, prefix, timeout: 5000 }) },
          }),
      );
      const calls = 3 * TIER + 5;
      const outcomes = await Promise.allSettled(
        Array.from({ length: calls }, (_, index) => clients[index % 3]!.get('/v1/users')),
      );
      expect(log.warnings()).toEqual([]);
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      expect(counts).toEqual({ requests: calls, limited: 0 });
    });

    it('keeps two keys per key and service, named by a hash, expiring by themselves, without the credential', async () => {
      mock = await startMockServer({ tier: TIER, rateLimitWindowMs: WINDOW_MS });
      const prefix = uniquePrefix();
      const client = new Client({
        apiKey: mock.api.testKey,
        baseUrl: mock.url,
        rateLimit: { store: new RedisStore({ client: redis[0]!.client, prefix }) },
      });
      await Promise.all(Array.from({ length: 3 }, () => client.get('/v1/users')));
      const entries = await dump(redis[0]!, prefix);
      const hash = createHash('sha256')
        .update(`${mock.url}\napi-key:${mock.api.testKey}`)
        .digest('hex')
        .slice(0, 32);
      expect(entries.map(({ key, type }) => [key, type])).toEqual(
        [
          [`${prefix}{${hash}}:in-flight`, 'zset'],
          [`${prefix}{${hash}}:window`, 'hash'],
        ].filter(([key]) => key!.endsWith(':window') || entries.some((entry) => entry.key === key)),
      );
      const window = entries.find((entry) => entry.key.endsWith(':window'))!;
      const fields = Object.fromEntries(
        Array.isArray(window.value)
          ? (window.value as string[]).flatMap((v, i, all) => (i % 2 ? [] : [[v, all[i + 1]]]))
          : Object.entries(window.value as Record<string, string>),
      ) as Record<string, string>;
      expect(fields.limit).toBe(String(TIER));
      expect(fields.remaining).toBe(String(TIER - 3));
      const resetIn = Number(fields.reset) - Date.now();
      // The window key lives until a minute past the reset, no longer.
      expect(window.pttl).toBeGreaterThan(0);
      expect(window.pttl).toBeLessThanOrEqual(resetIn + 60_000 + 1000);
      for (const entry of entries) {
        expect(entry.pttl).toBeGreaterThan(0);
        const text = `${entry.key} ${JSON.stringify(entry.value)}`;
        expect(text).not.toContain(mock.api.testKey);
        expect(text).not.toContain(mock.api.testKey.slice(8));
      }
    });
  });
});
