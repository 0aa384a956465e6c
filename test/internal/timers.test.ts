import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { boundedDelay, later, MAX_DELAY_MS } from '../../src/internal/timers.js';
import { FUZZ_SEED, fuzzRuns } from '../support/fuzz.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('boundedDelay', () => {
  it('makes any number a delay a timer holds: finite, ≥ 0, at most 2^31 - 1 ms', () => {
    fc.assert(
      fc.property(fc.double(), (ms) => {
        const bounded = boundedDelay(ms);
        expect(Number.isFinite(bounded) && bounded >= 0 && bounded <= MAX_DELAY_MS).toBe(true);
        if (ms > 0 && ms <= MAX_DELAY_MS) expect(bounded).toBe(ms);
      }),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(200) },
    );
    expect([NaN, -1, -Infinity, Infinity].map(boundedDelay)).toEqual([0, 0, 0, MAX_DELAY_MS]);
  });
});

describe('later', () => {
  it('never fires a far or infinite delay at once, as setTimeout does beyond 2^31 - 1 ms', () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    later(fired, Infinity);
    later(fired, 2 ** 40);
    vi.advanceTimersByTime(MAX_DELAY_MS - 1);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(2);
  });
});
