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
 * Usage: node bench/cold-start.mjs [runs-per-package]
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { report, summarize } from './lib/stats.mjs';

const RUNS = Number(process.argv[2] ?? 15);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const UNDICI = '(reference) Node loading fetch: first new Request()';

const SDK = '@employee-recognition/sdk';
const PACKAGES = {
  [SDK]: SDK,
  [`${SDK}/webhooks`]: `${SDK}/webhooks`,
  openai: 'openai',
  stripe: 'stripe',
  [UNDICI]: UNDICI,
};

function once(specifier) {
  const load =
    specifier === UNDICI
      ? "new Request('http://127.0.0.1/')"
      : `await import(${JSON.stringify(specifier)})`;
  const code = `const c = process.cpuUsage(); const t = performance.now(); ${load}; const w = performance.now() - t; const u = process.cpuUsage(c); console.log(w, (u.user + u.system) / 1000);`;
  const start = performance.now();
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const processMs = performance.now() - start;
  if (child.status !== 0) throw new Error(`import of ${specifier} failed: ${child.stderr}`);
  const [importMs, cpuMs] = child.stdout.trim().split(' ').map(Number);
  return { importMs, cpuMs, processMs };
}

const names = Object.keys(PACKAGES);
const runs = Object.fromEntries(
  names.map((name) => [name, { importMs: [], cpuMs: [], processMs: [] }]),
);
// Per round, each SDK entry's import against openai-node's in the same round.
const ENTRIES = [SDK, `${SDK}/webhooks`];
const ratios = Object.fromEntries(ENTRIES.map((entry) => [entry, { importMs: [], cpuMs: [] }]));
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
  for (const entry of ENTRIES) {
    for (const measure of ['importMs', 'cpuMs']) {
      ratios[entry][measure].push(runs[entry][measure].at(-1) / runs.openai[measure].at(-1));
    }
  }
  empty.processMs.push(once('node:os').processMs);
}

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
  toOpenai: Object.fromEntries(
    ENTRIES.map((entry) => [
      entry,
      { importMs: summarize(ratios[entry].importMs), cpuMs: summarize(ratios[entry].cpuMs) },
    ]),
  ),
  emptyProcessMs: summarize(empty.processMs),
});
