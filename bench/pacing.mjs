/**
 * Benchmark 6d: the bulk job of 6c (1,000 creates, tier 100) from 8 worker processes that share
 * one key, with the Redis store and, side by side, with in-memory pacing; and the Redis store's
 * added latency per call on loopback. Real time, real processes, a real redis-server (Debian's,
 * started here on 127.0.0.1 at a free port) and the SDK's mock over HTTP (`startMockServer`)
 * with a 30 s window: ten windows of 60 s would take ten minutes per run. The reset header's
 * whole seconds cost up to a second per window (the mock opens a window at its first request, so
 * real requests land a few ms past the second), which a shorter window would magnify.
 *
 * Usage: npm run bench:pacing (= npm run build && node bench/pacing.mjs); about 15 minutes. It
 * prints the figures and writes them into docs/benchmarks.md between the bench:pacing markers.
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
const WORKERS = 8;
const CALLS = 1000;
const TIER = 100;
const WINDOW_MS = 30_000;
const LATENCY_CALLS = 500;
const WORKER_LIMIT_MS = 15 * 60_000;

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
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `count` worker processes, starts them together, and returns their reports. */
async function runWorkers(count, input) {
  const children = [];
  const runs = Array.from({ length: count }, () => {
    const child = spawn(process.execPath, [`${ROOT}bench/pacing-worker.mjs`], {
      cwd: ROOT,
      env: { ...process.env, PACING_BENCH: JSON.stringify(input) },
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

/** The 1,000 creates from 8 workers with `mode` pacing, on a fresh mock and a fresh key prefix. */
async function bulk({ mode, timeout }, redisUrl) {
  const mock = await startMockServer({ tier: TIER, rateLimitWindowMs: WINDOW_MS });
  try {
    const reports = await runWorkers(WORKERS, {
      mode,
      timeout,
      baseUrl: mock.url,
      apiKey: mock.api.testKey,
      recipientId: mock.api.store.users.all()[1].id,
      redisUrl,
      prefix: `bench:${mode}:${Date.now()}:`,
      calls: CALLS / WORKERS,
    });
    const sum = (field) => reports.reduce((total, report) => total + report[field], 0);
    const elapsedMs =
      Math.max(...reports.map((r) => r.ended)) - Math.min(...reports.map((r) => r.started));
    const arithmeticMs = (Math.ceil(CALLS / TIER) - 1) * WINDOW_MS;
    const reserveMs = reports.flatMap((report) => report.reserveMs);
    return {
      mode,
      timeout,
      workers: WORKERS,
      calls: CALLS,
      failures: sum('failures'),
      failureKinds: [...new Set(reports.flatMap((r) => r.failureKinds))],
      requests: sum('requests'),
      answers429: sum('limited'),
      share429: sum('limited') / sum('requests'),
      elapsedMs,
      arithmeticMs,
      ratioToArithmetic: elapsedMs / arithmeticMs,
      warnings: reports.reduce((total, report) => total + report.warnings.length, 0),
      reserveMs: reserveMs.length
        ? { n: reserveMs.length, median: quantile(reserveMs, 0.5), p99: quantile(reserveMs, 0.99) }
        : undefined,
    };
  } finally {
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
      warnings: report.warnings.length,
    };
  } finally {
    await mock.close();
  }
}

const began = Date.now();
const loadBefore = os
  .loadavg()
  .map((v) => v.toFixed(1))
  .join('/');
const redis = await startRedis();
// Stopped by hand: take the redis-server along.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => redis.stop().finally(() => process.exit(1)));
}
let results;
try {
  log('added latency: 500 sequential creates through the Redis store');
  const added = await latency(redis.url);
  log(JSON.stringify(added));
  const runs = [];
  // The store's default timeout; a patient one, which no stall of this machine's processes
  // exceeds, so every request is paced by Redis alone; and each process pacing alone.
  for (const mode of [
    { mode: 'redis', timeout: 50 },
    { mode: 'redis', timeout: 1000 },
    { mode: 'memory' },
  ]) {
    log(`1,000 creates from ${WORKERS} processes, ${JSON.stringify(mode)} (about 5 minutes)`);
    const run = await bulk(mode, redis.url);
    log(JSON.stringify(run));
    runs.push(run);
  }
  results = { added, runs };
} finally {
  await redis.stop();
}

const pct = (value) => `${(value * 100).toFixed(1)} %`;
const ms = (value) => `${value.toFixed(2)} ms`;
const [shared] = results.runs;
const patient = results.runs[1];
const loadAfter = os
  .loadavg()
  .map((v) => v.toFixed(1))
  .join('/');
const section = [
  `Run of ${new Date(began).toISOString().slice(0, 16).replace('T', ' ')} UTC, ${((Date.now() - began) / 60_000).toFixed(1)} min. Command: \`npm run bench:pacing\`. Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores; Node ${process.version}; load average (1/5/15 min) ${loadBefore} at the start, ${loadAfter} at the end. ${WORKERS} worker processes, each with its own node-redis client and SDK client, ${CALLS / WORKERS} creates each started at once; the mock at the ${TIER} tier with a ${WINDOW_MS / 1000} s window; "window arithmetic" is (⌈${CALLS} / ${TIER}⌉ − 1) windows = ${shared.arithmeticMs / 1000} s.`,
  '',
  '| Pacing | Failed calls | Requests | 429 answers | Time | / window arithmetic | Store fell back (warnings) |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  ...results.runs.map(
    (run) =>
      `| ${run.mode === 'redis' ? `\`RedisStore\`, \`timeout: ${run.timeout}\`${run.timeout === 50 ? ' (the default)' : ''}` : "`'auto'` (in memory, each process alone)"} | ${run.failures} of ${run.calls}${run.failureKinds.length ? ` (${run.failureKinds.join(', ')})` : ''} | ${run.requests.toLocaleString('en')} | ${run.answers429} (${pct(run.share429)}) | ${(run.elapsedMs / 1000).toFixed(1)} s | ${run.ratioToArithmetic.toFixed(3)}× | ${run.mode === 'redis' ? run.warnings : '—'} |`,
  ),
  '',
  `**The store's added latency per call** (loopback; the question asked before a request goes, timed around \`reserve\` for every answer "send now"; the answer's release is not awaited by the call): one process, ${results.added.calls} sequential creates: median ${ms(results.added.median)}, p99 ${ms(results.added.p99)} (${results.added.warnings} fallback${results.added.warnings === 1 ? '' : 's'}). During the 8-process jobs above (8 processes on ${os.cpus().length} cores, with the machine's other load): median ${ms(shared.reserveMs.median)}, p99 ${ms(shared.reserveMs.p99)} over ${shared.reserveMs.n} questions (timeout 50 ms); median ${ms(patient.reserveMs.median)}, p99 ${ms(patient.reserveMs.p99)} over ${patient.reserveMs.n} (timeout 1 s). A store that falls back paces those requests locally, which is where the 429s of the default row come from.`,
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
