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

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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
