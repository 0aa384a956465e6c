/**
 * The shared queue's places as a property: whatever a store does with each question (answers at
 * once, late past the client's second, never, or fails), every call is sent, and every place the
 * store grants is given back, also one granted after the request it stood for was answered
 * (core/shared-throttle.ts, `Place`). That a late place is held while its request is in flight
 * is pinned by shared-throttle.test.ts. On a simulated clock, fixed seed; `FUZZ_RUNS` runs it
 * longer.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PacingStore } from '../../src/core/config.js';
import { Log } from '../../src/core/logger.js';
import { SharedThrottle } from '../../src/core/shared-throttle.js';
import { FUZZ_SEED, fuzzRuns } from '../support/fuzz.js';
import { memoryPacingStore } from '../support/simulated-service.js';

const START = Date.UTC(2026, 10, 22, 9, 0, 0, 0);
const target = { method: 'GET', url: 'https://api.example.test/v1/users' };

afterEach(() => {
  vi.useRealTimers();
});

/** What the store does with one question: answer after `delayMs`, never, or fail. */
const behaviour = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('answer' as const),
      delayMs: fc.integer({ min: 0, max: 2500 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('never' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('fail' as const) }) },
);

const scenario = fc.record({
  behaviours: fc.array(behaviour, { minLength: 1, maxLength: 40 }),
  calls: fc.integer({ min: 1, max: 30 }),
  concurrency: fc.integer({ min: 1, max: 6 }),
  latencyMs: fc.integer({ min: 1, max: 1500 }),
});

describe('SharedThrottle, with a store that answers late, never or fails (property)', () => {
  it(
    'sends every call and gives back every place the store grants, however late',
    async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ behaviours, calls, concurrency, latencyMs }) => {
          vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START });
          const memory = memoryPacingStore();
          let question = 0;
          const store: PacingStore = {
            reserve: (key, holder) => {
              const what = behaviours[question++ % behaviours.length]!;
              if (what.kind === 'never') return new Promise(() => {});
              if (what.kind === 'fail') return Promise.reject(new Error('connection refused'));
              // The store decides when it gets to the question: a release sent meanwhile comes first.
              return new Promise((resolve) =>
                setTimeout(() => resolve(memory.reserve(key, holder)), what.delayMs),
              );
            },
            release: (key, holder, window) => memory.release(key, holder, window),
          };
          const throttle = new SharedThrottle(
            store,
            Promise.resolve('key'),
            new Log(console, 'off'),
          );
          const answer = new Headers({
            'x-ratelimit-limit': '1000',
            'x-ratelimit-remaining': '900',
            'x-ratelimit-reset': String(Math.ceil((START + 3_600_000) / 1000)),
          });
          let sent = 0;
          const worker = async () => {
            while (sent < calls) {
              sent++;
              await throttle.acquire({ target });
              await new Promise((resolve) => setTimeout(resolve, latencyMs));
              throttle.update(answer);
            }
          };
          let finished = false;
          void Promise.all(Array.from({ length: concurrency }, worker)).then(
            () => (finished = true),
          );
          for (let step = 0; !finished && step < 2000; step++)
            await vi.advanceTimersByTimeAsync(50);
          // Late answers still on their way come in, and the releases behind them.
          await vi.advanceTimersByTimeAsync(5000);
          expect(finished).toBe(true);
          expect(sent).toBe(calls);
          // Held past its request, a place would keep every client of the key from the window's
          // last places until it expired, 30 s later.
          expect(memory.held()).toBe(0);
          vi.useRealTimers();
        }),
        { numRuns: fuzzRuns(60), seed: FUZZ_SEED },
      );
    },
    fuzzRuns(20_000),
  );
});
