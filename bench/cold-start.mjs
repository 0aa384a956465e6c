/**
 * Benchmark 5: cold start. For each package, a fresh Node process times `await import()` of it
 * (performance.now() around the import, so Node's own start-up is left out) and, separately,
 * the whole process from spawn to exit. Processes run one at a time, the packages in rotating
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

const PACKAGES = {
  '@employee-recognition/sdk': '@employee-recognition/sdk',
  openai: 'openai',
  stripe: 'stripe',
  [UNDICI]: UNDICI,
};

function once(specifier) {
  const load =
    specifier === UNDICI
      ? "new Request('http://127.0.0.1/')"
      : `await import(${JSON.stringify(specifier)})`;
  const code = `const t = performance.now(); ${load}; console.log(performance.now() - t);`;
  const start = performance.now();
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const processMs = performance.now() - start;
  if (child.status !== 0) throw new Error(`import of ${specifier} failed: ${child.stderr}`);
  return { importMs: Number(child.stdout.trim()), processMs };
}

const names = Object.keys(PACKAGES);
const runs = Object.fromEntries(names.map((name) => [name, { importMs: [], processMs: [] }]));
// Node's own start-up, for reference: the same process importing nothing.
const empty = { processMs: [] };
for (const name of names) once(PACKAGES[name]); // warm the disk cache
for (let run = 0; run < RUNS; run++) {
  for (let i = 0; i < names.length; i++) {
    const name = names[(i + run) % names.length];
    const { importMs, processMs } = once(PACKAGES[name]);
    runs[name].importMs.push(importMs);
    runs[name].processMs.push(processMs);
  }
  empty.processMs.push(once('node:os').processMs);
}

report({
  runs: RUNS,
  packages: Object.fromEntries(
    names.map((name) => [
      name,
      { importMs: summarize(runs[name].importMs), processMs: summarize(runs[name].processMs) },
    ]),
  ),
  emptyProcessMs: summarize(empty.processMs),
});
