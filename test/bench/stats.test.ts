import { describe, expect, it } from 'vitest';
import { pairedRatios, summarize } from '../../bench/lib/stats.mjs';

describe('summarize', () => {
  it('gives the median and quartiles by linear interpolation between ranks', () => {
    expect(summarize([5, 1, 4, 2, 3])).toEqual({ n: 5, median: 3, q1: 2, q3: 4, min: 1, max: 5 });
    expect(summarize([4, 1, 3, 2])).toMatchObject({ median: 2.5, q1: 1.75, q3: 3.25 });
  });

  it('leaves the measurements in their order', () => {
    const values = [3, 1, 2];
    summarize(values);
    expect(values).toEqual([3, 1, 2]);
  });

  it('is NaN for no measurement at all, never a made-up figure', () => {
    expect(summarize([]).median).toBeNaN();
  });
});

describe('pairedRatios', () => {
  it('summarizes the ratio of each round, not the ratio of the medians', () => {
    // Per round: 2, 0.5, 3 (median 2); the medians' ratio would be 3 / 2 = 1.5.
    expect(pairedRatios([10, 1, 3], [5, 2, 1])).toMatchObject({ median: 2, q1: 1.25, q3: 2.5 });
  });

  it('keeps a slow round of the machine out of the ratio when it slows both sides alike', () => {
    const sdk = [100, 100, 400, 100];
    const peer = [100, 100, 400, 100];
    expect(pairedRatios(sdk, peer)).toMatchObject({ median: 1, q1: 1, q3: 1 });
  });

  it('refuses series of different lengths: their rounds cannot be paired', () => {
    expect(() => pairedRatios([1, 2], [1])).toThrow('unpaired series: 2 against 1 rounds');
  });
});
