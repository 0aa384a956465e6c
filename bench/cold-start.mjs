/**
 * Benchmark 5: cold start. For each package, a fresh Node process times `await import()` of it
 * (performance.now() and process.cpuUsage() around the import, so Node's own start-up is left
 * out) and, separately, the whole process from spawn to exit. The SDK's ratio to openai-node is
 * taken per round, each SDK process paired with the openai process of the same round. Processes run one at a time, the packages in rotating
 * order, so that disk cache and machine load fall on all of them alike. A reference row times
 * Node's lazy load of its fetch implementation (undici) on the first touch of `Request`: a
 * package that touches it at import (ky's feature checks do) pays that there, one that does not
 * pays it on its first request instead.
 *
 * "First request" rows time `import` plus the first request, `users.get` against the bench
 * server, in the same fresh process: Node loads its fetch on the first request anyway, and ky
 * checks the platform's Request support when it loads, so import alone flatters a package that
 * defers that work. The SDK and openai-node are paired per round on these too.
 *
 * BENCH_COMPARE_DIR=<build dir> adds the same "import + first request" for another build of the
 * SDK (its index.js, by path: the build before a change, bench/lib/baseline.mjs), paired per round
 * with the current build's.
 *
 * Usage: node bench/cold-start.mjs [runs-per-package]
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pairedRatios, report, summarize } from './lib/stats.mjs';
import { startServer, USER } from './server.mjs';

const RUNS = Number(process.argv[2] ?? 15);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const UNDICI = '(reference) Node loading fetch: first new Request()';

const SDK = '@employee-recognition/sdk';
const SDK_FIRST = `${SDK}: import + first request`;
const OPENAI_FIRST = 'openai: import + first request';
const BASELINE_FIRST = `${SDK} (baseline build): import + first request`;
const BASELINE = process.env.BENCH_COMPARE_DIR;
const PACKAGES = {
  [SDK]: SDK,
  [`${SDK}/webhooks`]: `${SDK}/webhooks`,
  openai: 'openai',
  stripe: 'stripe',
  [UNDICI]: UNDICI,
  [SDK_FIRST]: SDK_FIRST,
  [OPENAI_FIRST]: OPENAI_FIRST,
  ...(BASELINE && { [BASELINE_FIRST]: BASELINE_FIRST }),
};

// The first requests go to the bench server, in a process of its own (spawnSync blocks this one).
const server = await startServer();
const API_KEY = `rk_test_${'a1B2c3D4'.repeat(4)}`;
const sdkFirst = (specifier) =>
  `const { Client } = await import('${specifier}'); await new Client({ apiKey: '${API_KEY}', baseUrl: '${server.url}', maxRetries: 0 }).users.get('${USER.id}')`;
const FIRST_REQUEST = {
  [SDK_FIRST]: sdkFirst(SDK),
  ...(BASELINE && { [BASELINE_FIRST]: sdkFirst(pathToFileURL(`${BASELINE}/index.js`).href) }),
  [OPENAI_FIRST]: `const { default: OpenAI } = await import('openai'); await new OpenAI({ apiKey: '${API_KEY}', baseURL: '${server.url}', maxRetries: 0 }).get('/v1/users/${USER.id}')`,
};

function once(specifier) {
  const load =
    specifier === UNDICI
      ? "new Request('http://127.0.0.1/')"
      : (FIRST_REQUEST[specifier] ?? `await import(${JSON.stringify(specifier)})`);
  const code = `const c = process.cpuUsage(); const t = performance.now(); ${load}; const w = performance.now() - t; const u = process.cpuUsage(c); console.log(w, (u.user + u.system) / 1000);`;
  const start = performance.now();
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const processMs = performance.now() - start;
  if (child.status !== 0) {
    throw new Error(`import of ${specifier} failed: ${child.stderr || child.error}`);
  }
  const [importMs, cpuMs] = child.stdout.trim().split(' ').map(Number);
  return { importMs, cpuMs, processMs };
}

const names = Object.keys(PACKAGES);
const runs = Object.fromEntries(
  names.map((name) => [name, { importMs: [], cpuMs: [], processMs: [] }]),
);
// Each SDK entry is paired per round with openai-node's import, and the SDK's import and first
// request with openai-node's.
const ENTRIES = [SDK, `${SDK}/webhooks`, SDK_FIRST];
const PAIRED_WITH = { [SDK]: 'openai', [`${SDK}/webhooks`]: 'openai', [SDK_FIRST]: OPENAI_FIRST };
// Node's own start-up, for reference: the same process importing nothing.
const empty = { processMs: [] };
for (const name of names) once(PACKAGES[name]); // warm the disk cache
for (let run = 0; run < RUNS; run++) {
  for (let i = 0; i < names.length; i++) {
    const name = names[(i + run) % names.length];
    const { importMs, cpuMs, processMs } = once(PACKAGES[name]);
    runs[name].importMs.push(importMs);
    runs[name].cpuMs.push(cpuMs);
    runs[name].processMs.push(processMs);
  }
  empty.processMs.push(once('node:os').processMs);
}
await server.stop();
const paired = (name, other) => ({
  importMs: pairedRatios(runs[name].importMs, runs[other].importMs),
  cpuMs: pairedRatios(runs[name].cpuMs, runs[other].cpuMs),
});

report({
  runs: RUNS,
  packages: Object.fromEntries(
    names.map((name) => [
      name,
      {
        importMs: summarize(runs[name].importMs),
        cpuMs: summarize(runs[name].cpuMs),
        processMs: summarize(runs[name].processMs),
      },
    ]),
  ),
  toOpenai: Object.fromEntries(ENTRIES.map((entry) => [entry, paired(entry, PAIRED_WITH[entry])])),
  ...(BASELINE && { toBaseline: paired(SDK_FIRST, BASELINE_FIRST) }),
  emptyProcessMs: summarize(empty.processMs),
});
