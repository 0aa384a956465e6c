/**
 * Benchmark 6d: a bulk job (1,000 creates, tier 100) from 8 and from 32 worker processes that
 * share one key through the Redis store at its default settings, half of them on node-redis and
 * half on ioredis; the job of 8 with in-memory pacing (each process alone); the job again with
 * Redis paused (SIGSTOP) for a third of it; and the store's added latency per call. Real time,
 * real processes, a real redis-server (Debian's, started here on 127.0.0.1 at a free port) and
 * the SDK's mock over HTTP (`startMockServer`) with a 10 s window, so a run stays under ten
 * minutes; the reset header's whole seconds cost up to a second per window.
 *
 * The question is whether pacing holds on a busy machine, so the bench makes the machine busy
 * itself: one busy-loop process per core runs from start to end (PACING_BENCH_LOAD=0 turns them
 * off), and the load average is recorded beside each job's figures.
 *
 * Usage: npm run bench:pacing (= npm run build && node bench/pacing.mjs); about 10 minutes.
 * PACING_BENCH_TIMEOUTS=50,1000 adds jobs of 32 workers with those fixed timeouts, to compare
 * with the default. It prints the figures and writes them into docs/benchmarks.md between the
 * bench:pacing markers.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importSdk } from './lib/stats.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOC = `${ROOT}docs/benchmarks.md`;
const START =
  '<!-- bench:pacing:start (written by bench/pacing.mjs; edits here are overwritten) -->';
const END = '<!-- bench:pacing:end -->';
const CALLS = 1000;
const TIER = 100;
const WINDOW_MS = 10_000;
const LATENCY_CALLS = 500;
const WORKER_LIMIT_MS = 5 * 60_000;
/** (⌈calls / tier⌉ − 1) windows: the first window's 100 go at once, each later one at its reset. */
const ARITHMETIC_MS = (Math.ceil(CALLS / TIER) - 1) * WINDOW_MS;
/** The paused job: Redis stops this long after the job starts, and runs again this long later. */
const PAUSE_AT_MS = ARITHMETIC_MS / 3;
const PAUSE_FOR_MS = ARITHMETIC_MS / 3;
const LIBRARIES = ['node-redis', 'ioredis'];
const LOAD = process.env.PACING_BENCH_LOAD !== '0';
const COMPARED_TIMEOUTS = (process.env.PACING_BENCH_TIMEOUTS ?? '')
  .split(',')
  .filter(Boolean)
  .map(Number);

const log = (message) => process.stderr.write(`[pacing] ${message}\n`);
const { startMockServer } = await importSdk('testing');

if (spawnSync('redis-server', ['--version']).status !== 0) {
  log('redis-server is not installed (Debian: apt-get install -y redis-server)');
  process.exit(1);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** redis-server on a free port, no persistence, in a temporary directory. */
async function startRedis() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-redis-'));
  const port = await freePort();
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      if (String(chunk).includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    stop: async () => {
      child.kill('SIGCONT');
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One busy-loop process per core: the load of a busy machine, made here so it is the same each run. */
function startLoad() {
  if (!LOAD) return { count: 0, stop: () => {} };
  const children = os
    .cpus()
    .map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  return { count: children.length, stop: () => children.forEach((child) => child.kill()) };
}

const loadAverage = () => os.loadavg().map((value) => value.toFixed(1));

/**
 * Runs `count` worker processes, starts them together, and returns their reports. Worker `i`
 * does its share of `calls`, on the Redis library `LIBRARIES[i % 2]`; `onGo` runs once all go.
 */
async function runWorkers(count, { calls, ...input }, onGo) {
  const children = [];
  const runs = Array.from({ length: count }, (_, index) => {
    const share = Math.floor(calls / count) + (index < calls % count ? 1 : 0);
    const library = LIBRARIES[index % LIBRARIES.length];
    const child = spawn(process.execPath, [`${ROOT}bench/pacing-worker.mjs`], {
      cwd: ROOT,
      env: {
        ...process.env,
        PACING_BENCH: JSON.stringify({ ...input, calls: share, library }),
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    children.push(child);
    let stdout = '';
    let onReady;
    const ready = new Promise((resolve) => (onReady = resolve));
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.startsWith('ready\n')) onReady();
    });
    const report = new Promise((resolve, reject) => {
      child.on('close', (code) => {
        onReady();
        try {
          resolve(JSON.parse(stdout.trim().split('\n').pop()));
        } catch {
          reject(new Error(`a worker ended (code ${code}) without a report`));
        }
      });
    });
    return { child, ready, report };
  });
  const killer = setTimeout(
    () => children.forEach((child) => child.kill('SIGKILL')),
    WORKER_LIMIT_MS,
  );
  try {
    await Promise.all(runs.map((run) => run.ready));
    for (const { child } of runs) child.stdin.write('go\n');
    onGo?.();
    return await Promise.all(runs.map((run) => run.report));
  } finally {
    clearTimeout(killer);
  }
}

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.ceil(at)] - sorted[low]) * (at - low);
}

/**
 * The 1,000 creates from `workers` processes with `mode` pacing, on a fresh mock and a fresh key
 * prefix; with `pause`, Redis is stopped for a third of the job.
 */
async function bulk({ mode, workers, timeout, pause }, redis) {
  const mock = await startMockServer({ tier: TIER, rateLimitWindowMs: WINDOW_MS });
  const loadBefore = loadAverage()[0];
  const timers = [];
  try {
    const reports = await runWorkers(
      workers,
      {
        mode,
        timeout,
        baseUrl: mock.url,
        apiKey: mock.api.testKey,
        recipientId: mock.api.store.users.all()[1].id,
        redisUrl: redis.url,
        prefix: `bench:${mode}:${Date.now()}:`,
        calls: CALLS,
      },
      pause &&
        (() => {
          timers.push(setTimeout(redis.pause, PAUSE_AT_MS));
          timers.push(setTimeout(redis.resume, PAUSE_AT_MS + PAUSE_FOR_MS));
        }),
    );
    const sum = (field) => reports.reduce((total, report) => total + report[field], 0);
    const elapsedMs =
      Math.max(...reports.map((r) => r.ended)) - Math.min(...reports.map((r) => r.started));
    const reserveMs = reports.flatMap((report) => report.reserveMs);
    return {
      mode,
      workers,
      timeout,
      pause: Boolean(pause),
      calls: CALLS,
      failures: sum('failures'),
      failureKinds: [...new Set(reports.flatMap((r) => r.failureKinds))],
      requests: sum('requests'),
      answers429: sum('limited'),
      share429: sum('limited') / sum('requests'),
      elapsedMs,
      ratioToArithmetic: elapsedMs / ARITHMETIC_MS,
      callsPerSecond: CALLS / (elapsedMs / 1000),
      fallbacks: sum('fallbacks'),
      warnings: reports.reduce((total, report) => total + report.warnings.length, 0),
      // Why the store fell back, for the log: the warnings' reasons and how many of each.
      reasons: reports
        .flatMap((report) => report.warnings)
        .map((line) => /\((.*?)\)/.exec(line)?.[1] ?? line)
        .reduce((counts, reason) => ({ ...counts, [reason]: (counts[reason] ?? 0) + 1 }), {}),
      load: [loadBefore, loadAverage()[0]],
      reserveMs: reserveMs.length
        ? { n: reserveMs.length, median: quantile(reserveMs, 0.5), p99: quantile(reserveMs, 0.99) }
        : undefined,
    };
  } finally {
    for (const timer of timers) clearTimeout(timer);
    redis.resume();
    await mock.close();
  }
}

/** One worker, calls one after the other, each question to Redis timed: the store's own cost. */
async function latency(redisUrl) {
  const mock = await startMockServer({ tier: 1000, rateLimitWindowMs: 60_000 });
  try {
    const [report] = await runWorkers(1, {
      mode: 'redis',
      sequential: true,
      baseUrl: mock.url,
      apiKey: mock.api.testKey,
      recipientId: mock.api.store.users.all()[1].id,
      redisUrl,
      prefix: `bench:latency:${Date.now()}:`,
      calls: LATENCY_CALLS,
    });
    return {
      calls: LATENCY_CALLS,
      failures: report.failures,
      n: report.reserveMs.length,
      median: quantile(report.reserveMs, 0.5),
      p99: quantile(report.reserveMs, 0.99),
      fallbacks: report.fallbacks,
    };
  } finally {
    await mock.close();
  }
}

const began = Date.now();
const loadStart = loadAverage().join('/');
const load = startLoad();
const redis = await startRedis();
// Stopped by hand: take the redis-server and the load along.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    load.stop();
    redis.stop().finally(() => process.exit(1));
  });
}
let results;
try {
  log(`load: ${load.count} busy-loop processes; load average ${loadStart}`);
  log(`added latency: ${LATENCY_CALLS} sequential creates through the Redis store`);
  const added = await latency(redis.url);
  log(JSON.stringify(added));
  const runs = [];
  for (const job of [
    { mode: 'redis', workers: 8 },
    { mode: 'redis', workers: 32 },
    ...COMPARED_TIMEOUTS.map((timeout) => ({ mode: 'redis', workers: 32, timeout })),
    { mode: 'memory', workers: 8 },
    { mode: 'redis', workers: 8, pause: true },
  ]) {
    log(`${CALLS} creates, ${JSON.stringify(job)} (about 2 minutes)`);
    const run = await bulk(job, redis);
    log(JSON.stringify(run));
    runs.push(run);
  }
  results = { added, runs };
} finally {
  load.stop();
  await redis.stop();
}

const pct = (value) => `${(value * 100).toFixed(1)} %`;
const ms = (value) => `${value.toFixed(2)} ms`;
const loadEnd = loadAverage().join('/');
const pacing = (run) =>
  run.mode === 'memory'
    ? "`'auto'` (in memory, each process alone)"
    : `\`RedisStore\`, ${run.timeout === undefined ? 'default `timeout`' : `\`timeout: ${run.timeout}\``}${run.pause ? `, Redis paused (SIGSTOP) from ${PAUSE_AT_MS / 1000} s to ${(PAUSE_AT_MS + PAUSE_FOR_MS) / 1000} s` : ''}`;
const defaults = results.runs.filter(
  (run) => run.mode === 'redis' && !run.pause && run.timeout === undefined,
);
const section = [
  `Run of ${new Date(began).toISOString().slice(0, 16).replace('T', ' ')} UTC, ${((Date.now() - began) / 60_000).toFixed(1)} min. Command: \`npm run bench:pacing\`. Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores; Node ${process.version}. Load: ${load.count} busy-loop processes started by the bench (one per core) beside the machine's own; load average (1/5/15 min) ${loadStart} before they started, ${loadEnd} at the end. Each worker process has its own Redis client (even ones node-redis 6, odd ones ioredis 5) and SDK client, and its share of ${CALLS} creates started at once; the mock at the ${TIER} tier with a ${WINDOW_MS / 1000} s window; "window arithmetic" is (⌈${CALLS} / ${TIER}⌉ − 1) windows = ${ARITHMETIC_MS / 1000} s.`,
  '',
  '| Pacing | Workers | Failed calls | Requests | 429 answers | Time | / window arithmetic | Calls/s | Fallbacks (warnings) | Load (1 min) |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...results.runs.map(
    (run) =>
      `| ${pacing(run)} | ${run.workers} | ${run.failures} of ${run.calls}${run.failureKinds.length ? ` (${run.failureKinds.join(', ')})` : ''} | ${run.requests.toLocaleString('en')} | ${run.answers429} (${pct(run.share429)}) | ${(run.elapsedMs / 1000).toFixed(1)} s | ${run.ratioToArithmetic.toFixed(3)}× | ${run.callsPerSecond.toFixed(2)} | ${run.mode === 'redis' ? `${run.fallbacks} (${run.warnings})` : '—'} | ${run.load.join(' → ')} |`,
  ),
  '',
  `**The store's added latency per call** (the question asked before a request goes, timed around \`reserve\` for every answer "send now"; the answer's release is not awaited by the call): one process, ${results.added.calls} sequential creates: median ${ms(results.added.median)}, p99 ${ms(results.added.p99)} (${results.added.fallbacks} fallback${results.added.fallbacks === 1 ? '' : 's'}). During the jobs at the default timeout: ${defaults.map((run) => `${run.workers} workers, median ${ms(run.reserveMs.median)}, p99 ${ms(run.reserveMs.p99)} over ${run.reserveMs.n} questions`).join('; ')}.`,
].join('\n');
process.stdout.write(`${section}\n`);
const doc = readFileSync(DOC, 'utf8');
const start = doc.indexOf(START);
const end = doc.indexOf(END);
if (start !== -1 && end > start) {
  writeFileSync(DOC, `${doc.slice(0, start + START.length)}\n${section}\n${doc.slice(end)}`);
  log('docs/benchmarks.md updated');
} else {
  log('markers not found in docs/benchmarks.md: figures printed only');
}
