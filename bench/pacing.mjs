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
 * with the default; PACING_BENCH_ONLY=memory (or redis) runs only the jobs of that pacing and
 * prints them. PACING_BENCH_TRACE=<dir> has every worker record each request (sent, answered,
 * status, remaining, reset, and whether the store or local pacing let it go) and writes them per
 * job to `<dir>/<mode>-<workers>[-paused].json`. It prints the figures and writes them into docs/benchmarks.md between the
 * bench:pacing markers.
 *
 * `node bench/pacing.mjs --scenarios` (part of `npm run bench`, about a minute) runs instead the
 * scenarios of issue 37 in real time, against a loopback service of its own with a fixed window
 * (node:http on 127.0.0.1) that another process also spends, and the CLI against the mock: a
 * window partly spent by a process that has ended (10 sequential calls, `'auto'` against
 * `'off'`), a window spent earlier with enough left, two live clients of one key, and three
 * `export recognitions` commands after 5 requests from elsewhere against the same command on a
 * fresh window; and (6i) a sequential caller beside a live consumer it cannot see. It reports the
 * figures for bench/run.mjs (`@@RESULT`). PACING_BENCH_ONLY=history (live, beside, cli) runs that
 * scenario alone.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importSdk, report } from './lib/stats.mjs';

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

const SCENARIOS = process.argv.includes('--scenarios');
/** PACING_BENCH_ONLY=memory (or redis): only the jobs of that pacing, printed, docs left alone. */
const ONLY = process.env.PACING_BENCH_ONLY;
/** PACING_BENCH_TRACE=<dir>: every request of every job recorded there. */
const TRACE = process.env.PACING_BENCH_TRACE;

const log = (message) => process.stderr.write(`[pacing] ${message}\n`);
const { startMockServer } = await importSdk('testing');

if (!SCENARIOS && spawnSync('redis-server', ['--version']).status !== 0) {
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
/** What the store's keys under `prefix` hold now, with Redis's clock: the end of a traced job. */
async function storeKeys(url, prefix) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url);
  try {
    const [seconds, micros] = await redis.time();
    const keys = {};
    for (const key of await redis.keys(`${prefix}*`)) {
      keys[key] =
        (await redis.type(key)) === 'zset'
          ? await redis.zrange(key, 0, -1, 'WITHSCORES')
          : await redis.hgetall(key);
    }
    return { now: Number(seconds) * 1000 + Math.floor(Number(micros) / 1000), keys };
  } finally {
    redis.disconnect();
  }
}

async function bulk({ mode, workers, timeout, pause }, redis) {
  const mock = await startMockServer({ tier: TIER, rateLimitWindowMs: WINDOW_MS });
  const prefix = `bench:${mode}:${Date.now()}:`;
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
        prefix,
        calls: CALLS,
        trace: Boolean(TRACE),
      },
      pause &&
        (() => {
          timers.push(setTimeout(redis.pause, PAUSE_AT_MS));
          timers.push(setTimeout(redis.resume, PAUSE_AT_MS + PAUSE_FOR_MS));
        }),
    );
    if (TRACE) {
      const requests = reports.flatMap((report, worker) =>
        report.trace.map((request) => ({ worker, ...request })),
      );
      const places = reports.flatMap((report, worker) =>
        report.places.map((place) => ({ worker, ...place })),
      );
      const file = join(TRACE, `${mode}-${workers}${pause ? '-paused' : ''}.json`);
      writeFileSync(
        file,
        JSON.stringify({
          requests: requests.sort((a, b) => a.sent - b.sent),
          places,
          store: mode === 'redis' ? await storeKeys(redis.url, prefix) : undefined,
        }),
      );
      log(`trace: ${file}`);
    }
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

/** A key of the test format, for the loopback service (which checks none). */
const LOOPBACK_KEY = `rk_test_${'a1B2c3D4'.repeat(4)}`;

/**
 * The loopback service: `limit` requests per `windowMs` for one key, whoever sends them, with the
 * headers the service sends; 429 with Retry-After past the limit. `restart()` opens a fresh
 * window now.
 */
async function windowService({ limit, windowMs }) {
  let windowStart = Date.now();
  let used = 0;
  const counts = { ok: 0, limited: 0 };
  const server = createHttpServer((request, response) => {
    request.resume();
    const now = Date.now();
    if (now - windowStart >= windowMs) {
      windowStart += Math.floor((now - windowStart) / windowMs) * windowMs;
      used = 0;
    }
    const resetAt = windowStart + windowMs;
    const limited = used >= limit;
    if (limited) counts.limited++;
    else {
      used++;
      counts.ok++;
    }
    const headers = {
      'content-type': 'application/json',
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(limit - used),
      'x-ratelimit-reset': String(Math.ceil(resetAt / 1000)),
    };
    if (limited) {
      response.writeHead(429, {
        ...headers,
        'retry-after': String(Math.ceil((resetAt - now) / 1000)),
      });
      response.end('{"error":{"code":"rate_limited","message":"slow down"}}');
    } else {
      response.writeHead(200, headers);
      response.end('{"data":[]}');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    counts,
    restart() {
      windowStart = Date.now();
      used = 0;
      counts.ok = 0;
      counts.limited = 0;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Another process spends `requests` of the key's window, one after the other, and exits. */
function spendFrom(url, apiKey, requests) {
  const script = `for (let i = 0; i < ${requests}; i++) await (await fetch(${JSON.stringify(url)}, { headers: { authorization: ${JSON.stringify(`Bearer ${apiKey}`)} } })).arrayBuffer();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: 'inherit',
  });
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`the spending process exited with ${code}`)),
    ),
  );
}

/** A client of the loopback service that counts the waits it reports (instrumentation) and logs. */
function observedClient(Client, url, rateLimit) {
  const seen = { waits: [], lines: [] };
  const client = new Client({
    apiKey: LOOPBACK_KEY,
    baseUrl: url,
    rateLimit,
    logLevel: 'info',
    logger: {
      debug: () => {},
      info: (line) => seen.lines.push(line),
      warn: (line) => seen.lines.push(line),
      error: (line) => seen.lines.push(line),
    },
    instrumentation: {
      call: () => ({
        wait: (kind, ms, cause) => seen.waits.push({ kind, ms, cause }),
        attempt: () => undefined,
        end: () => {},
      }),
    },
  });
  return { client, seen };
}

const median = (values) => quantile(values, 0.5);

/**
 * Sequential calls on a window `spent` of 100 by another process that has ended, with each
 * `rateLimit`, alternating, `rounds` times: their time, waits and 429s.
 */
async function history(Client, service, { spent, calls, rounds }) {
  const runs = { auto: [], off: [] };
  for (let round = 0; round < rounds; round++) {
    for (const rateLimit of round % 2 ? ['off', 'auto'] : ['auto', 'off']) {
      service.restart();
      await spendFrom(`${service.url}/v1/users`, LOOPBACK_KEY, spent);
      const { client, seen } = observedClient(Client, service.url, rateLimit);
      const started = performance.now();
      for (let index = 0; index < calls; index++) await client.get('/v1/users');
      runs[rateLimit].push({
        ms: performance.now() - started,
        waits: seen.waits.length,
        lines: seen.lines.length,
        answers429: service.counts.limited,
      });
    }
  }
  const summary = (list) => ({
    medianMs: median(list.map((run) => run.ms)),
    minMs: Math.min(...list.map((run) => run.ms)),
    maxMs: Math.max(...list.map((run) => run.ms)),
    waits: list.reduce((total, run) => total + run.waits, 0),
    lines: list.reduce((total, run) => total + run.lines, 0),
    answers429: list.reduce((total, run) => total + run.answers429, 0),
  });
  return { spent, calls, rounds, auto: summary(runs.auto), off: summary(runs.off) };
}

/** Two live clients of one key, `calls` each, `concurrency` at a time, under `limit` per `windowMs`. */
async function twoLive(Client, { calls, concurrency, limit, windowMs, runs }) {
  const service = await windowService({ limit, windowMs });
  // Window arithmetic: the requests fill ⌈2 × calls / limit⌉ windows, the last sent at its start.
  const arithmeticMs = (Math.ceil((2 * calls) / limit) - 1) * windowMs;
  const results = [];
  try {
    for (let run = 0; run < runs; run++) {
      // Start on a fresh window, as the issue's run did.
      await new Promise((resolve) => setTimeout(resolve, windowMs));
      service.restart();
      const clients = [0, 1].map(() => observedClient(Client, service.url, 'auto'));
      let failures = 0;
      const started = performance.now();
      const finished = await Promise.all(
        clients.map(async ({ client }) => {
          let next = 0;
          const worker = async () => {
            while (next < calls) {
              next++;
              await client.get('/v1/users').catch(() => failures++);
            }
          };
          await Promise.all(Array.from({ length: concurrency }, worker));
          return performance.now() - started;
        }),
      );
      const elapsedMs = Math.max(...finished);
      results.push({
        failures,
        requests: service.counts.ok + service.counts.limited,
        answers429: service.counts.limited,
        share429: service.counts.limited / (service.counts.ok + service.counts.limited),
        elapsedMs,
        finishedMs: finished,
        ratioToArithmetic: elapsedMs / arithmeticMs,
        pacedWaits: clients.reduce(
          (total, { seen }) =>
            total + seen.waits.filter((wait) => /live use is shared/.test(wait.cause)).length,
          0,
        ),
        resetWaits: clients.reduce(
          (total, { seen }) =>
            total + seen.waits.filter((wait) => /X-RateLimit-Reset/.test(wait.cause)).length,
          0,
        ),
      });
    }
  } finally {
    await service.close();
  }
  return { calls, concurrency, limit, windowMs, arithmeticMs, runs: results };
}

/**
 * 6i, issue 45's first scenario: a client making `calls` sequential calls on a key of `limit` per
 * `windowMs`, beside a consumer it cannot see that sends `foreignPerSecond` requests a second
 * (plain fetch, its own rate far inside the window), started with it: the consumer's 429s and
 * the client's, and the client's time. Arithmetic for its fair share: the window less the
 * consumer's part, so `calls / (limit − foreign per window)` windows.
 */
async function sequentialBeside(Client, { calls, limit, windowMs, foreignPerSecond, runs }) {
  const service = await windowService({ limit, windowMs });
  const results = [];
  try {
    for (let run = 0; run < runs; run++) {
      await new Promise((resolve) => setTimeout(resolve, windowMs));
      service.restart();
      const foreign = { sent: 0, limited: 0 };
      let stopped = false;
      const consumer = (async () => {
        const every = 1000 / foreignPerSecond;
        const began = performance.now();
        while (!stopped) {
          const response = await fetch(`${service.url}/v1/users`, {
            headers: { authorization: `Bearer ${LOOPBACK_KEY}` },
          });
          await response.arrayBuffer();
          foreign.sent++;
          if (response.status === 429) foreign.limited++;
          const next = began + foreign.sent * every;
          await new Promise((resolve) =>
            setTimeout(resolve, Math.max(0, next - performance.now())),
          );
        }
      })();
      const { client, seen } = observedClient(Client, service.url, 'auto');
      let own429 = 0;
      const started = performance.now();
      for (let index = 0; index < calls; index++) {
        await client.get('/v1/users').catch(() => {});
      }
      const elapsedMs = performance.now() - started;
      stopped = true;
      await consumer;
      own429 = service.counts.limited - foreign.limited;
      results.push({
        elapsedMs,
        foreign429: foreign.limited,
        own429,
        answers429: service.counts.limited,
        waits: seen.waits.length,
        lines: seen.lines.length,
      });
    }
  } finally {
    await service.close();
  }
  const fairPerWindow = limit - (foreignPerSecond * windowMs) / 1000;
  return {
    calls,
    limit,
    windowMs,
    foreignPerSecond,
    fairShareMs: (calls / fairPerWindow) * windowMs,
    runs: results,
  };
}

/**
 * One `employee-recognition export recognitions` command against `mock` (spawned, not run
 * synchronously: the mock answers from this process): its wall time and waits.
 */
async function exportCommand(mock) {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [`${ROOT}dist/cli.js`, 'export', 'recognitions', '--format', 'jsonl'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        RECOGNITION_API_KEY: mock.api.testKey,
        RECOGNITION_BASE_URL: mock.url,
        RECOGNITION_LOG: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let records = 0;
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    records += chunk.split('\n').length - 1;
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise((resolve) => child.once('close', resolve));
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`export recognitions failed (exit ${code}): ${stderr}`);
  return { ms, records, waitLines: (stderr.match(/waiting \d+ s/g) ?? []).length };
}

/**
 * The CLI: `runs` export commands (1,000 recognitions, 10 pages of 100) one after the other on
 * one mock after 5 requests from elsewhere, and the same command on a fresh mock (a fresh window)
 * before each.
 */
async function cli({ runs }) {
  const fresh = [];
  for (let run = 0; run < runs; run++) {
    const mock = await startMockServer({ recognitions: 1000 });
    try {
      fresh.push(await exportCommand(mock));
    } finally {
      await mock.close();
    }
  }
  const mock = await startMockServer({ recognitions: 1000 });
  const used = [];
  try {
    await spendFrom(`${mock.url}/v1/users`, mock.api.testKey, 5);
    for (let run = 0; run < runs; run++) used.push(await exportCommand(mock));
  } finally {
    await mock.close();
  }
  const freshMs = median(fresh.map((run) => run.ms));
  return {
    fresh,
    freshMedianMs: freshMs,
    afterOthers: used.map((run) => ({ ...run, ratioToFresh: run.ms / freshMs })),
  };
}

async function scenarios() {
  const { Client } = await importSdk();
  const only = (name) => ONLY === undefined || ONLY === name;
  const results = {};
  if (only('history')) {
    const service = await windowService({ limit: 100, windowMs: 60_000 });
    try {
      log('a window of 100 (60 s) with 12 spent by a process that has ended: 10 sequential calls');
      results.partlySpent = await history(Client, service, { spent: 12, calls: 10, rounds: 5 });
      log(JSON.stringify(results.partlySpent));
      log('a window of 100 (60 s) with 90 spent earlier: 8 sequential calls');
      results.spentEarlier = await history(Client, service, { spent: 90, calls: 8, rounds: 3 });
      log(JSON.stringify(results.spentEarlier));
    } finally {
      await service.close();
    }
  }
  if (only('live')) {
    log('two live clients of one key, 60 calls each, 8 at a time, 40 per 4 s');
    results.live = await twoLive(Client, {
      calls: 60,
      concurrency: 8,
      limit: 40,
      windowMs: 4000,
      runs: 2,
    });
    log(JSON.stringify(results.live));
  }
  if (only('beside')) {
    log('a sequential caller beside a consumer it cannot see: 40 calls, 30 per 3 s, 5 requests/s');
    results.beside = await sequentialBeside(Client, {
      calls: 40,
      limit: 30,
      windowMs: 3000,
      foreignPerSecond: 5,
      runs: 2,
    });
    log(JSON.stringify(results.beside));
  }
  if (only('cli')) {
    log(
      'the CLI: export recognitions (10 pages), fresh window against after 5 requests from elsewhere',
    );
    results.cli = await cli({ runs: 3 });
    log(JSON.stringify(results.cli));
  }
  return results;
}

if (SCENARIOS) {
  report(await scenarios());
  process.exit(0);
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
  let added;
  if (!ONLY) {
    log(`added latency: ${LATENCY_CALLS} sequential creates through the Redis store`);
    added = await latency(redis.url);
    log(JSON.stringify(added));
  }
  const runs = [];
  for (const job of [
    { mode: 'redis', workers: 8 },
    { mode: 'redis', workers: 32 },
    ...COMPARED_TIMEOUTS.map((timeout) => ({ mode: 'redis', workers: 32, timeout })),
    { mode: 'memory', workers: 8 },
    { mode: 'redis', workers: 8, pause: true },
  ].filter((job) => !ONLY || job.mode === ONLY)) {
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
if (ONLY) process.exit(0);

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
