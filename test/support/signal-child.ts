/**
 * Many calls on one long-lived AbortSignal, in a process of its own run with `--expose-gc`:
 * reports, as one JSON line, how much the live heap grew over `calls` calls after a warm-up of
 * the same kind, and how many `abort` listeners the signal has once they have all settled.
 * Started by shared-signal.test.ts. The client's `fetch` answers at once, so only the client's
 * own memory is measured.
 */
import { getEventListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, type ClientOptions } from '@employee-recognition/sdk';

const { calls, options } = JSON.parse(process.env.CHILD_INPUT ?? '{}') as {
  calls: number;
  options: ClientOptions;
};
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with --expose-gc');

const signal = new AbortController().signal;
const body = JSON.stringify({ data: [] });
const client = new Client({
  apiKey: `rk_test_${'0'.repeat(24)}`,
  baseUrl: 'http://api.test',
  ...options,
  // Answered in a later task, as a network answer is: the platform's clean-up of each Request's
  // signal (a FinalizationRegistry task) runs between them as it does in a real process.
  fetch: async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return new Response(body, { headers: { 'content-type': 'application/json' } });
  },
});

/** `count` calls on the one signal, a hundred at a time. */
async function run(count: number): Promise<void> {
  for (let done = 0; done < count; done += 100) {
    await Promise.all(Array.from({ length: 100 }, () => client.get('/v1/users', { signal })));
  }
}

/**
 * The live heap: collected until it stops shrinking. The platform frees each Request's signal
 * bookkeeping in FinalizationRegistry tasks, which a busy machine (vitest's other workers) runs
 * late; a fixed few rounds then counted garbage as growth (13.7 MB once on Node 24 in CI).
 * Three rounds in a row that free under 64 KB end it; 100 rounds bound it.
 */
async function liveHeap(): Promise<number> {
  let used = Number.POSITIVE_INFINITY;
  let steady = 0;
  for (let round = 0; round < 100 && steady < 3; round++) {
    collect!();
    await sleep(20);
    const now = process.memoryUsage().heapUsed;
    steady = used - now < 64 * 1024 ? steady + 1 : 0;
    used = now;
  }
  return used;
}

await run(Math.min(calls, 20_000));
const before = await liveHeap();
await run(calls);
const after = await liveHeap();
console.log(
  JSON.stringify({
    heapGrowth: after - before,
    listeners: getEventListeners(signal, 'abort').length,
  }),
);
