// Types of the helpers the tests import (test/bench/stats.test.ts); the benchmarks are plain ESM.

/** Median, quartiles (linear interpolation) and extremes of a series. */
export interface Summary {
  n: number;
  median: number;
  q1: number;
  q3: number;
  min: number;
  max: number;
}

export function summarize(values: readonly number[]): Summary;
export function pairedRatios(
  numerators: readonly number[],
  denominators: readonly number[],
): Summary;
export function liveHeap(): Promise<number>;
export function sleep(ms: number): Promise<void>;
export function report(result: unknown): void;
export function importSdk(entry?: string): Promise<Record<string, unknown>>;
