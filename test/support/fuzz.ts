/** Runs for a property: its base count in `npm test`, times `FUZZ_RUNS` for a longer local run. */
export function fuzzRuns(base: number): number {
  const scale = Number(process.env.FUZZ_RUNS ?? 1);
  return Math.max(1, Math.round(base * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}

/** The fixed seed every property runs with, so a failure replays. */
export const FUZZ_SEED = 20261128;
