/**
 * Benchmark 1b: the client-side cost of a call alone, without a network: every target gets a
 * `fetch` that answers at once with the same fixed body, so what remains is the work done in
 * this process per call (options, Request objects and signals, hooks, body reading, JSON.parse,
 * validation, promises). Less disturbed by the machine than the loopback benchmark, and the
 * figure to compare builds with (BENCH_COMPARE_DIR=<build dir> adds a second SDK build as the
 * target `sdk (baseline)`).
 *
 * Usage: node bench/overhead.mjs [rounds] [calls-per-round]
 */
import { pathToFileURL } from 'node:url';
import ky from 'ky';
import { importSdk, report, summarize } from './lib/stats.mjs';
import { recognitionsPage, USER } from './server.mjs';

const [roundsArg = '15', callsArg = '2000'] = process.argv.slice(2);
const ROUNDS = Number(roundsArg);
const CALLS = Number(callsArg);
const API_KEY = `rk_test_${'a1B2c3D4'.repeat(4)}`;
const BASE = 'http://127.0.0.1:9';
const userBody = JSON.stringify({ data: USER });
const listBody = recognitionsPage(20);
const instantFetch = async (input) =>
  new Response(String(input.url ?? input).includes('/recognitions') ? listBody : userBody, {
    headers: { 'content-type': 'application/json' },
  });

const { Client } = await importSdk();
const { createRecorder } = await importSdk('testing');
const sdk = new Client({ apiKey: API_KEY, baseUrl: BASE, fetch: instantFetch });
// The same client recorded in memory (docs/testing.md, "Recording real traffic"): each call's
// entry built and redacted; past maxEntries (1,000) entries are counted, still redacted.
const recorder = createRecorder({ fetch: instantFetch });
const recorded = new Client({ apiKey: API_KEY, baseUrl: BASE, fetch: recorder.fetch });
const compareDir = process.env.BENCH_COMPARE_DIR;
const compare = compareDir
  ? new (await import(pathToFileURL(`${compareDir}/index.js`).href)).Client({
      apiKey: API_KEY,
      baseUrl: BASE,
      fetch: instantFetch,
    })
  : undefined;
const kyOptions = {
  headers: { authorization: `Bearer ${API_KEY}`, accept: 'application/json' },
  retry: { limit: 2 },
  timeout: 30_000,
  fetch: instantFetch,
};
const parse = async (response) => JSON.parse(await response.text());

const operations = {
  'users.get': {
    'fetch + JSON.parse': () => instantFetch(`${BASE}/v1/users/${USER.id}`).then(parse),
    'ky (prebuilt options)': () => ky(`${BASE}/v1/users/${USER.id}`, kyOptions).json(),
    sdk: () => sdk.users.get(USER.id),
    'sdk (recorded)': () => recorded.users.get(USER.id),
    ...(compare && { 'sdk (baseline)': () => compare.users.get(USER.id) }),
  },
  'recognitions.list (20 records)': {
    'fetch + JSON.parse': () => instantFetch(`${BASE}/v1/recognitions?limit=20`).then(parse),
    'ky (prebuilt options)': () => ky(`${BASE}/v1/recognitions?limit=20`, kyOptions).json(),
    sdk: () => sdk.recognitions.list({ limit: 20 }),
    'sdk (recorded)': () => recorded.recognitions.list({ limit: 20 }),
    ...(compare && { 'sdk (baseline)': () => compare.recognitions.list({ limit: 20 }) }),
  },
};

/** CPU microseconds per call over a batch. */
async function batch(call) {
  const start = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await call();
  const { user, system } = process.cpuUsage(start);
  return (user + system) / CALLS;
}

const results = {};
for (const [name, targets] of Object.entries(operations)) {
  const names = Object.keys(targets);
  for (const target of names) await batch(targets[target]); // warm-up
  const cpu = Object.fromEntries(names.map((target) => [target, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < names.length; i++) {
      const target = names[(i + round) % names.length];
      cpu[target].push(await batch(targets[target]));
    }
  }
  results[name] = Object.fromEntries(names.map((target) => [target, summarize(cpu[target])]));
}

await recorder.close();
report({ rounds: ROUNDS, callsPerRound: CALLS, operations: results });
