/**
 * Benchmark 1: per-call overhead. Sequential calls (one at a time, keep-alive) of the same two
 * operations through plain fetch + JSON.parse, the SDK, ky alone and openai-node's client, against
 * the bench server. Targets run in interleaved rounds (the order rotates each round) so that drift
 * of the machine hits all of them alike; each round times a batch of calls per target, and the
 * SDK/fetch ratio is taken per round, so the ratio's spread is that of paired measurements.
 *
 * Each batch also records the process's CPU time per call (user + system), which other load on
 * the machine disturbs less than wall time. BENCH_COMPARE_DIR=<build dir> adds a second SDK build
 * (its index.js) as one more target, for before/after comparisons of a change in one process.
 *
 * Collection is left to V8: a forced gc() before each batch made every target several times
 * slower (it throws away V8's warmed-up state), the larger code paths more than fetch.
 *
 * Usage: node bench/per-call.mjs <server-url> [rounds] [calls-per-round]
 */

import { pathToFileURL } from 'node:url';
import ky from 'ky';
import OpenAI from 'openai';
import { importSdk, report, summarize } from './lib/stats.mjs';
import { USER } from './server.mjs';

const [url, roundsArg = '21', callsArg = '300'] = process.argv.slice(2);
const ROUNDS = Number(roundsArg);
const CALLS = Number(callsArg);
const API_KEY = `rk_test_${'a1B2c3D4'.repeat(4)}`;
const headers = { authorization: `Bearer ${API_KEY}`, accept: 'application/json' };

const { Client } = await importSdk();
const client = new Client({ apiKey: API_KEY, baseUrl: url });
const kyClient = ky.create({ prefixUrl: url, headers });
// ky's floor: the root ky with one prebuilt options object, no per-call merge of instance defaults.
const kyOptions = { headers, retry: { limit: 2 }, timeout: 30_000 };
const openai = new OpenAI({ apiKey: API_KEY, baseURL: url });
const compareDir = process.env.BENCH_COMPARE_DIR;
const compare = compareDir
  ? new (await import(pathToFileURL(`${compareDir}/index.js`).href)).Client({
      apiKey: API_KEY,
      baseUrl: url,
    })
  : undefined;

const userPath = `/v1/users/${USER.id}`;
const listPath = '/v1/recognitions';

const operations = {
  'users.get': {
    fetch: async () => JSON.parse(await (await fetch(`${url}${userPath}`, { headers })).text()),
    sdk: () => client.users.get(USER.id),
    ky: () => kyClient.get(userPath.slice(1)).json(),
    'ky (prebuilt options)': () => ky(`${url}${userPath}`, kyOptions).json(),
    openai: () => openai.get(userPath),
    ...(compare && { 'sdk (compare build)': () => compare.users.get(USER.id) }),
  },
  'recognitions.list (20 records)': {
    fetch: async () =>
      JSON.parse(await (await fetch(`${url}${listPath}?limit=20`, { headers })).text()),
    sdk: () => client.recognitions.list({ limit: 20 }),
    ky: () => kyClient.get(listPath.slice(1), { searchParams: { limit: 20 } }).json(),
    'ky (prebuilt options)': () => ky(`${url}${listPath}?limit=20`, kyOptions).json(),
    openai: () => openai.get(listPath, { query: { limit: 20 } }),
    ...(compare && { 'sdk (compare build)': () => compare.recognitions.list({ limit: 20 }) }),
  },
};

/** Mean wall and CPU milliseconds per call over a batch of sequential calls. */
async function batch(call, calls) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < calls; i++) await call();
  const wall = (performance.now() - start) / calls;
  const { user, system } = process.cpuUsage(cpu);
  return { wall, cpu: (user + system) / 1000 / calls };
}

async function check(name, target, call) {
  const body = await call();
  const records = Array.isArray(body.data) ? body.data.length : body.data?.id ? 1 : 0;
  if (records === 0) throw new Error(`${name} via ${target} returned no records`);
}

const results = {};
for (const [name, targets] of Object.entries(operations)) {
  const names = Object.keys(targets);
  for (const target of names) await check(name, target, targets[target]);
  // Warm-up: lets every path reach optimized code and the keep-alive pool fill.
  for (const target of names) await batch(targets[target], CALLS);
  const wall = Object.fromEntries(names.map((target) => [target, []]));
  const cpu = Object.fromEntries(names.map((target) => [target, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const target of order) {
      const time = await batch(targets[target], CALLS);
      wall[target].push(time.wall);
      cpu[target].push(time.cpu);
    }
  }
  const ratio = (times, target) => times[target].map((time, round) => time / times.fetch[round]);
  results[name] = Object.fromEntries(
    names.map((target) => [
      target,
      {
        perCallMs: summarize(wall[target]),
        ratioToFetch: summarize(ratio(wall, target)),
        cpuPerCallMs: summarize(cpu[target]),
        cpuRatioToFetch: summarize(ratio(cpu, target)),
      },
    ]),
  );
}

report({ rounds: ROUNDS, callsPerRound: CALLS, operations: results });
