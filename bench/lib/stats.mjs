/** Small statistics and timing helpers shared by the benchmarks. */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The q-quantile (0–1) of a list of numbers, by linear interpolation. */
function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}

/** Median, quartiles and extremes of repeated measurements. */
export function summarize(values) {
  return {
    n: values.length,
    median: quantile(values, 0.5),
    q1: quantile(values, 0.25),
    q3: quantile(values, 0.75),
    min: Math.min(...values),
    max: Math.max(...values),
  };
}

/**
 * The per-round ratios of two paired series (round i of `numerators` over round i of
 * `denominators`), summarized: the figure for "A costs N× B" when both ran in the same rounds,
 * so that a slow round of the machine slows both sides of its ratio.
 */
export function pairedRatios(numerators, denominators) {
  if (numerators.length !== denominators.length) {
    throw new Error(`unpaired series: ${numerators.length} against ${denominators.length} rounds`);
  }
  return summarize(numerators.map((value, round) => value / denominators[round]));
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The live heap (`heapUsed`), in a process run with `--expose-gc`: collected until it stops
 * shrinking. The platform frees some objects (each Request's signal bookkeeping) in
 * FinalizationRegistry tasks that a busy machine runs late, so a fixed few collections count
 * garbage as live. Three rounds in a row that free under 64 KiB end it; 100 rounds bound it.
 */
export async function liveHeap() {
  let used = Number.POSITIVE_INFINITY;
  let steady = 0;
  for (let round = 0; round < 100 && steady < 3; round++) {
    globalThis.gc();
    await sleep(20);
    const now = process.memoryUsage().heapUsed;
    steady = used - now < 64 * 1024 ? steady + 1 : 0;
    used = now;
  }
  return used;
}

/** Prints a benchmark's result as the last line of stdout, for bench/run.mjs to read. */
export function report(result) {
  process.stdout.write(`\n@@RESULT ${JSON.stringify(result)}\n`);
}

/**
 * Imports the built SDK as its users do, by the package's name (bench/ sits inside the package,
 * so Node resolves the name to dist/ through the package's own `exports`). BENCH_SDK_DIR points
 * at another build directory instead, for comparing builds.
 */
export function importSdk(entry = 'index') {
  const dir = process.env.BENCH_SDK_DIR;
  if (dir) return import(pathToFileURL(join(dir, `${entry}.js`)).href);
  return import(
    entry === 'index' ? '@employee-recognition/sdk' : `@employee-recognition/sdk/${entry}`
  );
}
