/**
 * A webhook receiver in a process of its own, for tests that kill it mid-handler
 * (test/webhooks/process-killed.test.ts starts it with `node --import tsx`). It serves
 * createNodeMiddleware on 127.0.0.1 at a free port and prints `listening <port>`; its handler
 * prints `handling <event id>` and never finishes, so the test can kill it while it handles.
 *
 * Input (env RECEIVER_CHILD, JSON): `secret`, `leaseSeconds`, and `redisUrl` for a
 * RedisDedupeStore on node-redis (else the in-memory default).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeMiddleware, createWebhookReceiver } from '@employee-recognition/sdk/webhooks';
import { createClient } from 'redis';
import { RedisDedupeStore } from '@employee-recognition/sdk/redis';

interface ChildInput {
  secret: string;
  leaseSeconds: number;
  redisUrl?: string;
}

const input = JSON.parse(process.env.RECEIVER_CHILD ?? '{}') as ChildInput;
const redis = input.redisUrl ? await createClient({ url: input.redisUrl }).connect() : undefined;
const receiver = createWebhookReceiver({
  secret: input.secret,
  dedupe: {
    store: redis && new RedisDedupeStore({ client: redis }),
    leaseSeconds: input.leaseSeconds,
  },
}).onAny((event) => {
  process.stdout.write(`handling ${event.id}\n`);
  return new Promise(() => {});
});
const server = createServer(createNodeMiddleware(receiver));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
