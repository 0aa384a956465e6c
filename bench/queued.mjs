/**
 * Benchmark 7: the memory a call holds while it waits for the rate limit. One client (defaults:
 * `rateLimit: 'auto'`) talks to the bench server under its `/limited` prefix, whose every answer
 * says the window is spent and resets in 50 s. A first call learns that; every later call then
 * queues in the client, sending nothing.
 *
 * The measure, in a process run with `--expose-gc`:
 *
 * 1. Warm-up: 1,000 creates queued and cancelled, so that the code of the queue, the call and the
 *    abort path is compiled and every lazily made object of the client exists before the count.
 * 2. The live heap is taken (collected until it stops shrinking: bench/lib/stats.mjs), with the
 *    array that will hold the calls' promises already allocated, so that only what the calls
 *    themselves hold is counted.
 * 3. `calls` `recognitions.create` calls are started, each with its own message (as a bulk job
 *    over a CSV sends them) and one shared AbortSignal (as a job that can be cancelled passes).
 * 4. After a few turns of the event loop the live heap is taken again: the difference, over the
 *    number of calls, is what one queued call holds (its promise, its request options and body,
 *    its place in the queue, whatever the SDK builds for it before it is sent).
 * 5. The signal aborts. Every call must reject with `ApiUserAbortError`, the server must have
 *    received no request from them, and no timer may be left: otherwise the run fails.
 *
 * Usage: node --expose-gc bench/queued.mjs <server-url> [calls]
 */
import { getEventListeners } from 'node:events';
import { importSdk, liveHeap, report } from './lib/stats.mjs';
import { USER } from './server.mjs';

const [url, callsArg = '10000'] = process.argv.slice(2);
const CALLS = Number(callsArg);
const WARM_UP = 1000;
const API_KEY = `rk_test_${'a1B2c3D4'.repeat(4)}`;
if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');

const { Client, ApiUserAbortError } = await importSdk();
const client = new Client({ apiKey: API_KEY, baseUrl: `${url}/limited` });
const answered = async () => (await (await fetch(`${url}/bench/requests`)).json()).requests;
const timers = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
const turns = async (count) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** Starts `count` creates on `signal` into `into` (from index 0), each with its own message. */
function queue(into, count, signal) {
  for (let index = 0; index < count; index++) {
    into[index] = client.recognitions.create(
      { recipient_id: USER.team_id, message: `Thank you for the help with row ${index}` },
      { signal },
    );
  }
}

/** Aborts the calls and checks that each rejected with the SDK's abort error. */
async function cancel(calls, controller) {
  const outcomes = Promise.allSettled(calls);
  controller.abort();
  const wrong = (await outcomes).filter(
    (outcome) => !(outcome.status === 'rejected' && outcome.reason instanceof ApiUserAbortError),
  );
  if (wrong.length > 0) {
    const first = wrong[0];
    throw new Error(
      `${wrong.length} of ${calls.length} queued calls did not end with ApiUserAbortError: ${first.status} ${first.reason?.name ?? ''} ${first.reason?.message ?? ''}`,
    );
  }
}

// The first call spends the window: every later one queues.
await client.users.get(USER.id);
const warmUp = new AbortController();
const warmUpCalls = new Array(WARM_UP);
queue(warmUpCalls, WARM_UP, warmUp.signal);
await turns(5);
await cancel(warmUpCalls, warmUp);

const calls = Array.from({ length: CALLS }, () => undefined);
const controller = new AbortController();
const sentBefore = await answered();
const before = await liveHeap();
const started = performance.now();
queue(calls, CALLS, controller.signal);
await turns(5);
const queueMs = performance.now() - started;
const after = await liveHeap();
const whileQueued = {
  timers: timers(),
  abortListeners: getEventListeners(controller.signal, 'abort').length,
  sent: (await answered()) - sentBefore,
};
await cancel(calls, controller);
await turns(5);
const left = { timers: timers(), sent: (await answered()) - sentBefore };
if (whileQueued.sent > 0 || left.sent > 0) {
  throw new Error(
    `${left.sent} queued calls reached the server: the window reset before the measure ended`,
  );
}
if (left.timers > 0) throw new Error(`${left.timers} timer(s) left once every call was cancelled`);

const heapBytes = after - before;
report({
  node: process.version,
  calls: CALLS,
  heapBytes,
  bytesPerCall: heapBytes / CALLS,
  queueMs,
  whileQueued,
  left,
});
