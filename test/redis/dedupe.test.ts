/**
 * The webhook receiver's Redis de-duplication store against a real redis-server, through each
 * client library customers use: the claim, its lease and release, handled ids kept, receivers
 * sharing it under 1,000 deliveries, and Redis failing under the receiver. A receiver process
 * killed mid-handler is in test/webhooks/process-killed.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/core/config.js';
import { redisAdapter } from '../../src/redis/client.js';
import { RedisDedupeStore } from '../../src/redis/dedupe.js';
import { signWebhook } from '../../src/testing/webhook-signer.js';
import {
  createNodeMiddleware,
  createWebhookReceiver,
  type WebhookReceiver,
} from '../../src/webhooks/index.js';
import {
  connectRedisClient,
  describeRedis,
  REDIS_LIBRARIES,
  type RedisTarget,
  redisTarget,
  type TestRedisClient,
} from '../support/redis.js';
import { recognitionCreated, SECRET } from '../webhooks/fixtures.js';

const LEASE_MS = 60_000;
const RETENTION_MS = 28 * 3600_000;

let prefixes = 0;
/** A key prefix of the test's own, so tests and runs side by side never meet. */
const freshPrefix = () => `test:dedupe:${process.pid}:${++prefixes}:`;

const quietLogger = () => ({ debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() });

describe('RedisDedupeStore', () => {
  it('refuses an object that is no Redis client, and bad options, naming them', () => {
    expect(() => new RedisDedupeStore({ client: {} as never })).toThrow(ConfigurationError);
    const client = { status: 'ready', evalsha: async () => 1, eval: async () => 1 };
    for (const [options, option] of [
      [{ timeout: 0 }, 'timeout'],
      [{ timeout: Number.NaN }, 'timeout'],
      [{ prefix: 42 }, 'prefix'],
    ] as const) {
      expect(() => new RedisDedupeStore({ client, ...(options as object) })).toThrow(
        expect.objectContaining({ option }),
      );
    }
  });
});

describeRedis('RedisDedupeStore against a real Redis', () => {
  let target: RedisTarget;
  beforeAll(async () => {
    target = await redisTarget();
  });
  afterAll(() => target?.close());

  describe.each(REDIS_LIBRARIES)('%s', (library) => {
    let redis: TestRedisClient;
    let prefix: string;
    let store: RedisDedupeStore;
    beforeAll(async () => {
      redis = await connectRedisClient(library, target.url);
    });
    afterAll(() => redis?.close());
    afterEach(() => {
      prefix = freshPrefix();
    });
    prefix = freshPrefix();
    const fresh = () => (store = new RedisDedupeStore({ client: redis.client, prefix }));
    /** Resolves once Redis, on its own clock, has ended the lease of `id`: its key is gone. */
    const leaseEnded = (id: string) =>
      expect.poll(() => redis.command('PTTL', `${prefix}${id}`), { interval: 5 }).toBe(-2);

    it('claims an id once, under a lease Redis ends', async () => {
      fresh();
      expect(await store.claim('evt_1', 'token-a', LEASE_MS)).toBe('claimed');
      expect(await store.claim('evt_1', 'token-b', LEASE_MS)).toBe('in_progress');
      expect(await redis.command('GET', `${prefix}evt_1`)).toBe('token-a');
      const ttl = Number(await redis.command('PTTL', `${prefix}evt_1`));
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(LEASE_MS);
    });

    it('frees an id whose lease ran out, as when its process died', async () => {
      fresh();
      expect(await store.claim('evt_1', 'token-a', 1)).toBe('claimed');
      await leaseEnded('evt_1');
      expect(await store.claim('evt_1', 'token-b', LEASE_MS)).toBe('claimed');
    });

    it('keeps a completed id as handled for the retention', async () => {
      fresh();
      await store.claim('evt_1', 'token-a', LEASE_MS);
      await store.complete('evt_1', 'token-a', RETENTION_MS);
      expect(await store.claim('evt_1', 'token-b', LEASE_MS)).toBe('handled');
      const ttl = Number(await redis.command('PTTL', `${prefix}evt_1`));
      expect(ttl).toBeGreaterThan(RETENTION_MS - 60_000);
      expect(ttl).toBeLessThanOrEqual(RETENTION_MS);
    });

    it("lets only the lease's holder release it or mark it handled", async () => {
      fresh();
      await store.claim('evt_1', 'token-a', LEASE_MS);
      await store.release('evt_1', 'token-b');
      await store.complete('evt_1', 'token-b', RETENTION_MS);
      expect(await redis.command('GET', `${prefix}evt_1`)).toBe('token-a');
      await store.release('evt_1', 'token-a');
      expect(await store.claim('evt_1', 'token-c', LEASE_MS)).toBe('claimed');
    });

    it('marks an id handled when its holder completes after the lease ran out unclaimed', async () => {
      fresh();
      await store.claim('evt_1', 'token-a', 1);
      await leaseEnded('evt_1');
      await store.complete('evt_1', 'token-a', RETENTION_MS);
      expect(await store.claim('evt_1', 'token-b', LEASE_MS)).toBe('handled');
    });

    it('shares one id between receivers: a copy during handling 409, after it 204, handled once', async () => {
      fresh();
      const handler = vi.fn();
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      let finish!: () => void;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      const first = createWebhookReceiver({ secret: SECRET, dedupe: store }).onAny(() => {
        handler();
        started();
        return finished;
      });
      const second = createWebhookReceiver({ secret: SECRET, dedupe: store }).onAny(handler);
      const delivery = await signed('evt_shared');
      const handling = first.receive(...delivery);
      await running;
      expect(await second.receive(...(await signed('evt_shared')))).toMatchObject({ status: 409 });
      finish();
      expect(await handling).toMatchObject({ outcome: 'handled' });
      expect(await second.receive(...(await signed('evt_shared')))).toMatchObject({
        outcome: 'duplicate',
        status: 204,
      });
      expect(handler).toHaveBeenCalledTimes(1);
      const keys = (await redis.command('KEYS', `${prefix}*`)) as string[];
      expect(keys).toEqual([`${prefix}evt_shared`]);
    });

    it('handles the event when a key holds what the store never wrote, and logs that once', async () => {
      fresh();
      await redis.command('HSET', `${prefix}evt_odd`, 'field', 'value');
      const logger = quietLogger();
      const handler = vi.fn();
      const receiver = createWebhookReceiver({ secret: SECRET, dedupe: store, logger }).onAny(
        handler,
      );
      expect(await receiver.receive(...(await signed('evt_odd')))).toMatchObject({
        outcome: 'handled',
      });
      expect(await receiver.receive(...(await signed('evt_odd')))).toMatchObject({
        outcome: 'handled',
      });
      expect(handler).toHaveBeenCalledTimes(2);
      expect(logger.warn).toHaveBeenCalledTimes(1);
    });
  });

  describe('under 1,000 deliveries, 10 % replayed, to two receivers sharing Redis', () => {
    let redis: TestRedisClient;
    const servers: Server[] = [];
    beforeAll(async () => {
      redis = await connectRedisClient('node-redis 6', target.url);
    });
    afterAll(async () => {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      await redis?.close();
    });

    it('handles each id exactly once', async () => {
      const prefix = freshPrefix();
      const handled = new Map<string, number>();
      const urls: string[] = [];
      for (let index = 0; index < 2; index++) {
        const receiver = createWebhookReceiver({
          secret: SECRET,
          dedupe: new RedisDedupeStore({ client: redis.client, prefix }),
        }).onAny(async (event) => {
          handled.set(event.id, (handled.get(event.id) ?? 0) + 1);
          await new Promise((resolve) => setImmediate(resolve));
        });
        urls.push(await listen(servers, receiver));
      }
      const ids = Array.from({ length: 1000 }, (_, index) => `evt_${index}`);
      // Every tenth id comes twice, its copy at once to the other receiver.
      const queue = ids.flatMap((id, index) => (index % 10 === 0 ? [id, id] : [id]));
      let sent = 0;
      async function sender() {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          const [body, headers] = await signed(id);
          const response = await fetch(urls[sent++ % 2]!, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...headers },
            body,
          });
          if (response.status === 409) queue.push(id);
          else expect(response.status).toBe(204);
        }
      }
      await Promise.all(Array.from({ length: 20 }, sender));
      expect(handled.size).toBe(1000);
      expect([...handled.values()].every((count) => count === 1)).toBe(true);
    });
  });
});

describeRedis(
  'a receiver whose Redis fails',
  () => {
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

    it('handles every delivery (at least once, never lost) and logs once, then de-duplicates again', async () => {
      const logger = quietLogger();
      const handler = vi.fn();
      const receiver = createWebhookReceiver({
        secret: SECRET,
        logger,
        dedupe: new RedisDedupeStore({ client: redis.client, prefix: freshPrefix() }),
      }).onAny(handler);
      await target.server!.stop();
      expect(await receiver.receive(...(await signed('evt_down')))).toMatchObject({ status: 204 });
      expect(await receiver.receive(...(await signed('evt_down')))).toMatchObject({ status: 204 });
      expect(handler).toHaveBeenCalledTimes(2);
      expect(logger.warn).toHaveBeenCalledTimes(1);
      expect(logger.warn.mock.calls[0]![0]).toMatch(/handled twice/);

      await target.server!.start();
      await vi.waitFor(() => expect(redisAdapter(redis.client).ready).toBe(true), {
        timeout: 10_000,
      });
      expect(await receiver.receive(...(await signed('evt_up')))).toMatchObject({
        outcome: 'handled',
      });
      expect(await receiver.receive(...(await signed('evt_up')))).toMatchObject({
        outcome: 'duplicate',
      });
    });
  },
  { ownServer: true },
);

/** A signed delivery of recognition.created under `id`, at now. */
async function signed(id: string) {
  const body = JSON.stringify({ ...recognitionCreated, id });
  return [body, await signWebhook(body, SECRET, { id })] as const;
}

async function listen(servers: Server[], receiver: WebhookReceiver): Promise<string> {
  const server = createServer(createNodeMiddleware(receiver));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}
