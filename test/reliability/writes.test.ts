/**
 * No lost or doubled writes: when a POST reaches the service but its answer is lost, the SDK's
 * retry carries the same Idempotency-Key, and the service does the work once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';

let server: MockServer;
let client: Client;
beforeAll(async () => {
  server = await startMockServer({ seed: 3 });
  client = new Client({ baseUrl: server.url, apiKey: server.api.testKey });
});
afterAll(() => server.close());

function recipient() {
  const [, user] = server.api.store.users.all();
  if (!user) throw new Error('the seed has fewer than two users');
  return user;
}

it('a POST whose answer is lost is retried with the same key and recorded once', async () => {
  const before = server.api.store.recognitions.all().length;
  const message = `Lost answer ${Date.now()}`;
  server.api.faults.dropResponseNext('POST /v1/recognitions');

  const { data } = await client.recognitions.create({
    recipient_id: recipient().id,
    message,
    points: 5,
  });

  const posts = server.api.requests.filter((request) => request.method === 'POST');
  expect(posts).toHaveLength(2);
  expect(posts[0]?.headers['idempotency-key']).toBeDefined();
  expect(posts[1]?.headers['idempotency-key']).toBe(posts[0]?.headers['idempotency-key']);
  const stored = server.api.store.recognitions.all().filter((r) => r.message === message);
  expect(stored).toHaveLength(1);
  expect(stored[0]?.id).toBe(data.id);
  expect(server.api.store.recognitions.all()).toHaveLength(before + 1);
});

it('two calls with the same content are two recognitions: each call has its own key', async () => {
  const message = `Said twice ${Date.now()}`;
  const params = { recipient_id: recipient().id, message };
  await client.recognitions.create(params);
  await client.recognitions.create(params);
  expect(server.api.store.recognitions.all().filter((r) => r.message === message)).toHaveLength(2);
});

it("a caller's own key makes its retry after a crash safe too", async () => {
  const message = `Crash-safe ${Date.now()}`;
  const params = { recipient_id: recipient().id, message };
  const first = await client.recognitions.create(params, { idempotencyKey: `order-${message}` });
  const again = await client.recognitions.create(params, { idempotencyKey: `order-${message}` });
  expect(again.data.id).toBe(first.data.id);
  expect(server.api.store.recognitions.all().filter((r) => r.message === message)).toHaveLength(1);
});
