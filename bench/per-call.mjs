/**
 * Benchmark 1: per-call cost. Sequential calls (one at a time, keep-alive) of the same two
 * operations through plain fetch + JSON.parse, the SDK, openai-node's client and (in `full` mode)
 * ky alone, against the bench server. Targets run in interleaved rounds after a warm-up; each
 * round times a batch of calls per target, and ratios are taken per round (paired), so that a
 * slow round of the machine slows both sides of its ratio.
 *
 * The SDK and openai-node run back to back in every round, in alternating order (SDK first in
 * even rounds), and that pair rotates with the other targets: the SDK / openai-node ratio of a
 * round compares two batches run moments apart. Its median over the rounds, with the quartiles,
 * is the figure the targets are set on (docs/benchmarks.md).
 *
 * Each batch records wall time and the process's CPU time per call (user + system); the server
 * runs in another process, so CPU is this client's own work, which other load on the machine
 * disturbs less than wall time. BENCH_COMPARE_DIR=<build dir> adds a second SDK build (its
 * index.js) as the target `sdk (baseline)`, for the build before a change in the same process.
 *
 * Collection is left to V8: a forced gc() before each batch made every target several times
 * slower (it throws away V8's warmed-up state), the larger code paths more than fetch.
 *
 * Usage: node bench/per-call.mjs <server-url> [rounds] [calls-per-round] [full|paired]
 * (`paired`: fetch, the SDK, openai-node and the baseline only, for the other Node versions.)
 */

import { pathToFileURL } from 'node:url';
import ky from 'ky';
import OpenAI from 'openai';
import { importSdk, pairedRatios, report, summarize } from './lib/stats.mjs';
import { USER } from './server.mjs';

const [url, roundsArg = '21', callsArg = '300', mode = 'full'] = process.argv.slice(2);
const ROUNDS = Number(roundsArg);
const CALLS = Number(callsArg);
const FULL = mode === 'full';
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
    openai: () => openai.get(userPath),
    ...(compare && { 'sdk (baseline)': () => compare.users.get(USER.id) }),
    ...(FULL && {
      ky: () => kyClient.get(userPath.slice(1)).json(),
      'ky (prebuilt options)': () => ky(`${url}${userPath}`, kyOptions).json(),
    }),
  },
  'recognitions.list (20 records)': {
    fetch: async () =>
      JSON.parse(await (await fetch(`${url}${listPath}?limit=20`, { headers })).text()),
    sdk: () => client.recognitions.list({ limit: 20 }),
    openai: () => openai.get(listPath, { query: { limit: 20 } }),
    ...(compare && { 'sdk (baseline)': () => compare.recognitions.list({ limit: 20 }) }),
    ...(FULL && {
      ky: () => kyClient.get(listPath.slice(1), { searchParams: { limit: 20 } }).json(),
      'ky (prebuilt options)': () => ky(`${url}${listPath}?limit=20`, kyOptions).json(),
    }),
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

/**
 * The order of round `round`: the SDK and openai-node as one unit, their order alternating, the
 * unit and the other targets rotating by one place a round.
 */
function order(names, round) {
  const pair = round % 2 === 0 ? ['sdk', 'openai'] : ['openai', 'sdk'];
  const units = [pair, ...names.filter((name) => !pair.includes(name)).map((name) => [name])];
  return units.flatMap((_, i) => units[(i + round) % units.length]);
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
    for (const target of order(names, round)) {
      const time = await batch(targets[target], CALLS);
      wall[target].push(time.wall);
      cpu[target].push(time.cpu);
    }
  }
  results[name] = {
    targets: Object.fromEntries(
      names.map((target) => [
        target,
        {
          perCallMs: summarize(wall[target]),
          ratioToFetch: pairedRatios(wall[target], wall.fetch),
          cpuPerCallMs: summarize(cpu[target]),
          cpuRatioToFetch: pairedRatios(cpu[target], cpu.fetch),
        },
      ]),
    ),
    toOpenai: { cpu: pairedRatios(cpu.sdk, cpu.openai), wall: pairedRatios(wall.sdk, wall.openai) },
    ...(compare && {
      toBaseline: {
        cpu: pairedRatios(cpu.sdk, cpu['sdk (baseline)']),
        wall: pairedRatios(wall.sdk, wall['sdk (baseline)']),
      },
    }),
  };
}

report({ node: process.version, rounds: ROUNDS, callsPerRound: CALLS, operations: results });
