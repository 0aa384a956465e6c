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
 * collecting garbage and sampling heapUsed at every page boundary; reports the peak of what
 * stays reachable, above the heap before the loop, so 10,000 and 100,000 records can be compared.
 *
 * Usage: node --expose-gc bench/paging.mjs <server-url> timing [rounds]
 *        node --expose-gc bench/paging.mjs <server-url> memory <records>
 */
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

async function memory(records) {
  if (!globalThis.gc) throw new Error('run with --expose-gc');
  const client = clientFor(records, 0);
  // Warm up on a short list, so that compiled code and connection state are in the baseline.
  for await (const recognition of clientFor(2 * PAGE, 0).recognitions.list({ limit: PAGE })) {
    consume(recognition);
  }
  gc();
  const baseline = process.memoryUsage().heapUsed;
  let peakLive = 0;
  let peakRaw = 0;
  let count = 0;
  for await (const recognition of client.recognitions.list({ limit: PAGE })) {
    consume(recognition);
    if (++count % PAGE === 0) {
      peakRaw = Math.max(peakRaw, process.memoryUsage().heapUsed);
      gc();
      peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
    }
  }
  if (count !== records) throw new Error(`saw ${count} records, not ${records}`);
  report({
    records,
    baselineBytes: baseline,
    peakLiveAboveBaselineBytes: peakLive - baseline,
    peakRawAboveBaselineBytes: peakRaw - baseline,
    checksum: sink,
  });
}

if (mode === 'timing') await timing(Number(arg ?? 7));
else if (mode === 'memory') await memory(Number(arg));
else throw new Error(`unknown mode ${mode}`);
