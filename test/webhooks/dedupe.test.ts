import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signWebhook } from '../../src/testing/webhook-signer.js';
import {
  MemoryDedupeStore,
  createNodeMiddleware,
  createWebhookReceiver,
} from '../../src/webhooks/index.js';
import { recognitionCreated, SECRET } from './fixtures.js';

describe('the in-memory store', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('claims an id once, until the lease runs out', async () => {
    const store = new MemoryDedupeStore();
    expect(await store.claim('evt_1', 'a', 1000)).toBe('claimed');
    expect(await store.claim('evt_1', 'b', 1000)).toBe('in_progress');
    vi.setSystemTime(1000);
    expect(await store.claim('evt_1', 'b', 1000)).toBe('claimed');
  });

  it('keeps a completed id for the retention, then forgets it', async () => {
    const store = new MemoryDedupeStore();
    await store.claim('evt_1', 'a', 1000);
    await store.complete('evt_1', 'a', 5000);
    vi.setSystemTime(4999);
    expect(await store.claim('evt_1', 'b', 1000)).toBe('handled');
    vi.setSystemTime(5000);
    expect(await store.claim('evt_1', 'b', 1000)).toBe('claimed');
  });

  it("lets only the lease's holder complete or release it", async () => {
    const store = new MemoryDedupeStore();
    await store.claim('evt_1', 'a', 1000);
    vi.setSystemTime(1000);
    // a's lease ran out and b holds the id now: a late a changes nothing.
    await store.claim('evt_1', 'b', 1000);
    await store.release('evt_1', 'a');
    await store.complete('evt_1', 'a', 5000);
    expect(await store.claim('evt_1', 'c', 1000)).toBe('in_progress');
    await store.release('evt_1', 'b');
    expect(await store.claim('evt_1', 'c', 1000)).toBe('claimed');
  });

  it('records an id as handled when its holder completes after the lease ran out unclaimed', async () => {
    const store = new MemoryDedupeStore();
    await store.claim('evt_1', 'a', 1000);
    vi.setSystemTime(2000);
    await store.complete('evt_1', 'a', 5000);
    expect(await store.claim('evt_1', 'b', 1000)).toBe('handled');
  });

  it('forgets the oldest id beyond maxEntries', async () => {
    const store = new MemoryDedupeStore({ maxEntries: 3 });
    for (const id of ['evt_1', 'evt_2', 'evt_3', 'evt_4']) {
      await store.claim(id, 'a', 1000);
      await store.complete(id, 'a', 5000);
    }
    expect(await store.claim('evt_2', 'b', 1000)).toBe('handled');
    expect(await store.claim('evt_1', 'b', 1000)).toBe('claimed');
  });

  it('refuses a maxEntries that is not a whole number above 0', () => {
    for (const maxEntries of [0, -1, 1.5, Number.NaN]) {
      expect(() => new MemoryDedupeStore({ maxEntries })).toThrow(
        expect.objectContaining({ option: 'maxEntries' }),
      );
    }
  });
});

/** Mulberry32: a seeded generator, so the order of the deliveries is the same on every run. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('a receiver under 1,000 deliveries, 10 % of them replayed', () => {
  let server: Server;
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('handles each id exactly once and answers every delivery 2xx in the end', async () => {
    const random = seeded(25);
    const handled = new Map<string, number>();
    const receiver = createWebhookReceiver({ secret: SECRET }).onAny(async (event) => {
      handled.set(event.id, (handled.get(event.id) ?? 0) + 1);
      // Hand the event loop over, so that copies meet their original mid-handling.
      await new Promise((resolve) => setImmediate(resolve));
    });
    server = createServer(createNodeMiddleware(receiver));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

    const ids = Array.from({ length: 1000 }, (_, index) => `evt_${index}`);
    const replayed = ids.filter(() => random() < 0.1);
    const queue = [...ids, ...replayed];
    // Shuffled: a copy may come before, with or long after its original.
    for (let index = queue.length - 1; index > 0; index--) {
      const other = Math.floor(random() * (index + 1));
      [queue[index], queue[other]] = [queue[other]!, queue[index]!];
    }

    const statuses = new Map<number, number>();
    // 20 senders, as the service delivers side by side; a 409 is retried later, as it would be.
    async function sender() {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        const body = JSON.stringify({ ...recognitionCreated, id });
        const headers = await signWebhook(body, SECRET, { id });
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body,
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status === 409) queue.push(id);
        else expect(response.status).toBe(204);
      }
    }
    await Promise.all(Array.from({ length: 20 }, sender));

    expect(replayed.length).toBeGreaterThan(70);
    expect(handled.size).toBe(1000);
    expect([...handled.values()].every((count) => count === 1)).toBe(true);
    expect(statuses.get(204)).toBe(1000 + replayed.length);
  });
});
