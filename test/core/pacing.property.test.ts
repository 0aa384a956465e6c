/**
 * Pacing as properties: the client's queue (in memory, or shared through a store in memory)
 * against simulated services on a simulated clock, for generated limiters (fixed windows from
 * the first request or on the clock, sliding windows, token buckets), header families, latencies
 * with jitter, keys with history, one to eight clients, and foreign consumers at generated
 * rates, steady or bursty. docs/architecture.md ("Pacing") states what these pin.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Log } from '../../src/core/logger.js';
import { SharedThrottle } from '../../src/core/shared-throttle.js';
import { type Pacer, Throttle } from '../../src/core/throttle.js';
import { MAX_WAIT_MS, parseRateLimit } from '../../src/internal/headers.js';
import { FUZZ_SEED, fuzzRuns } from '../support/fuzz.js';
import {
  type Family,
  foreignConsumer,
  type Limiter,
  memoryPacingStore,
  seededRandom,
  simulatedService,
} from '../support/simulated-service.js';

const START = Date.UTC(2026, 10, 22, 9, 0, 0, 0);
const target = { method: 'GET', url: 'https://api.example.test/v1/users' };
/** A longer run (`FUZZ_RUNS`) takes longer on a loaded machine than the default test timeout. */
const TIMEOUT_MS = fuzzRuns(20_000);
/** The reset's whole-second rounding: a wait may read that much over the cap. */
const CAP_MS = MAX_WAIT_MS + 1000;

afterEach(() => {
  vi.useRealTimers();
});

const limiters: Limiter[] = ['fixed-first', 'fixed-clock', 'sliding', 'bucket'];
const families: Family[] = [
  'x-ratelimit',
  'x-ratelimit-seconds',
  'ratelimit',
  'ratelimit-structured',
];

const scenario = fc.record({
  limiter: fc.constantFrom(...limiters),
  family: fc.constantFrom(...families),
  limit: fc.integer({ min: 5, max: 60 }),
  windowMs: fc.constantFrom(1000, 2000, 3000, 5000, 10_000) as fc.Arbitrary<number>,
  /** Of the limit, spent before by a process that has ended. */
  history: fc.double({ min: 0, max: 1, noNaN: true }),
  startOffsetMs: fc.integer({ min: 0, max: 9999 }),
  latencyMs: fc.integer({ min: 0, max: 40 }),
  jitterMs: fc.integer({ min: 0, max: 30 }),
  clients: fc.integer({ min: 1, max: 8 }),
  calls: fc.integer({ min: 1, max: 40 }),
  concurrency: fc.integer({ min: 1, max: 4 }),
  shared: fc.boolean(),
  /** A consumer the clients cannot see: its share of the limit per window, and its burst. */
  foreign: fc.option(
    fc.record({
      share: fc.double({ min: 0.05, max: 0.45, noNaN: true }),
      burst: fc.integer({ min: 1, max: 4 }),
    }),
    { nil: undefined },
  ),
  seed: fc.integer({ min: 1, max: 1_000_000 }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/** A scenario to vary in the cases a longer run found. */
const base: Scenario = {
  limiter: 'fixed-first',
  family: 'x-ratelimit',
  limit: 10,
  windowMs: 10_000,
  history: 0,
  startOffsetMs: 0,
  latencyMs: 0,
  jitterMs: 0,
  clients: 1,
  calls: 10,
  concurrency: 1,
  shared: false,
  foreign: { share: 0.05, burst: 1 },
  seed: 1,
};

interface Outcome {
  /** Calls sent while their client's last answers said the window was spent. */
  sentIntoSpent: number;
  /** Waits told (onWait) that were not finite, or beyond the cap. */
  badWaits: number[];
  /** Waits of a second or more that no onWait, or no log line, told. */
  untold: number;
  waitsTold: number;
  foreign429ByWindow: Map<number, number>;
  own429: number;
  elapsedMs: number;
  lines: string[];
}

/**
 * A foreign consumer's pace within its share of each window, bursts included: `burst` requests at
 * once, as many bursts as its whole share holds, evenly over the window.
 */
function foreignPace(foreign: { share: number; burst: number }, limit: number, windowMs: number) {
  const perWindow = Math.max(1, Math.floor(foreign.share * limit));
  const burst = Math.min(foreign.burst, perWindow);
  return { everyMs: windowMs / (burst * Math.floor(perWindow / burst)), burst };
}

/** Runs a scenario to its end on the fake clock. */
async function run(s: Scenario): Promise<Outcome> {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'Date'],
    now: START + s.startOffsetMs,
  });
  const random = seededRandom(s.seed);
  const service = simulatedService(s);
  const lines: string[] = [];
  const log = new Log(
    {
      debug: () => {},
      info: (line) => lines.push(line),
      warn: (line) => lines.push(line),
      error: () => {},
    },
    'info',
  );
  // History: a process that has ended spent part of the window.
  const spent = Math.floor(s.history * s.limit);
  for (let index = 0; index < spent; index++) service.request();
  const store = s.shared ? memoryPacingStore() : undefined;
  const pacers: Pacer[] = Array.from({ length: s.clients }, () =>
    store ? new SharedThrottle(store, Promise.resolve('key'), log) : new Throttle(log),
  );
  const windowOf = (at: number) => Math.floor((at - START) / s.windowMs);
  const foreign = s.foreign
    ? foreignConsumer(service, foreignPace(s.foreign, s.limit, s.windowMs))
    : undefined;
  const outcome: Outcome = {
    sentIntoSpent: 0,
    badWaits: [],
    untold: 0,
    waitsTold: 0,
    foreign429ByWindow: new Map(),
    own429: 0,
    elapsedMs: 0,
    lines,
  };
  const latency = () => s.latencyMs + random() * s.jitterMs;
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  const started = Date.now();

  const client = async (pacer: Pacer) => {
    // What this client's own answers said: spent until `spentUntil` (0: not known spent).
    let spentUntil = 0;
    let next = 0;
    const worker = async () => {
      while (next < s.calls) {
        next++;
        const asked = Date.now();
        let told = 0;
        let longest = 0;
        await pacer.acquire({
          target,
          onWait: (ms) => {
            told++;
            longest = Math.max(longest, ms);
            outcome.waitsTold++;
            if (!Number.isFinite(ms) || ms > CAP_MS || ms < 0) outcome.badWaits.push(ms);
          },
        });
        const waited = Date.now() - asked;
        // A wait is told to the call, each within the cap (a call queued behind others may wait
        // for several resets); one a second or more long has its line too.
        // (The store's waits under a second, its asking again, are not told: docs/architecture.md.)
        if (waited >= 1000 && told === 0 && !s.shared) outcome.untold++;
        if (longest >= 1000 && lines.length === 0) outcome.untold++;
        if (!s.shared && Date.now() < spentUntil) outcome.sentIntoSpent++;
        await sleep(latency());
        const answer = service.request();
        await sleep(latency());
        pacer.update(answer.headers);
        if (answer.limited) outcome.own429++;
        const info = parseRateLimit(answer.headers);
        if (info) {
          const resetAt = info.reset.getTime();
          if (info.remaining <= 0) spentUntil = Math.max(spentUntil, resetAt - 2000);
          else if (resetAt > spentUntil + 2000) spentUntil = 0;
        }
      }
    };
    await Promise.all(Array.from({ length: s.concurrency }, worker));
  };
  let done = false;
  void Promise.all(pacers.map(client)).then(() => (done = true));
  // Bounded: every wait is; a run that does not end in 30 simulated minutes fails.
  while (!done && Date.now() - started < 30 * 60_000) await vi.advanceTimersByTimeAsync(50);
  foreign?.stop();
  await vi.runAllTimersAsync();
  outcome.elapsedMs = Date.now() - started;
  for (const at of foreign?.limitedAt ?? []) {
    const window = windowOf(at);
    outcome.foreign429ByWindow.set(window, (outcome.foreign429ByWindow.get(window) ?? 0) + 1);
  }
  expect(done).toBe(true);
  expect(vi.getTimerCount()).toBe(0);
  return outcome;
}

describe('pacing against simulated services', () => {
  it(
    'never sends into a window it knows is spent; every wait is finite, within the cap, and told',
    async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async (s) => {
          const outcome = await run(s);
          expect(outcome.sentIntoSpent).toBe(0);
          expect(outcome.badWaits).toEqual([]);
          expect(outcome.untold).toBe(0);
        }),
        {
          seed: FUZZ_SEED,
          numRuns: fuzzRuns(60),
          examples: [
            // A sliding window, once spent, names when its oldest request leaves: a reset earlier
            // than the one its answers gave before, which is no older window.
            [{ ...base, limiter: 'sliding', limit: 5, windowMs: 10_000, calls: 13 }],
            // An answer overtaken by other clients' requests: its count is higher than the known
            // one long before the reset, which is no refill.
            [
              {
                ...base,
                limit: 10,
                windowMs: 5000,
                jitterMs: 11,
                clients: 4,
                calls: 7,
                concurrency: 2,
                seed: 16,
              },
            ],
            // A sliding window's reset that moves earlier, then later, then earlier again, as
            // answers overtake each other: the calls queued meanwhile are told of their wait.
            [
              {
                ...base,
                limiter: 'sliding',
                family: 'ratelimit-structured',
                limit: 21,
                startOffsetMs: 128,
                latencyMs: 30,
                jitterMs: 26,
                clients: 3,
                calls: 26,
                concurrency: 3,
                seed: 730_670,
              },
            ],
          ],
        },
      );
    },
    TIMEOUT_MS,
  );

  it(
    'a fresh client whose demand fits the window never waits, whatever history the key has',
    async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async (generated) => {
          // One client, no one else live, and calls the window's rest holds: within what a client
          // sends before a rate span has measured the others (half of what is left, or up to 10).
          const s = { ...generated, clients: 1, shared: false, foreign: undefined };
          const left = s.limit - Math.floor(s.history * s.limit);
          fc.pre(s.limiter !== 'bucket' && left >= 1);
          const fits = Math.min(
            left,
            1 + Math.ceil(Math.max((left - 1) / 2, Math.min(10, s.limit / 4))),
          );
          const outcome = await run({ ...s, calls: Math.min(s.calls, fits) });
          expect(outcome.waitsTold).toBe(0);
          expect(outcome.own429).toBe(0);
        }),
        { seed: FUZZ_SEED, numRuns: fuzzRuns(30) },
      );
    },
    TIMEOUT_MS,
  );

  it(
    'a foreign consumer whose own rate fits the window meets at most 2 answers 429 per window',
    async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async (generated) => {
          // Fixed windows, whose arithmetic is the foreign consumer's: its rate fits each window.
          // In memory: a store grants what the window has left to the clients that share it, and
          // knows nothing of a consumer outside it.
          // A consumer the client can measure: windows longer than the second it takes to measure
          // the others' rate, and at least one request of theirs in each such second, bursts
          // included (a slower one looks stopped to it; docs/architecture.md, "Pacing"). A consumer
          // whose bursts are further apart is outside this promise: its requests before the
          // client's first answer read as history, and its silence for a span as having stopped.
          const generatedForeign = generated.foreign ?? { share: 0.3, burst: 1 };
          const share = Math.max(generatedForeign.share, 2 / generated.limit);
          const perWindow = Math.floor(share * generated.limit);
          // At least two bursts a window, so that a window of 2 s holds one each second.
          const foreign = {
            share,
            burst: Math.min(generatedForeign.burst, Math.floor(perWindow / 2)),
          };
          const bursts = Math.floor(perWindow / foreign.burst);
          const s = {
            ...generated,
            windowMs: Math.max(2000, Math.min(generated.windowMs, bursts * 1000)),
            clients: 1,
            shared: false,
            limiter:
              generated.limiter === 'fixed-clock'
                ? ('fixed-clock' as const)
                : ('fixed-first' as const),
            history: 0,
            foreign,
          };
          const outcome = await run(s);
          for (const count of outcome.foreign429ByWindow.values())
            expect(count).toBeLessThanOrEqual(2);
        }),
        { seed: FUZZ_SEED, numRuns: fuzzRuns(30) },
      );
    },
    TIMEOUT_MS,
  );

  it(
    "a client's total time is within 1.5× the window arithmetic of its fair share",
    async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async (generated) => {
          const s = { ...generated, limiter: 'fixed-first' as const, history: 0, startOffsetMs: 0 };
          const total = s.clients * s.calls + 0;
          const foreignPerWindow = s.foreign ? Math.ceil(s.foreign.share * s.limit) : 0;
          const ours = s.limit - foreignPerWindow;
          // Windows the clients' calls fill at their share, the last one sent at its start.
          const arithmeticMs = Math.max(0, Math.ceil(total / ours) - 1) * s.windowMs;
          const outcome = await run(s);
          // Slack for what the arithmetic leaves out: each window's whole-second reset, the round
          // trips of each client's calls, and a rate span to measure the others.
          const slackMs =
            (Math.ceil(total / ours) + 1) * 1000 +
            (s.calls / s.concurrency) * 2 * (s.latencyMs + s.jitterMs) +
            2000;
          expect(outcome.elapsedMs).toBeLessThanOrEqual(1.5 * arithmeticMs + slackMs);
        }),
        { seed: FUZZ_SEED, numRuns: fuzzRuns(30) },
      );
    },
    TIMEOUT_MS,
  );
});
