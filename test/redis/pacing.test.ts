/**
 * RedisStore against a real redis-server: keys, pacing shared by clients of one key, and what
 * no call may suffer when Redis stops, is flushed, holds garbage or answers slowly.
 *
 * Time: the suite's slowest file (96 s of a full run on two shared cores, 1,083 s in all): most
 * tests run a job of 40 calls through a window of 10 a second, so each crosses four windows of
 * the mock's clock and Redis's, which are real (Redis reads its own). What depends on the
 * client's clock or on how long Redis takes runs on fake timers with Redis held by CLIENT PAUSE.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  Client,
  ConfigurationError,
  definePacingStore,
  type Logger,
} from '@employee-recognition/sdk';
import { RedisStore } from '@employee-recognition/sdk/redis';
import { redisAdapter } from '../../src/redis/client.js';
import { type MockServer, startMockServer } from '@employee-recognition/sdk/testing';
import {
  connectRedisClient,
  describeRedis,
  REDIS_LIBRARIES,
  type RedisLibrary,
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

/** Values in the store's keys that the SDK never writes, as commands that write them. */
const GARBAGE: [string, (key: string) => string[]][] = [
  ['a string in the window key', (key) => ['SET', `${key}:window`, 'garbage']],
  [
    'an infinite reset',
    (key) => ['HSET', `${key}:window`, 'limit', '10', 'remaining', '5', 'reset', 'inf'],
  ],
  [
    'a negative remaining',
    (key) => ['HSET', `${key}:window`, 'limit', '10', 'remaining', '-3', 'reset', '1'],
  ],
  [
    'a limit of NaN',
    (key) => ['HSET', `${key}:window`, 'limit', 'nan', 'remaining', '3', 'reset', '1'],
  ],
  [
    'a hash as the in-flight key',
    // Replaced in one step: the key may hold the store's own set at the time.
    (key) => [
      'EVAL',
      "redis.call('DEL', KEYS[1]) return redis.call('HSET', KEYS[1], 'a', 'b')",
      '1',
      `${key}:in-flight`,
    ],
  ],
];

/** The start of the store's two keys for the mock's test key: `prefix`, then the hash tag. */
function keyTag(mock: MockServer, prefix: string) {
  const hash = createHash('sha256')
    .update(`${mock.url}\napi-key:${mock.api.testKey}`)
    .digest('hex');
  return `${prefix}{${hash.slice(0, 32)}}`;
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

    it.each([
      ['partly spent by a process that has ended', 12, 10],
      ['spent earlier, with enough left', 90, 8],
    ])(
      'a worker that joins a window %s sends at once: no wait, no 429',
      async (_, spent, calls) => {
        mock = await startMockServer({ tier: 100, rateLimitWindowMs: 60_000 });
        const prefix = uniquePrefix();
        // A worker of the store spends the window, and stops.
        const earlier = new Client({
          apiKey: mock.api.testKey,
          baseUrl: mock.url,
          rateLimit: { store: new RedisStore({ client: redis[1]!.client, prefix, timeout: 5000 }) },
        });
        for (let index = 0; index < spent; index++) await earlier.get('/v1/users');
        const { counts, fetch } = countingFetch();
        const log = keptLog();
        const waits: string[] = [];
        const late = new Client({
          apiKey: mock.api.testKey,
          baseUrl: mock.url,
          fetch,
          logger: log.logger,
          logLevel: 'info',
          instrumentation: {
            call: () => ({
              wait: (kind, ms, cause) => void waits.push(`${kind} ${ms} ${cause}`),
              attempt: () => undefined,
              end: () => {},
            }),
          },
          rateLimit: { store: new RedisStore({ client: redis[2]!.client, prefix, timeout: 5000 }) },
        });
        for (let index = 0; index < calls; index++) await late.get('/v1/users');
        expect(waits).toEqual([]);
        expect(log.lines).toEqual([]);
        expect(counts).toEqual({ requests: calls, limited: 0 });
      },
    );

    it('keeps two keys per key and service, named by a hash, expiring by themselves, without the credential', async () => {
      mock = await startMockServer({ tier: TIER, rateLimitWindowMs: WINDOW_MS });
      const prefix = uniquePrefix();
      const client = new Client({
        apiKey: mock.api.testKey,
        baseUrl: mock.url,
        rateLimit: { store: new RedisStore({ client: redis[0]!.client, prefix }) },
      });
      await Promise.all(Array.from({ length: 3 }, () => client.get('/v1/users')));
      // Redis reads its clock (this machine's) after this: the key's time to live can only be
      // shorter than from here, however long the dump takes.
      const beforeDump = Date.now();
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
      const resetIn = Number(fields.reset) - beforeDump;
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

describeRedis(
  'RedisStore when Redis fails: no call fails, the client paces locally and comes back',
  () => {
    let target: RedisTarget;
    let mock: MockServer;
    let inspector: TestRedisClient;
    beforeAll(async () => {
      target = await redisTarget();
      inspector = await connectRedisClient('node-redis 6', target.url);
    });
    afterAll(async () => {
      await inspector?.close();
      await target?.close();
    });
    afterEach(async () => {
      await mock?.close();
      await target.server!.start();
      await expect.poll(() => inspector.command('PING').catch(() => 'down')).toBe('PONG');
      // A test that failed while holding Redis does not hold the next one.
      await inspector.command('CLIENT', 'UNPAUSE');
    });

    /**
     * 40 calls from three clients of one key, each with its own connection of `library`; `fault`
     * runs once, when the service has answered `after` requests, and the job goes on.
     */
    async function jobWithFault(
      library: RedisLibrary,
      after: number,
      fault: (context: {
        prefix: string;
        key: string;
        log: ReturnType<typeof keptLog>;
        /** How many requests the service has answered so far. */
        answered: () => number;
      }) => Promise<void>,
      afterJob?: (context: {
        clients: Client[];
        connections: TestRedisClient[];
        prefix: string;
      }) => Promise<void>,
    ) {
      mock = await startMockServer({ tier: TIER, rateLimitWindowMs: WINDOW_MS });
      const prefix = uniquePrefix();
      const key = keyTag(mock, prefix);
      const connections = await Promise.all(
        [0, 1, 2].map(() => connectRedisClient(library, target.url)),
      );
      const { counts, fetch } = countingFetch();
      let faulted: Promise<void> | undefined;
      let answered = 0;
      const log = keptLog();
      const clients = connections.map(
        ({ client }) =>
          new Client({
            apiKey: mock.api.testKey,
            baseUrl: mock.url,
            logger: log.logger,
            fetch: async (input, init) => {
              const response = await fetch(input, init);
              if (++answered === after) {
                faulted = fault({ prefix, key, log, answered: () => answered });
              }
              return response;
            },
            // Generous: a loaded machine must not add timeouts to the fault under test.
            rateLimit: { store: new RedisStore({ client, prefix, timeout: 5000 }) },
          }),
      );
      try {
        const outcomes = await Promise.allSettled(
          Array.from({ length: 40 }, (_, index) => clients[index % 3]!.get('/v1/users')),
        );
        await faulted;
        await afterJob?.({ clients, connections, prefix });
        return { outcomes, counts, log };
      } finally {
        await Promise.all(connections.map((connection) => connection.close()));
      }
    }

    const failures = (outcomes: PromiseSettledResult<unknown>[]) =>
      outcomes.filter((outcome) => outcome.status === 'rejected');

    it.each<RedisLibrary>(['node-redis 6', 'ioredis 6'])(
      '%s: Redis stopped mid-job and started again fails no call, warns once per client',
      async (library) => {
        let restarted: Promise<void> | undefined;
        const { outcomes, log } = await jobWithFault(library, 2, async ({ answered }) => {
          await target.server!.stop();
          // Down across a window's reset at least (more answers than a window holds), then back:
          // the job is not over yet.
          restarted = (async () => {
            await expect
              .poll(answered, { timeout: 30_000, interval: 20 })
              .toBeGreaterThan(2 + TIER);
            await target.server!.start();
          })();
        });
        await restarted;
        expect(failures(outcomes)).toEqual([]);
        const warnings = log.warnings();
        expect(warnings.length).toBeGreaterThanOrEqual(1);
        expect(warnings.length).toBeLessThanOrEqual(3);
        for (const { message } of warnings) expect(message).toContain('pacing locally');
      },
      60_000,
    );

    it('comes back to Redis once it answers again: says so, and writes its keys again', async () => {
      const { outcomes, log } = await jobWithFault(
        'node-redis 6',
        4,
        async ({ log }) => {
          await target.server!.stop();
          // Down until a client has met the outage and paced locally: a fixed pause could pass
          // with no call asking Redis on a loaded machine, and then nothing comes back.
          await expect
            .poll(() => log.warnings().length, { timeout: 15_000, interval: 20 })
            .toBeGreaterThanOrEqual(1);
          await target.server!.start();
        },
        async ({ clients, connections, prefix }) => {
          for (const { client } of connections) {
            await expect.poll(() => redisAdapter(client).ready, { timeout: 10_000 }).toBe(true);
          }
          // A client asks Redis again a second after it last failed: moved on, not waited for.
          vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 1000 });
          try {
            await Promise.all(clients.map((client) => client.get('/v1/users')));
          } finally {
            vi.useRealTimers();
          }
          const keys = (await dump(inspector, prefix)).map(({ key }) => key);
          expect(keys.some((key) => key.endsWith(':window'))).toBe(true);
        },
      );
      expect(failures(outcomes)).toEqual([]);
      const warned = log.warnings().length;
      const back = log.lines.filter(
        ({ level, message }) => level === 'info' && message.includes('answers again'),
      ).length;
      expect(warned).toBeGreaterThanOrEqual(1);
      expect(back).toBe(warned);
    });

    it('Redis flushed mid-job: no call fails, nothing is logged', async () => {
      const { outcomes, log } = await jobWithFault('ioredis 5', 12, async () => {
        await inspector.command('FLUSHALL');
      });
      expect(failures(outcomes)).toEqual([]);
      expect(log.warnings()).toEqual([]);
    });

    it.each(GARBAGE)(
      'garbage (%s) written mid-job fails no call; a client that reads it warns and paces locally',
      async (_, write) => {
        const { outcomes, log } = await jobWithFault('node-redis 4', 12, async ({ key }) => {
          await inspector.command(...write(key));
        });
        expect(failures(outcomes)).toEqual([]);
        for (const { message } of log.warnings()) expect(message).toContain('did not write');
      },
    );

    /**
     * Holds the store's questions (scripts, as every write: CLIENT PAUSE … WRITE) from when this
     * resolves on, as a slow Redis would: for `ms`, or until `release()`. `released()` resolves
     * when Redis runs scripts again: a script of ours, queued behind the hold like theirs.
     */
    async function holdRedis(ms = 600_000) {
      await inspector.command('CLIENT', 'PAUSE', String(ms), 'WRITE');
      return {
        release: () => inspector.command('CLIENT', 'UNPAUSE'),
        released: () => inspector.command('EVAL', 'return 1', '0'),
      };
    }

    /** A client of a RedisStore on a connection of its own, asked once, so its store is warm. */
    async function warmClient(library: RedisLibrary, timeout?: number) {
      mock = await startMockServer({ tier: TIER, rateLimitWindowMs: WINDOW_MS });
      const connection = await connectRedisClient(library, target.url);
      const log = keptLog();
      const prefix = uniquePrefix();
      const store = new RedisStore({ client: connection.client, prefix, timeout });
      const client = new Client({
        apiKey: mock.api.testKey,
        baseUrl: mock.url,
        logger: log.logger,
        rateLimit: { store },
      });
      // Its first question may take a second (Redis loads the script): answered, it is warm.
      await client.get('/v1/users').catch(async (error: unknown) => {
        await connection.close();
        throw error;
      });
      return { connection, log, prefix, store, client };
    }

    it('Redis slower than the timeout: the call paces locally instead of waiting, counted once', async () => {
      const { connection, log, store, client } = await warmClient('ioredis 6', 50);
      try {
        expect(store.fallbacks).toBe(0);
        const { release } = await holdRedis();
        await expect(client.get('/v1/users')).resolves.toBeDefined();
        expect(log.warnings()).toEqual([
          expect.objectContaining({
            message: expect.stringContaining('did not answer within 50 ms'),
          }),
        ]);
        expect(store.fallbacks).toBe(1);
        await release();
      } finally {
        await connection.close();
      }
    });

    it('counts every fallback in store.fallbacks, logs only the first of an outage, and gives back a place Redis grants too late', async () => {
      const { connection, log, prefix, store, client } = await warmClient('node-redis 6');
      try {
        expect(store.fallbacks).toBe(0);
        // The client's clock stands still but where the test moves it: "the second after a
        // fallback" is that, however long this machine stalls between two calls.
        vi.useFakeTimers({ toFake: ['Date'] });
        // Held until released: two questions, a second apart, each given up after a second.
        const { release } = await holdRedis();
        await client.get('/v1/users');
        expect(store.fallbacks).toBe(1);
        // The second after a fallback paces locally without waiting for Redis: nothing more to
        // count.
        await client.get('/v1/users');
        expect(store.fallbacks).toBe(1);
        vi.setSystemTime(Date.now() + 1000);
        await client.get('/v1/users');
        expect(store.fallbacks).toBe(2);
        expect(log.warnings()).toHaveLength(1);
        await release();
        // Redis runs the questions it held, and grants them places: each is freed by the release
        // that followed it on the connection (its request's answer), where it would have held
        // the window's places for 30 s.
        const inFlight = `${keyTag(mock, prefix)}:in-flight`;
        await expect.poll(() => inspector.command('ZCARD', inFlight), { timeout: 5000 }).toBe(0);
        vi.setSystemTime(Date.now() + 1000);
        await client.get('/v1/users');
        expect(store.fallbacks).toBe(2);
        expect(
          log.lines.filter(
            ({ level, message }) => level === 'info' && message.includes('answers again'),
          ),
        ).toHaveLength(1);
      } finally {
        vi.useRealTimers();
        await connection.close();
      }
    });

    it('the first release of a store, like its first reserve, may take a second; the next gets the timeout', async () => {
      const connection = await connectRedisClient('node-redis 4', target.url);
      const store = new RedisStore({
        client: connection.client,
        prefix: uniquePrefix(),
        timeout: 50,
      });
      const key = 'beefbeefbeefbeefbeefbeefbeefbeef';
      /**
       * Releases `holder` while Redis is held, on the store's fake clock: `ms` pass, then Redis
       * runs it. How the release ended, and whether it had before Redis was let go.
       */
      const heldRelease = async (holder: string, ms: number) => {
        const { release } = await holdRedis();
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
        try {
          let endedHeld = false;
          const outcome = store.release(key, holder, undefined).then(
            () => 'answered',
            (error: unknown) => (error as Error).message,
          );
          void outcome.then(() => (endedHeld = true));
          await vi.advanceTimersByTimeAsync(ms);
          // The store's timeout, when it ran out, ends the question after the I/O of that turn.
          await new Promise((resolve) => setImmediate(resolve));
          await Promise.resolve();
          const held = endedHeld;
          await release();
          return { outcome: await outcome, endedHeld: held };
        } finally {
          vi.useRealTimers();
        }
      };
      try {
        await expect(store.reserve(key, 'worker:1')).resolves.toBe(0);
        // Redis loads the release script on its first use: that question is given a second.
        expect(await heldRelease('worker:1', 999)).toEqual({
          outcome: 'answered',
          endedHeld: false,
        });
        await expect(store.reserve(key, 'worker:2')).resolves.toBe(0);
        expect(await heldRelease('worker:2', 50)).toEqual({
          outcome: expect.stringMatching(/did not answer within 50 ms/),
          endedHeld: true,
        });
      } finally {
        await connection.close();
      }
    });

    it("timeout 'auto' (the default) follows the round trips it observes, from 50 ms to 1 s, and waits 1 s until it has heard 100", async () => {
      const connection = await connectRedisClient('ioredis 5', target.url);
      const store = new RedisStore({ client: connection.client, prefix: uniquePrefix() });
      const key = 'cafecafecafecafecafecafecafecafe';
      let holder = 0;
      const reserve = () => store.reserve(key, `worker:${++holder}`);
      // Round trips on the store's fake clock: Redis's own answers take no time on it, a held
      // one what the test lets pass. This machine's load changes neither.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      /** A question Redis holds for `ms`: answered, or the timeout it gave up after. */
      const heldFor = async (ms: number) => {
        const { release } = await holdRedis();
        const asked = reserve().then(
          () => 'answered',
          (error: unknown) => (error as Error).message,
        );
        await vi.advanceTimersByTimeAsync(ms);
        // A timeout that ran out ends the question after the I/O of that turn.
        await new Promise((resolve) => setImmediate(resolve));
        await release();
        const outcome = await asked;
        // Its late answer comes before this one's, on the same connection: now observed.
        await reserve().catch(() => {});
        return outcome;
      };
      const timeoutNow = async (heldMs: number) =>
        Number(/Redis did not answer within (\d+) ms/.exec(await heldFor(heldMs))?.[1]);
      try {
        await expect(reserve()).resolves.toBe(0);
        // Fewer answers than it keeps are no 99th percentile: it waits the longest meanwhile.
        expect(await heldFor(900)).toBe('answered');
        for (let index = 0; index < 100; index++) await reserve();
        // A hundred quick answers: the shortest timeout.
        expect(await timeoutNow(1900)).toBe(50);
        // One slow answer in a hundred is the 1 % the percentile leaves out.
        expect(await timeoutNow(1900)).toBe(50);
        // Four times the 1.9 s observed twice is more than the longest timeout, a second.
        expect(await timeoutNow(1900)).toBe(1000);
        // A Redis that has been this slow is waited for: a 400 ms round trip is an answer.
        expect(await heldFor(400)).toBe('answered');
        // A hundred quick answers later, the slow ones are forgotten.
        for (let index = 0; index < 100; index++) await reserve();
        expect(await timeoutNow(1900)).toBe(50);
      } finally {
        vi.useRealTimers();
        await connection.close();
      }
    });

    it("refuses a timeout that is neither 'auto' nor 1 to 60,000 ms, naming the option", () => {
      for (const timeout of [0, -1, 60_001, Number.NaN, 'fast', '50']) {
        expect(
          () =>
            new RedisStore({
              client: inspector.client,
              timeout: timeout as number,
            }),
        ).toThrow(expect.objectContaining({ option: 'timeout' }));
      }
    });
  },
  { ownServer: true },
);

describeRedis('RedisStore places', () => {
  let target: RedisTarget;
  let redis: TestRedisClient;
  beforeAll(async () => {
    target = await redisTarget();
    redis = await connectRedisClient('ioredis 5', target.url);
  });
  afterAll(async () => {
    await redis?.close();
    await target?.close();
  });

  it("expire: a dead worker's places stop counting after 30 s", async () => {
    const prefix = uniquePrefix();
    const store = new RedisStore({ client: redis.client, prefix, timeout: 5000 });
    const key = 'f00dfeedf00dfeedf00dfeedf00dfeed';
    const tag = `${prefix}{${key}}`;
    /** Redis's clock in ms, as the store's scripts read it. */
    const redisNow = async () => {
      const [seconds, micros] = (await redis.command('TIME')) as [string, string];
      return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    };
    const now = await redisNow();
    // The window has room for one more; a dead worker's place taken 31 s ago still lies there.
    await redis.command(
      'HSET',
      `${tag}:window`,
      'limit',
      '10',
      'remaining',
      '1',
      'reset',
      String(now + 20_000),
    );
    await redis.command('ZADD', `${tag}:in-flight`, String(now - 1000), 'dead-worker:1');
    expect(await store.reserve(key, 'live-worker:1')).toBe(0);
    const reserved = await redisNow();
    expect(await redis.command('ZRANGE', `${tag}:in-flight`, '0', '-1')).toEqual(['live-worker:1']);
    // The place expires 30 s after Redis granted it, between the two readings of its clock.
    const score = Number(await redis.command('ZSCORE', `${tag}:in-flight`, 'live-worker:1'));
    expect(score).toBeGreaterThanOrEqual(now + 30_000);
    expect(score).toBeLessThanOrEqual(reserved + 30_000);
    const ttl = Number(await redis.command('PTTL', `${tag}:in-flight`));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(30_000);
    // Now the live place holds the last of the window: the next asker waits a moment.
    const wait = await store.reserve(key, 'live-worker:2');
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(25);
    await store.release(key, 'live-worker:1', { limit: 10, remaining: 0, resetAt: now + 20_000 });
    // Spent: the wait is until the reset, on Redis's clock (read before and after it answers).
    const asked = await redisNow();
    const untilReset = await store.reserve(key, 'live-worker:2');
    const answered = await redisNow();
    expect(untilReset).toBeGreaterThanOrEqual(now + 20_000 - answered);
    expect(untilReset).toBeLessThanOrEqual(now + 20_000 - asked);
  });

  it.each(GARBAGE)(
    'takes garbage (%s) as "cannot tell", never a wait, and removes it so the next question starts clean',
    async (_, write) => {
      const prefix = uniquePrefix();
      const store = new RedisStore({ client: redis.client, prefix, timeout: 5000 });
      const key = 'baadf00dbaadf00dbaadf00dbaadf00d';
      await redis.command(...write(`${prefix}{${key}}`));
      await expect(store.reserve(key, 'worker:1')).rejects.toThrow('did not write');
      expect(await redis.command('KEYS', `${prefix}*`)).toEqual([]);
      // Nothing known now: the next request goes, alone, as the probe of the window.
      expect(await store.reserve(key, 'worker:1')).toBe(0);
    },
  );

  it('answers "cannot tell" rather than a wait past the cap when the window resets beyond it', async () => {
    const prefix = uniquePrefix();
    const store = new RedisStore({ client: redis.client, prefix, timeout: 5000 });
    const key = 'beefbeefbeefbeefbeefbeefbeefbeef';
    const [seconds] = (await redis.command('TIME')) as [string, string];
    await redis.command(
      'HSET',
      `${prefix}{${key}}:window`,
      ...['limit', '10', 'remaining', '0', 'reset', String(Number(seconds) * 1000 + 3_600_000)],
    );
    expect(await store.reserve(key, 'worker:1')).toBeUndefined();
  });

  it('recognises one window across resets read from a delta a second apart; an overtaken answer is no refill', async () => {
    const prefix = uniquePrefix();
    const store = new RedisStore({ client: redis.client, prefix, timeout: 5000 });
    const key = 'cafecafecafecafecafecafecafecafe';
    const [seconds] = (await redis.command('TIME')) as [string, string];
    const now = Number(seconds) * 1000;
    const window = (remaining: number, inSeconds: number) => ({
      limit: 30,
      remaining,
      resetAt: now + inSeconds * 1000,
    });
    // `remaining: 5, reset 49 s on`, then `0, 48 s on`: one window, spent (the calls wait ~49 s).
    expect(await store.reserve(key, 'worker:1')).toBe(0);
    await store.release(key, 'worker:1', window(5, 49));
    expect(await store.reserve(key, 'worker:2')).toBe(0);
    await store.release(key, 'worker:2', window(0, 48));
    expect(await store.reserve(key, 'worker:3')).toBeGreaterThan(47_000);
    // An answer overtaken by others' requests, long before the reset, is no refill.
    await store.release(key, 'worker:4', window(4, 49));
    expect(await store.reserve(key, 'worker:5')).toBeGreaterThan(47_000);
  });
});
