/**
 * Benchmark 2: paging through a long list.
 *
 * `timing`: 10,000 recognitions in pages of 100 from a server that answers each page after
 * 5 ms, with the caller spending 5 ms per page, once as I/O wait (an awaited 5 ms timer, like
 * writing the page to a database) and once as CPU work (5 ms of busy computation). `for await`
 * over `list()` (one page fetched ahead) against a plain sequential loop (await a page, work,
 * then ask for the next), in alternating order over several rounds.
 *
 * `memory`: iterates N records with `for await` (no delays) in a process run with --expose-gc,
 * sampling heapUsed at every page boundary, and reports the peaks above the heap before the loop,
 * so 10,000 and 100,000 records can be compared. "Raw" is heapUsed as it is; "live" is after a
 * collection, one turn of the event loop and another collection. The turn matters: undici
 * registers every Request that has a signal (ky always gives one) with a FinalizationRegistry
 * whose entries keep that signal until Node runs the cleanup task; collected but not yet cleaned
 * up, they would count as live and make the figure depend on when Node last got round to it.
 *
 * Usage: node --expose-gc bench/paging.mjs <server-url> timing [rounds]
 *        node --expose-gc bench/paging.mjs <server-url> memory <records>
 */
import v8 from 'node:v8';
import { importSdk, report, sleep, summarize } from './lib/stats.mjs';

const [url, mode, arg] = process.argv.slice(2);
const API_KEY = `rk_test_${'a1B2c3D4'.repeat(4)}`;
const PAGE = 100;
const { Client } = await importSdk();

/** A client whose server holds `records` recognitions and answers each request after `delay` ms. */
const clientFor = (records, delay) =>
  new Client({ apiKey: API_KEY, baseUrl: `${url}/s/${records}/${delay}`, maxRetries: 0 });

function busy(ms) {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

const WORK = {
  'I/O wait': () => sleep(5),
  'CPU work': async () => busy(5),
};

/** Sum of the records' points: keeps the consumer's reads from being optimized away. */
let sink = 0;
const consume = (recognition) => {
  sink += recognition.points;
};

async function prefetching(client, work) {
  let count = 0;
  for await (const recognition of client.recognitions.list({ limit: PAGE })) {
    consume(recognition);
    if (++count % PAGE === 0) await work();
  }
  return count;
}

async function sequential(client, work) {
  let count = 0;
  let page = await client.recognitions.list({ limit: PAGE });
  while (true) {
    for (const recognition of page.data) consume(recognition);
    count += page.data.length;
    await work();
    if (!page.hasNextPage()) return count;
    page = await page.getNextPage();
  }
}

async function timing(rounds) {
  const RECORDS = 10_000;
  const client = clientFor(RECORDS, 5);
  const loops = { 'for await (prefetch)': prefetching, 'sequential loop': sequential };
  const results = {};
  for (const [workName, work] of Object.entries(WORK)) {
    const times = Object.fromEntries(Object.keys(loops).map((name) => [name, []]));
    const ratios = [];
    // One short warm-up pass of each loop.
    for (const loop of Object.values(loops)) await loop(clientFor(1000, 0), work);
    for (let round = 0; round < rounds; round++) {
      const order = Object.keys(loops);
      if (round % 2) order.reverse();
      for (const name of order) {
        const start = performance.now();
        const count = await loops[name](client, work);
        times[name].push(performance.now() - start);
        if (count !== RECORDS) throw new Error(`${name} saw ${count} records, not ${RECORDS}`);
      }
      ratios.push(times['for await (prefetch)'][round] / times['sequential loop'][round]);
    }
    results[workName] = {
      ms: Object.fromEntries(Object.entries(times).map(([name, t]) => [name, summarize(t)])),
      ratio: summarize(ratios),
    };
  }
  report({
    records: RECORDS,
    pageSize: PAGE,
    serverDelayMs: 5,
    workMsPerPage: 5,
    results,
    checksum: sink,
  });
}

/**
 * heapUsed of what is still reachable (collect, let Node run pending finalizers, collect), and
 * the part of it that is not compiled code: V8 goes on optimizing functions for a long while,
 * and its code space counts in heapUsed.
 */
async function liveHeap() {
  globalThis.gc();
  await sleep(5);
  globalThis.gc();
  const code = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'code_space');
  const used = process.memoryUsage().heapUsed;
  return [used, used - (code?.space_used_size ?? 0)];
}

async function memory(records) {
  if (!globalThis.gc) throw new Error('run with --expose-gc');
  const client = clientFor(records, 0);
  // Warm up on 20,000 records, so that compiled code and connection state are in the baseline
  // (V8 keeps optimizing for a while, and its code counts in heapUsed).
  for await (const recognition of clientFor(20_000, 0).recognitions.list({ limit: PAGE })) {
    consume(recognition);
  }
  const [baseline, baselineNonCode] = await liveHeap();
  let peakRaw = 0;
  const live = [];
  let count = 0;
  for await (const recognition of client.recognitions.list({ limit: PAGE })) {
    consume(recognition);
    if (++count % PAGE === 0) {
      peakRaw = Math.max(peakRaw, process.memoryUsage().heapUsed);
      live.push([count, ...(await liveHeap())]);
    }
  }
  if (count !== records) throw new Error(`saw ${count} records, not ${records}`);
  report({
    records,
    baselineBytes: baseline,
    peakLiveAboveBaselineBytes: Math.max(...live.map(([, bytes]) => bytes)) - baseline,
    medianLiveAboveBaselineBytes: summarize(live.map(([, bytes]) => bytes)).median - baseline,
    liveBytesPerRecord: slope(live),
    peakLiveNonCodeAboveBaselineBytes:
      Math.max(...live.map(([, , bytes]) => bytes)) - baselineNonCode,
    peakRawAboveBaselineBytes: peakRaw - baseline,
    checksum: sink,
  });
}

/** Least-squares slope of [x, y] points: how the live heap trends per record read. */
function slope(points) {
  const n = points.length;
  const mx = points.reduce((sum, [px]) => sum + px, 0) / n;
  const my = points.reduce((sum, [, py]) => sum + py, 0) / n;
  let num = 0;
  let den = 0;
  for (const [px, py] of points) {
    num += (px - mx) * (py - my);
    den += (px - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

if (mode === 'timing') await timing(Number(arg ?? 7));
else if (mode === 'memory') await memory(Number(arg));
else throw new Error(`unknown mode ${mode}`);
