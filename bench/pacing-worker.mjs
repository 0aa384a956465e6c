/**
 * One worker process of bench/pacing.mjs: its own Redis client (node-redis or ioredis, as the
 * parent says) and SDK client on the shared key, its share of the creates all at once when the
 * parent says "go", and a report of how they ended, what the service answered, how long each
 * question to the store took, and how often the store fell back to local pacing.
 *
 * Input (env PACING_BENCH, JSON): baseUrl, apiKey, recipientId, redisUrl, library (`node-redis`
 * or `ioredis`), prefix, calls, mode (`redis` or `memory`), timeout (the store's; absent: its
 * default), sequential (one call after the other, for the store's added latency), trace (record
 * every request: when sent and answered, its status, remaining and reset, and whether the store
 * granted its place or it went by local pacing after the store could not tell).
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { importSdk } from './lib/stats.mjs';

const { Client } = await importSdk();
const { RedisStore } = await importSdk('redis');
const input = JSON.parse(process.env.PACING_BENCH);

/**
 * The customer's own client of `library`, connected, with how to close it: gracefully (QUIT), so
 * the releases of the last answers reach Redis. Dropped, as `disconnect()` and `destroy()` drop
 * them, each left its place taken in the store for 30 s, and the others could not use the
 * window's last places: traced, the last window of a job took 95 to 99 of its 100 requests.
 */
async function connect() {
  if (input.library === 'ioredis') {
    const redis = new Redis(input.redisUrl, { lazyConnect: true });
    redis.on('error', () => {});
    await redis.connect();
    return { client: redis, close: () => redis.quit() };
  }
  const redis = createClient({ url: input.redisUrl });
  redis.on('error', () => {});
  await redis.connect();
  return { client: redis, close: () => redis.close() };
}

const redis = input.mode === 'memory' ? undefined : await connect();
const counts = { requests: 0, limited: 0 };
/** Milliseconds of each question to the store whose answer was "send now". */
const reserveMs = [];
/** With `trace`: each request, in the order sent. */
const trace = [];
/** Places the store granted that no request has used yet: the next requests are the store's. */
let granted = 0;
/** With `trace`: the store's places, as granted and released, and its other answers (`wait`). */
const places = [];
let store;
if (redis) {
  store = new RedisStore({ client: redis.client, prefix: input.prefix, timeout: input.timeout });
  const reserve = store.reserve.bind(store);
  store.reserve = async (key, holder) => {
    const started = performance.now();
    const wait = await reserve(key, holder);
    if (wait === 0) {
      reserveMs.push(performance.now() - started);
      granted++;
      if (input.trace) places.push({ holder, granted: Date.now() });
    } else if (input.trace) {
      places.push({ holder, refused: Date.now(), wait });
    }
    return wait;
  };
  if (input.trace) {
    const release = store.release.bind(store);
    store.release = (key, holder, window) => {
      places.push({ holder, released: Date.now(), remaining: window?.remaining });
      return release(key, holder, window);
    };
  }
}
const warnings = [];
const client = new Client({
  apiKey: input.apiKey,
  baseUrl: input.baseUrl,
  logger: { debug() {}, info() {}, warn: (line) => warnings.push(line), error() {} },
  fetch: async (url, init) => {
    counts.requests++;
    const sent = Date.now();
    const by = !store ? 'memory' : granted > 0 ? 'store' : 'local';
    if (by === 'store') granted--;
    const response = await fetch(url, init);
    if (response.status === 429) counts.limited++;
    if (input.trace) {
      const header = (name) => Number(response.headers.get(`x-ratelimit-${name}`));
      trace.push({
        sent,
        answered: Date.now(),
        status: response.status,
        remaining: header('remaining'),
        reset: header('reset') * 1000,
        by,
      });
    }
    return response;
  },
  rateLimit: store ? { store } : 'auto',
});
const create = (index) =>
  client.recognitions.create({ recipient_id: input.recipientId, message: `Thanks #${index}` });

process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const started = Date.now();
let outcomes;
if (input.sequential) {
  outcomes = [];
  for (let index = 0; index < input.calls; index++) {
    outcomes.push(
      await create(index).then(
        () => ({ status: 'fulfilled' }),
        (reason) => ({ status: 'rejected', reason }),
      ),
    );
  }
} else {
  outcomes = await Promise.allSettled(
    Array.from({ length: input.calls }, (_, index) => create(index)),
  );
}
const ended = Date.now();
await Promise.race([redis?.close(), new Promise((resolve) => setTimeout(resolve, 2000))]);
const failed = outcomes.filter((outcome) => outcome.status === 'rejected');
process.stdout.write(
  `${JSON.stringify({
    started,
    ended,
    calls: input.calls,
    failures: failed.length,
    failureKinds: [...new Set(failed.map((f) => f.reason?.name ?? String(f.reason)))],
    ...counts,
    reserveMs,
    warnings,
    fallbacks: store?.fallbacks ?? 0,
    trace,
    places,
  })}\n`,
);
// Keep-alive sockets to the mock would hold the process a few seconds more.
process.exit(0);
