/**
 * Benchmark 6: bulk jobs at the rate limit. The SDK's own mock (`createMockApi` from
 * `@employee-recognition/sdk/testing`) plays the service, at the 100-request tier with the
 * contract's 60 s window, and every job runs once with pacing (`rateLimit: 'auto'`, the default)
 * and once without (`'off'`), each with the client's other defaults (2 retries):
 *
 * - `creates`: 1,000 `recognitions.create` calls started at once from one client;
 * - `list`: `for await` over 25,000 recognitions, pages of 100 (250 requests);
 * - `shared`: the 1,000 creates split over 4 clients of one key, started at once.
 *
 * Time is simulated, so a job of ten minute-long windows takes a second or two: the mock reads
 * the bench's clock (its `now` option), and `globalThis.setTimeout`/`clearTimeout`/`Date.now`
 * are replaced by a virtual clock for the SDK's timers (the throttle's, retries', timeouts').
 * Whenever the process has nothing left to do (a few event-loop turns pass with no timer set or
 * cleared), the clock jumps to the earliest timer and fires it. The mock answers at once, so a
 * request takes no simulated time: what is measured is how the client spends the windows.
 * The clock starts 437 ms past a whole second, so the whole-second X-RateLimit-Reset costs what
 * it costs a real client.
 *
 * (The memory of calls queued behind a spent window is measured on the real clock and the real
 * `fetch`, by bench/queued.mjs.)
 *
 * Usage: node bench/bulk.mjs
 */
import { importSdk, report } from './lib/stats.mjs';

const { Client } = await importSdk();
const { createMockApi } = await importSdk('testing');

const TIER = 100;
const WINDOW_MS = 60_000;
const START = Date.UTC(2026, 10, 23, 9, 0, 0) + 437;
// Every job here needs ten windows or fewer: one that runs on for hours is stuck.
const MAX_SIMULATED_MS = 2 * 3_600_000;
const real = { setTimeout, clearTimeout, setImmediate, now: Date.now };

/** The simulated clock: timers in a map, time advanced only by `run`. */
function virtualClock(start) {
  let now = start;
  let nextId = 1;
  let activity = 0;
  const timers = new Map();
  const install = () => {
    globalThis.setTimeout = (callback, ms = 0, ...args) => {
      activity++;
      const id = nextId++;
      timers.set(id, { at: now + Math.max(0, Number(ms) || 0), callback, args, id });
      // Node's timers are objects; the SDK calls unref on none, but keep the shape close.
      return { id, unref() {}, ref() {}, [Symbol.toPrimitive]: () => id };
    };
    globalThis.clearTimeout = (timer) => {
      activity++;
      if (timer != null) timers.delete(typeof timer === 'object' ? timer.id : Number(timer));
    };
    Date.now = () => now;
  };
  const uninstall = () => {
    globalThis.setTimeout = real.setTimeout;
    globalThis.clearTimeout = real.clearTimeout;
    Date.now = real.now;
  };
  const turn = () => new Promise((resolve) => real.setImmediate(resolve));
  /** Runs `job` to its end, jumping the clock whenever nothing else is left to do. */
  const run = async (job) => {
    let settled = false;
    const result = job().finally(() => {
      settled = true;
    });
    while (!settled) {
      // Let promises, streams and the mock's handlers run until a few turns change nothing.
      let quiet = 0;
      while (!settled && quiet < 3) {
        const before = activity;
        await turn();
        quiet = activity === before ? quiet + 1 : 0;
      }
      if (settled) break;
      let next;
      for (const timer of timers.values()) if (!next || timer.at < next.at) next = timer;
      if (!next) throw new Error('the job stalled: nothing to do and no timer set');
      if (next.at - start > MAX_SIMULATED_MS) {
        throw new Error(
          `the job did not end within ${MAX_SIMULATED_MS / 3_600_000} simulated hours`,
        );
      }
      timers.delete(next.id);
      now = Math.max(now, next.at);
      next.callback(...next.args);
    }
    return result;
  };
  return { now: () => now, install, uninstall, run };
}

/** A mock at the 100 tier on the clock, its fetch counting each answer's status. */
function service(clock, recognitions = 0) {
  const api = createMockApi({
    now: clock.now,
    tier: TIER,
    rateLimitWindowMs: WINDOW_MS,
    recognitions,
  });
  const counts = { requests: 0, limited: 0 };
  const fetch = async (input, init) => {
    counts.requests++;
    const response = await api.fetch(input, init);
    if (response.status === 429) counts.limited++;
    return response;
  };
  return { api, counts, fetch };
}

// The second user: the first is the key's owner, who may not praise themselves.
const recipient = (api) => api.store.users.all()[1].id;

const JOBS = {
  /** 1,000 creates at once from one client. */
  async creates(clock, rateLimit) {
    const { api, counts, fetch } = service(clock);
    const client = new Client({ apiKey: api.testKey, baseUrl: api.baseUrl, fetch, rateLimit });
    const recipientId = recipient(api);
    const outcomes = await clock.run(() =>
      Promise.allSettled(
        Array.from({ length: 1000 }, (_, index) =>
          client.recognitions.create({ recipient_id: recipientId, message: `Thanks #${index}` }),
        ),
      ),
    );
    return { calls: 1000, requestsNeeded: 1000, outcomes, counts };
  },
  /** for await over 25,000 recognitions, 100 a page. */
  async list(clock, rateLimit) {
    const { api, counts, fetch } = service(clock, 25_000);
    const client = new Client({ apiKey: api.testKey, baseUrl: api.baseUrl, fetch, rateLimit });
    const outcomes = await clock.run(async () => {
      let records = 0;
      try {
        for await (const recognition of client.recognitions.list({ limit: 100 })) {
          if (recognition.id) records++;
        }
        return [
          { status: records === 25_000 ? 'fulfilled' : 'rejected', reason: `${records} records` },
        ];
      } catch (reason) {
        return [{ status: 'rejected', reason }];
      }
    });
    return { calls: 1, requestsNeeded: 250, outcomes, counts };
  },
  /** The 1,000 creates from 4 clients of one key, 250 each, all at once. */
  async shared(clock, rateLimit) {
    const { api, counts, fetch } = service(clock);
    const clients = Array.from(
      { length: 4 },
      () => new Client({ apiKey: api.testKey, baseUrl: api.baseUrl, fetch, rateLimit }),
    );
    const recipientId = recipient(api);
    const outcomes = await clock.run(() =>
      Promise.allSettled(
        Array.from({ length: 1000 }, (_, index) =>
          clients[index % 4].recognitions.create({
            recipient_id: recipientId,
            message: `Thanks #${index}`,
          }),
        ),
      ),
    );
    return { calls: 1000, requestsNeeded: 1000, outcomes, counts };
  },
};

async function runJob(name, rateLimit) {
  const clock = virtualClock(START);
  const cpu = process.cpuUsage();
  const wall = performance.now();
  clock.install();
  let result;
  try {
    result = await JOBS[name](clock, rateLimit);
  } finally {
    clock.uninstall();
  }
  const cpuMs = (({ user, system }) => (user + system) / 1000)(process.cpuUsage(cpu));
  const failures = result.outcomes.filter((outcome) => outcome.status === 'rejected');
  const windows = Math.ceil(result.requestsNeeded / TIER) - 1;
  const simulatedMs = clock.now() - START;
  return {
    job: name,
    rateLimit,
    calls: result.calls,
    failures: failures.length,
    failureKinds: [...new Set(failures.map((f) => f.reason?.name ?? String(f.reason)))],
    requests: result.counts.requests,
    answers429: result.counts.limited,
    share429: result.counts.limited / result.counts.requests,
    simulatedMs,
    windowArithmeticMs: windows * WINDOW_MS,
    ratioToArithmetic: simulatedMs / (windows * WINDOW_MS),
    realMs: performance.now() - wall,
    cpuMs,
  };
}

const runs = [];
for (const name of Object.keys(JOBS)) {
  for (const rateLimit of ['auto', 'off']) {
    const run = await runJob(name, rateLimit);
    process.stderr.write(`[bulk] ${JSON.stringify(run)}\n`);
    runs.push(run);
  }
}
report({ tier: TIER, windowMs: WINDOW_MS, runs });
