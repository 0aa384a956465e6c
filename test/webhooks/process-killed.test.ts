/**
 * A receiver process killed while its handler runs: the service sees no answer and retries, and
 * the retry is handled by the process that takes over; with a shared Redis store, once the dead
 * process's lease has run out on Redis's clock. The child is a real process
 * (test/support/receiver-child.ts), killed with SIGKILL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
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
  type RedisTarget,
  redisTarget,
  type TestRedisClient,
} from '../support/redis.js';
import { recognitionCreated, SECRET } from './fixtures.js';

const CHILD = fileURLToPath(new URL('../support/receiver-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// A bound for a child that never starts, not a speed target.
const CHILD_TIMEOUT_MS = 15_000;

const children: ChildProcess[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A signed delivery of recognition.created under `id`, at now. */
async function post(url: string, id: string): Promise<Response> {
  const body = JSON.stringify({ ...recognitionCreated, id });
  const headers = await signWebhook(body, SECRET, { id });
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

async function listen(receiver: WebhookReceiver): Promise<string> {
  const server = createServer(createNodeMiddleware(receiver));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/**
 * Starts a receiver in a child process with `input`, delivers `id` to it, and kills the child
 * (SIGKILL) once its handler runs. Resolves when the delivery has failed as the service sees it.
 */
async function deliverAndKill(input: Record<string, unknown>, id: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: ROOT,
    env: { ...process.env, RECEIVER_CHILD: JSON.stringify({ secret: SECRET, ...input }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  const waiters: Array<() => void> = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    for (const waiter of waiters) waiter();
  });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const printed = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the receiver did not print ${pattern}: ${output}`)),
        CHILD_TIMEOUT_MS,
      );
      const look = () => {
        const match = pattern.exec(output);
        if (!match) return;
        clearTimeout(timer);
        resolve(match);
      };
      waiters.push(look);
      look();
    });
  const [, port] = await printed(/listening (\d+)/);
  const attempt = post(`http://127.0.0.1:${port}/`, id).catch((error: unknown) => error);
  await printed(new RegExp(`handling ${id}`));
  child.kill('SIGKILL');
  // No answer: the service counts a failed attempt and retries.
  expect(await attempt).toBeInstanceOf(Error);
}

describe('a receiver process killed mid-handler', () => {
  it('loses nothing: the retry is handled by the process that takes over', async () => {
    await deliverAndKill({ leaseSeconds: 120 }, 'evt_killed_memory');
    const handler = vi.fn();
    const url = await listen(createWebhookReceiver({ secret: SECRET }).onAny(handler));
    expect((await post(url, 'evt_killed_memory')).status).toBe(204);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  describeRedis('with a Redis store', () => {
    let target: RedisTarget;
    let redis: TestRedisClient;
    beforeAll(async () => {
      target = await redisTarget();
      redis = await connectRedisClient('node-redis 6', target.url);
    });
    afterAll(async () => {
      await redis?.close();
      await target?.close();
    });

    it('answers copies 409 while the dead process holds the lease, and handles the retry after it', async () => {
      const id = `evt_killed_redis_${process.pid}`;
      await deliverAndKill({ leaseSeconds: 1, redisUrl: target.url }, id);
      const handler = vi.fn();
      const store = new RedisDedupeStore({ client: redis.client });
      const url = await listen(
        createWebhookReceiver({ secret: SECRET, dedupe: store }).onAny(handler),
      );
      expect((await post(url, id)).status).toBe(409);
      // The service retries until it gets a 2xx; the lease ends on Redis's clock, within 1 s.
      let status = 409;
      for (let attempt = 0; attempt < 50 && status === 409; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = (await post(url, id)).status;
      }
      expect(status).toBe(204);
      expect(handler).toHaveBeenCalledTimes(1);
      expect((await post(url, id)).status).toBe(204);
      expect(handler).toHaveBeenCalledTimes(1);
    });
  });
});
