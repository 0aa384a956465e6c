/**
 * `npm run bench`: builds the package (the npm script does), builds the SDK as it was before the
 * change being measured (`--baseline <ref>`, else BENCH_BASELINE, else the commit before issue
 * 30's work: bench/lib/baseline.mjs), starts the bench API server in a child process on
 * 127.0.0.1, runs each benchmark in a fresh child process of its own, and writes the results
 * into docs/benchmarks.md between the generated-section markers, keeping the rest of that file
 * (the analysis written by hand) as it is. The per-call benchmark runs under each Node version
 * scripts/install-runtimes.mjs provides (20, the machine's, and 22 and 24 from .runtimes/, which
 * it installs when they are missing). Every child has a time limit; the server is stopped however
 * the run ends. `--quick` runs fewer rounds, for trying the harness out: its figures are printed
 * but not written to the docs. Each run's raw results go to .tmp/bench-results.json; `--render`
 * writes the docs from them again without measuring (after a change of the tables).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { baselineRef, buildBaseline } from './lib/baseline.mjs';
import { startServer } from './server.mjs';

const QUICK = process.argv.includes('--quick');
/** `--render`: no measuring, the docs rewritten from the last run's results (RESULTS). */
const RENDER = process.argv.includes('--render');
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOC = `${ROOT}docs/benchmarks.md`;
const CHART = `${ROOT}docs/benchmarks-summary.svg`;
const START = '<!-- bench:results:start (written by bench/run.mjs; edits here are overwritten) -->';
const END = '<!-- bench:results:end -->';
/** The last run's raw results, for `--render` after a change of the tables' layout. */
const RESULTS = `${ROOT}.tmp/bench-results.json`;
const CHILD_LIMIT_MS = 4 * 60_000;
/** The per-call benchmark's limit, per Node version: about 4 minutes at a load average of 30. */
const PER_CALL_LIMIT_MS = 12 * 60_000;
const INSTALL_LIMIT_MS = 10 * 60_000;
/** The build before issue 30 (queue first, leaner calls), unless `--baseline` names another. */
const BASELINE_REF = baselineRef(process.argv, 'b197825');
/** Calls queued for the heap measure: the issue's 10,000 (fewer for --quick). */
const QUEUED_CALLS = QUICK ? 2_000 : 10_000;
/** Issue 30's targets: SDK / openai-node CPU per call, median and upper quartile of the rounds. */
const PER_CALL_TARGETS = {
  'users.get': { median: 1.0, q3: 1.1 },
  'recognitions.list (20 records)': { median: 1.05, q3: 1.15 },
};
/** Issue 30's target for a call queued behind the rate limit: 2.5 KB of live heap (KB = 1,000 B). */
const QUEUED_BYTES_TARGET = 2_500;

const ROUNDS = QUICK
  ? {
      perCall: [5, 100],
      overhead: [3, 500],
      paging: 2,
      webhooks: [3, 100],
      coldStart: 5,
      redaction: [3, 100_000],
    }
  : {
      perCall: [25, 400],
      overhead: [15, 2000],
      paging: 7,
      webhooks: [9, 250],
      coldStart: 15,
      redaction: [9, 1_000_000],
    };

const started = Date.now();
const log = (message) =>
  process.stderr.write(`[bench ${((Date.now() - started) / 60_000).toFixed(1)} min] ${message}\n`);

/**
 * Runs one benchmark script in a fresh process (Node `node`, the machine's by default) and
 * returns the result it reports.
 */
function runChild(
  script,
  args,
  { nodeFlags = [], node = process.execPath, env = {}, limitMs = CHILD_LIMIT_MS } = {},
) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [...nodeFlags, `bench/${script}`, ...args.map(String)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} ${args.join(' ')} took longer than ${limitMs / 1000} s`));
    }, limitMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const line = stdout.split('\n').find((text) => text.startsWith('@@RESULT '));
      if (code !== 0 || !line)
        reject(new Error(`${script} ${args.join(' ')} failed (exit ${code})`));
      else resolve(JSON.parse(line.slice('@@RESULT '.length)));
    });
  });
}

/**
 * The Node binaries to run the per-call benchmark under: this process's, then Node 22 and 24
 * from .runtimes/runtimes.json, installing them (scripts/install-runtimes.mjs) when missing.
 */
function nodeRuntimes() {
  const manifest = `${ROOT}.runtimes/runtimes.json`;
  const read = () => (existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')) : {});
  const present = (runtimes) =>
    ['node22', 'node24'].every((name) => runtimes[name] && existsSync(runtimes[name].path));
  let runtimes = read();
  if (!present(runtimes)) {
    log('Node 22 and 24 missing: node scripts/install-runtimes.mjs --no-chromium');
    const install = spawnSync(process.execPath, ['scripts/install-runtimes.mjs', '--no-chromium'], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: INSTALL_LIMIT_MS,
    });
    runtimes = read();
    if (install.status !== 0 || !present(runtimes)) {
      throw new Error('scripts/install-runtimes.mjs did not install Node 22 and 24');
    }
  }
  return [
    { name: 'Node 20', path: process.execPath },
    { name: 'Node 22', path: runtimes.node22.path },
    { name: 'Node 24', path: runtimes.node24.path },
  ];
}

/** Runs every benchmark; returns their results and the machine they ran on. */
async function measure() {
  const loadBefore = os.loadavg();
  const results = {
    openaiVersion: JSON.parse(readFileSync(`${ROOT}node_modules/openai/package.json`, 'utf8'))
      .version,
  };
  log(`building the baseline, ${BASELINE_REF}, into .tmp/bench-baseline/`);
  const baseline = buildBaseline(BASELINE_REF);
  results.baseline = { ref: baseline.ref, commit: baseline.commit, subject: baseline.subject };
  const compareBaseline = { env: { BENCH_COMPARE_DIR: baseline.dir } };
  const runtimes = nodeRuntimes();
  const server = await startServer();
  log(`server on ${server.url} (child process${QUICK ? ', quick run' : ''})`);
  try {
    results.perCall = [];
    for (const [index, runtime] of runtimes.entries()) {
      log(`1/8 per-call cost, ${runtime.name}, against openai-node and the baseline`);
      const mode = index === 0 ? 'full' : 'paired';
      results.perCall.push({
        runtime: runtime.name,
        ...(await runChild('per-call.mjs', [server.url, ...ROUNDS.perCall, mode], {
          node: runtime.path,
          limitMs: PER_CALL_LIMIT_MS,
          ...compareBaseline,
        })),
      });
    }
    log('1/8 client-side cost per call, no network');
    results.overhead = await runChild('overhead.mjs', ROUNDS.overhead, compareBaseline);
    log('2/8 paging: timing');
    results.paging = await runChild('paging.mjs', [server.url, 'timing', ROUNDS.paging]);
    log('2/8 paging: heap at 10,000 and 100,000 records');
    results.memory = [];
    for (const records of [10_000, 100_000]) {
      results.memory.push(
        await runChild('paging.mjs', [server.url, 'memory', records], {
          nodeFlags: ['--expose-gc'],
        }),
      );
    }
    log(`7/8 heap of ${QUEUED_CALLS.toLocaleString('en')} calls queued behind the rate limit`);
    const queued = (env) =>
      runChild('queued.mjs', [server.url, QUEUED_CALLS], { nodeFlags: ['--expose-gc'], env });
    results.queued = await queued({});
    results.queuedBaseline = await queued({ BENCH_SDK_DIR: baseline.dir });
  } finally {
    await server.stop();
  }
  log('3/8 webhook verification');
  results.webhooks = [];
  for (const mode of ['node', 'web-crypto']) {
    results.webhooks.push(await runChild('webhooks.mjs', [mode, ...ROUNDS.webhooks]));
  }
  log('4/8 bundle size');
  results.size = await runChild('size.mjs', []);
  log('5/8 cold start');
  results.coldStart = await runChild('cold-start.mjs', [ROUNDS.coldStart], compareBaseline);
  log('6/8 bulk jobs at the rate limit (simulated time)');
  results.bulk = await runChild('bulk.mjs', []);
  log('6/8 pacing a key with history and live use (real time, loopback; the CLI)');
  results.pacing = await runChild('pacing.mjs', ['--scenarios']);
  log('8/8 redaction of a hostile answer, against the baseline');
  results.redaction = await runChild('redaction.mjs', ROUNDS.redaction, compareBaseline);

  const machine = {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism?.() ?? os.cpus().length,
    memoryGiB: (os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    loadBefore: loadBefore.map((load) => load.toFixed(2)).join(' / '),
    loadAfter: os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' / '),
    date: new Date().toISOString().slice(0, 16).replace('T', ' '),
    minutes: ((Date.now() - started) / 60_000).toFixed(1),
    quick: QUICK,
  };
  return { results, machine };
}

const { results, machine } = RENDER ? JSON.parse(readFileSync(RESULTS, 'utf8')) : await measure();
if (!RENDER) {
  mkdirSync(dirname(RESULTS), { recursive: true });
  writeFileSync(RESULTS, JSON.stringify({ results, machine }));
}
const { section, chart } = render(results, machine);
process.stdout.write(`${section}\n`);
if (machine.quick) {
  log(`quick run: docs/benchmarks.md left as it is (results in ${RESULTS})`);
} else {
  writeFileSync(CHART, summaryChart(chart));
  log(`wrote ${CHART}`);
  const doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : `# Benchmarks\n\n${START}\n${END}\n`;
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (from === -1 || to === -1) throw new Error(`${DOC} lacks the generated-section markers`);
  writeFileSync(DOC, `${doc.slice(0, from + START.length)}\n${section}\n${doc.slice(to)}`);
  log(`wrote ${DOC}`);
}
log('done');

// --- rendering -------------------------------------------------------------------------------

function render(r, m) {
  const us = (ms) => `${Math.round(ms * 1000)}`;
  const x = (value) => `${value.toFixed(2)}×`;
  const spread = (s, f) => `${f(s.median)} (IQR ${f(s.q1)}–${f(s.q3)})`;
  const kb = (bytes) => `${(bytes / 1000).toFixed(2)} kB`;
  const kib = (bytes) => `${Math.round(bytes / 1024).toLocaleString('en')} KiB`;
  const met = (ok) => (ok ? '**met**' : '**not met**');
  const rows = [];

  // Each row with a numeric target also goes into the chart, as measured / target (≤ 1 is met).
  const chart = [];
  const row = (label, target, measured, ok, [short, ratio]) => {
    rows.push([label, target, measured, met(ok)]);
    chart.push({ label: short, ratio, ok });
  };

  // 1. Per-call cost against openai-node, on each Node version: the CPU ratio, paired per round.
  const perCallRows = [];
  for (const run of r.perCall) {
    for (const [operation, result] of Object.entries(run.operations)) {
      const target = PER_CALL_TARGETS[operation];
      const { cpu, wall } = result.toOpenai;
      const ok = cpu.median <= target.median && cpu.q3 <= target.q3;
      perCallRows.push([
        `${run.runtime} (${run.node})`,
        operation,
        x(cpu.median),
        x(cpu.q1),
        x(cpu.q3),
        `median ≤ ${x(target.median)}, q3 ≤ ${x(target.q3)}`,
        met(ok),
        spread(wall, x),
        spread(result.toBaseline.cpu, x),
      ]);
      row(
        `1. Per call, ${operation}, ${run.runtime}: SDK / openai-node CPU, median of paired per-round ratios (quartiles)`,
        `median ≤ ${x(target.median)}, upper quartile ≤ ${x(target.q3)}`,
        `${x(cpu.median)} (q1 ${x(cpu.q1)}, q3 ${x(cpu.q3)}); wall ${x(wall.median)}; SDK / baseline build, CPU ${x(result.toBaseline.cpu.median)}`,
        ok,
        [
          `Per call, ${operation}, ${run.runtime} (${x(target.median)} openai-node)`,
          Math.max(cpu.median / target.median, cpu.q3 / target.q3),
        ],
      );
    }
  }
  // 2. Paging.
  for (const [work, result] of Object.entries(r.paging.results)) {
    row(
      `2. Paging 10,000 (5 ms server, 5 ms ${work} per page): for await / sequential`,
      '≤ 0.60',
      `${spread(result.ratio, (v) => v.toFixed(2))}`,
      result.ratio.median <= 0.6,
      [`Paging, ${work} (0.60)`, result.ratio.median / 0.6],
    );
  }
  const [small, large] = r.memory;
  const growth = large.peakLiveAboveBaselineBytes - small.peakLiveAboveBaselineBytes;
  row(
    '2. Heap used (live), peak above start, 10,000 → 100,000 records',
    'flat: grows < 1 MiB (< 12 B per extra record; keeping the records would take ~30 MB)',
    `${kib(small.peakLiveAboveBaselineBytes)} → ${kib(large.peakLiveAboveBaselineBytes)} (${growth >= 0 ? '+' : ''}${kib(growth)})`,
    growth < 2 ** 20,
    ['Paging heap growth, 10k → 100k records (1 MiB)', Math.max(0, growth) / 2 ** 20],
  );
  // 3. Webhooks.
  const [nodeRun, webRun] = r.webhooks;
  for (const [size, target] of [
    ['1 KB', 2],
    ['100 KB', 5],
  ]) {
    const node = nodeRun.sizes[size].targets['verifyWebhook (node:crypto)'];
    // A "at least" target: the chart shows target / measured, so that left of the line is met.
    row(
      `3. verifyWebhook (Node) / standardwebhooks, ${size}`,
      `≥ ${target}×`,
      spread(node.ratioToReference, x),
      node.ratioToReference.median >= target,
      [
        `verifyWebhook, ${size} (${target}× standardwebhooks)`,
        target / node.ratioToReference.median,
      ],
    );
  }
  rows.push([
    '3. verifyWebhook (Web Crypto path) / standardwebhooks, 1 KB and 100 KB',
    '(measured, no target)',
    ['1 KB', '100 KB']
      .map((size) =>
        x(webRun.sizes[size].targets['verifyWebhook (Web Crypto)'].ratioToReference.median),
      )
      .join(' and '),
    '—',
  ]);
  // 4. Size.
  const apps = r.size.apps;
  const client = apps['Client app (list recognitions)'];
  const webhook = apps['verifyWebhook app (/webhooks entry)'];
  row(
    '4. Client app (lists recognitions), min+gzip, ky inside',
    '≤ 24.5 kB: must not grow (the gate in .size-limit.json)',
    kb(client.gzipBytes),
    client.gzipBytes <= 24_500,
    ['Client app min+gzip (24.5 kB)', client.gzipBytes / 24_500],
  );
  row(
    '4. verifyWebhook app (`/webhooks` entry), min+gzip',
    '≤ 2.5 kB',
    kb(webhook.gzipBytes),
    webhook.gzipBytes <= 2_500,
    ['verifyWebhook app min+gzip (2.5 kB)', webhook.gzipBytes / 2_500],
  );
  // 5. Cold start.
  const cold = r.coldStart.packages;
  const ms = (value) => `${value.toFixed(0)} ms`;
  const paired = r.coldStart.toOpenai['@employee-recognition/sdk'];
  row(
    '5. Cold start: `await import()` of the main entry, SDK / openai-node, wall and CPU',
    '≤ 0.6× both',
    `wall ${spread(paired.importMs, x)}, CPU ${x(paired.cpuMs.median)}; SDK ${ms(cold['@employee-recognition/sdk'].importMs.median)}, openai ${ms(cold.openai.importMs.median)}, stripe ${ms(cold.stripe.importMs.median)}`,
    paired.importMs.median <= 0.6 && paired.cpuMs.median <= 0.6,
    [
      'Cold start, main entry (0.6× openai-node)',
      Math.max(paired.importMs.median, paired.cpuMs.median) / 0.6,
    ],
  );
  const firstName = '@employee-recognition/sdk: import + first request';
  const first = r.coldStart.toOpenai[firstName];
  row(
    '5. Cold start: `import` plus the first request (`users.get`), SDK / openai-node, wall and CPU',
    '≤ 0.6× both',
    `wall ${spread(first.importMs, x)}, CPU ${x(first.cpuMs.median)}; SDK ${ms(cold[firstName].importMs.median)}, openai ${ms(cold['openai: import + first request'].importMs.median)}`,
    first.importMs.median <= 0.6 && first.cpuMs.median <= 0.6,
    [
      'Cold start, import + first request (0.6× openai-node)',
      Math.max(first.importMs.median, first.cpuMs.median) / 0.6,
    ],
  );
  const before = r.coldStart.toBaseline;
  const baselineFirst = cold['@employee-recognition/sdk (baseline build): import + first request'];
  row(
    `5. Cold start: \`import\` plus the first request, this build / the baseline build (${r.baseline.commit}), CPU and wall`,
    'CPU ≤ 1×: no worse than before',
    `CPU ${spread(before.cpuMs, x)}, wall ${spread(before.importMs, x)}; CPU ${ms(cold[firstName].cpuMs.median)} against ${ms(baselineFirst.cpuMs.median)}`,
    before.cpuMs.median <= 1,
    [`Cold start, import + first request (1× the baseline build)`, before.cpuMs.median],
  );
  const webhooksEntry = cold['@employee-recognition/sdk/webhooks'];
  const webhooksPaired = r.coldStart.toOpenai['@employee-recognition/sdk/webhooks'];
  row(
    '5. Cold start: `await import()` of `/webhooks`, / openai-node',
    '≤ 0.15×: no slower than before (0.14× wall, 0.11× CPU; docs below)',
    `wall ${spread(webhooksPaired.importMs, x)}, CPU ${x(webhooksPaired.cpuMs.median)}; ${webhooksEntry.importMs.median.toFixed(1)} ms`,
    webhooksPaired.importMs.median <= 0.15,
    ['Cold start, /webhooks (0.15× openai-node)', webhooksPaired.importMs.median / 0.15],
  );
  // 6. Bulk jobs at the rate limit.
  const bulk = {};
  for (const run of r.bulk.runs) (bulk[run.job] ??= []).push(run);
  const pct = (value) => `${(value * 100).toFixed(1)} %`;
  const off = (job) => {
    const o = bulk[job].find((run) => run.rateLimit === 'off');
    return `off: ${o.failures} failed, ${pct(o.share429)} 429s`;
  };
  for (const [job, label] of [
    ['creates', '6a. 1,000 creates at once, tier 100, 60 s window'],
    ['list', '6b. `for await` over 25,000 recognitions (250 pages), tier 100'],
  ]) {
    const a = bulk[job].find((run) => run.rateLimit === 'auto');
    row(
      `${label}: failures, 429s, time / window arithmetic`,
      '0, 0, ≤ 1.03×',
      `${a.failures}, ${a.answers429}, ${x(a.ratioToArithmetic)} (${(a.simulatedMs / 1000).toFixed(1)} s against ${a.windowArithmeticMs / 1000} s); ${off(job)}`,
      a.failures === 0 && a.answers429 === 0 && a.ratioToArithmetic <= 1.03,
      [
        `${label.slice(0, 3)} bulk ${job} (1.03× windows, no failure or 429)`,
        a.failures === 0 && a.answers429 === 0 ? a.ratioToArithmetic / 1.03 : 2,
      ],
    );
  }
  const shared = bulk.shared.find((run) => run.rateLimit === 'auto');
  row(
    '6c. The 1,000 creates from 4 clients of one key: failures, share of answers 429',
    '0, ≤ 5 %',
    `${shared.failures}, ${pct(shared.share429)} (${shared.answers429} of ${shared.requests}; ${x(shared.ratioToArithmetic)} the window arithmetic); ${off('shared')}`,
    shared.failures === 0 && shared.share429 <= 0.05,
    [
      '6c. 4 clients, one key (5 % 429s, no failure)',
      shared.failures === 0 ? shared.share429 / 0.05 : 2,
    ],
  );
  // 6e–6h. Pacing a key with history and live use (bench/pacing.mjs --scenarios); older results
  // files have none.
  if (r.pacing) {
    const ms = (value) => `${value.toFixed(1)} ms`;
    for (const [label, result] of [
      [
        '6e. A window of 100 (60 s) partly spent by a process that has ended (12): 10 sequential calls',
        r.pacing.partlySpent,
      ],
      [
        '6f. A window of 100 (60 s) spent earlier, with enough left (90 spent): 8 sequential calls',
        r.pacing.spentEarlier,
      ],
    ]) {
      const { auto, off } = result;
      // Within noise: the fastest 'auto' run is no slower than the slowest 'off' one.
      const ok = auto.waits === 0 && auto.answers429 === 0 && auto.minMs <= off.maxMs;
      row(
        `${label}: waits, 429s, time with \`'auto'\` / \`'off'\``,
        "no wait, no 429; as `'off'`, within noise",
        `${auto.waits}, ${auto.answers429}; median ${ms(auto.medianMs)} (${ms(auto.minMs)}–${ms(auto.maxMs)}) against ${ms(off.medianMs)} (${ms(off.minMs)}–${ms(off.maxMs)}), ${result.rounds} runs each`,
        ok,
        [`${label.slice(0, 3)} history: no wait`, ok ? auto.minMs / off.maxMs : 2],
      );
    }
    const live = r.pacing.live;
    const worst = Math.max(...live.runs.map((run) => run.ratioToArithmetic));
    const liveOk = live.runs.every((run) => run.failures === 0 && run.share429 <= 0.05);
    row(
      `6g. Two live clients of one key, ${live.calls} calls each, ${live.concurrency} at a time, ${live.limit} per ${live.windowMs / 1000} s: failures, 429s, time / window arithmetic`,
      '0, ≤ 5 %, ≤ 1.4×',
      live.runs
        .map(
          (run) =>
            `${run.failures}, ${pct(run.share429)} (${run.answers429} of ${run.requests}), ${x(run.ratioToArithmetic)} (${(run.elapsedMs / 1000).toFixed(1)} s against ${live.arithmeticMs / 1000} s)`,
        )
        .join('; '),
      liveOk && worst <= 1.4,
      ['6g. two live clients (1.4× windows)', liveOk ? worst / 1.4 : 2],
    );
    const { beside } = r.pacing;
    const besideOk = beside.runs.every((run) => run.answers429 <= 4 && run.elapsedMs <= 15_000);
    row(
      `6i. ${beside.calls} sequential calls beside a consumer it cannot see (${beside.foreignPerSecond} requests/s), ${beside.limit} per ${beside.windowMs / 1000} s: answers 429 (the consumer's), time`,
      '≤ 4 in all, ≤ 15 s, each run',
      beside.runs
        .map(
          (run) =>
            `${run.answers429} (${run.foreign429}), ${(run.elapsedMs / 1000).toFixed(1)} s (fair share ${(beside.fairShareMs / 1000).toFixed(0)} s)`,
        )
        .join('; '),
      besideOk,
      [
        '6i. sequential beside a live consumer (15 s)',
        Math.max(...beside.runs.map((run) => run.elapsedMs)) / 15_000,
      ],
    );
    const { cli } = r.pacing;
    const slowest = Math.max(...cli.afterOthers.map((run) => run.ratioToFresh));
    row(
      '6h. CLI `export recognitions` (10 pages) after 5 requests from elsewhere, 3 commands in a row / the same on a fresh window',
      '≤ 1.5× each',
      `${cli.afterOthers.map((run) => `${(run.ms / 1000).toFixed(2)} s (${x(run.ratioToFresh)})`).join(', ')} against ${(cli.freshMedianMs / 1000).toFixed(2)} s (median of ${cli.fresh.length})`,
      slowest <= 1.5,
      ['6h. CLI after others (1.5× fresh)', slowest / 1.5],
    );
  }
  // 7. Calls queued behind the rate limit.
  const queued = r.queued;
  const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  const queuedKb = (result) => `${(result.bytesPerCall / 1000).toFixed(2)} KB`;
  row(
    `7. ${queued.calls.toLocaleString('en')} calls queued behind the rate limit (\`recognitions.create\`): live heap held per call`,
    '≤ 2.5 KB per queued call (≤ 25 MiB for 10,000)',
    `${queuedKb(queued)} per call, ${mib(queued.heapBytes)} in all; baseline build (${r.baseline.commit}): ${queuedKb(r.queuedBaseline)}, ${mib(r.queuedBaseline.heapBytes)}`,
    queued.bytesPerCall <= QUEUED_BYTES_TARGET,
    ['Queued calls, heap per call (2.5 KB)', queued.bytesPerCall / QUEUED_BYTES_TARGET],
  );

  const table = (header, body) =>
    [
      `| ${header.join(' | ')} |`,
      `| ${header.map(() => '---').join(' | ')} |`,
      ...body.map((row) => `| ${row.join(' | ')} |`),
    ].join('\n');

  const out = [];
  out.push(
    `Run of ${m.date} UTC, ${m.minutes} min. Command: \`npm run bench\` (= \`npm run build && node bench/run.mjs\`).`,
  );
  out.push('');
  out.push(
    `Baseline build: \`${r.baseline.commit}\` (${r.baseline.subject.replace(/[|`]/g, ' ')}), built from \`--baseline ${r.baseline.ref}\` by bench/lib/baseline.mjs and measured in the same run, in the same rounds where a benchmark pairs it.`,
  );
  out.push('');
  out.push(
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB; Node ${m.node}; ${m.os}. Load average (1/5/15 min) ${m.loadBefore} at the start, ${m.loadAfter} at the end: other work shared the machine, which is why every figure is a median of interleaved rounds with its spread.`,
  );
  out.push('');
  out.push('### Summary');
  out.push('');
  out.push(
    '![Each target as measured / target: a bar at or left of the line is met](benchmarks-summary.svg)',
  );
  out.push('');
  out.push(table(['Benchmark', 'Target', 'Measured: median (IQR)', 'Result'], rows));
  out.push('');

  out.push('### 1. Per-call cost');
  out.push('');
  const node20 = r.perCall[0];
  out.push(
    `Sequential calls, keep-alive, against the bench server (child process, fixed JSON bodies), under each Node version scripts/install-runtimes.mjs provides, each in a fresh process: ${node20.rounds} rounds × ${node20.callsPerRound} calls per target after a warm-up round. The SDK and openai-node ${r.openaiVersion} (6.x, the line that still runs on Node 20) run back to back in every round, in alternating order, and that pair rotates with the other targets (plain fetch + JSON.parse, the baseline build ${r.baseline.commit}, and on Node 20 ky alone). CPU is the client process's user + system time per call; the figure is the median of the per-round ratios SDK / openai-node of CPU, with its quartiles (q1, q3).`,
  );
  out.push('');
  out.push(
    table(
      [
        'Node',
        'Operation',
        'CPU median',
        'q1',
        'q3',
        'Target',
        'Met?',
        'Wall, SDK / openai-node',
        'CPU, SDK / baseline build',
      ],
      perCallRows,
    ),
  );
  out.push('');
  out.push('Each target per call, per Node version (medians over the rounds, with the IQR):');
  out.push('');
  out.push(
    table(
      ['Node', 'Operation', 'Target', 'Wall µs/call', 'CPU µs/call', 'CPU / fetch'],
      r.perCall.flatMap((run) =>
        Object.entries(run.operations).flatMap(([operation, result]) =>
          Object.entries(result.targets).map(([name, t]) => [
            run.runtime,
            operation,
            name,
            spread(t.perCallMs, us),
            spread(t.cpuPerCallMs, us),
            spread(t.cpuRatioToFetch, x),
          ]),
        ),
      ),
    ),
  );
  out.push('');

  out.push(
    `**Client-side cost per call, no network.** Every target gets a \`fetch\` that answers at once with the same body (bench/overhead.mjs), so this is the CPU spent in this process per call: options, Request objects and signals, hooks, body reading, JSON.parse, validation, promises. \`sdk (recorded)\` is the same client with a recorder's \`fetch\` (createRecorder of /testing, in memory): its row less the \`sdk\` row is a recorded call's overhead, each entry built and redacted (docs/testing.md, "Recording real traffic"). ${r.overhead.rounds} rounds × ${r.overhead.callsPerRound} calls, interleaved.`,
  );
  out.push('');
  out.push(
    table(
      ['Operation', 'Target', 'CPU µs/call', 'Above fetch + JSON.parse'],
      Object.entries(r.overhead.operations).flatMap(([operation, targets]) =>
        Object.entries(targets).map(([name, t]) => [
          operation,
          name,
          spread(t, (v) => v.toFixed(1)),
          `${(t.median - targets['fetch + JSON.parse'].median).toFixed(1)} µs`,
        ]),
      ),
    ),
  );
  out.push('');

  out.push('### 2. Paging');
  out.push('');
  out.push(
    `${r.paging.records.toLocaleString('en')} recognitions in pages of ${r.paging.pageSize}; the server answers each page after ${r.paging.serverDelayMs} ms; the consumer spends ${r.paging.workMsPerPage} ms per page, as an awaited timer (I/O wait) or as busy computation (CPU work). Loops alternate in order over the rounds.`,
  );
  out.push('');
  out.push(
    table(
      ['Consumer', 'for await (prefetch) ms', 'Sequential loop ms', 'Ratio'],
      Object.entries(r.paging.results).map(([work, result]) => [
        work,
        spread(result.ms['for await (prefetch)'], (v) => v.toFixed(0)),
        spread(result.ms['sequential loop'], (v) => v.toFixed(0)),
        spread(result.ratio, (v) => v.toFixed(2)),
      ]),
    ),
  );
  out.push('');
  out.push(
    'Heap: after a warm-up pass over 20,000 records, `for await` over the whole list with no delays, in a process run with `--expose-gc`, sampling `heapUsed` at every page boundary; figures are above the heap before the loop. "Live" samples after a collection, a 5 ms turn of the event loop (so Node runs the FinalizationRegistry cleanups undici queues for every Request with a signal) and a second collection; "without code space" subtracts V8\'s compiled code, which keeps growing while V8 optimizes; "trend" is the least-squares slope of the live samples; "raw" samples the heap as it is, garbage included.',
  );
  out.push('');
  out.push(
    table(
      [
        'Records',
        'Peak live',
        'Median live',
        'Peak live without code space',
        'Live trend',
        'Peak raw',
      ],
      r.memory.map((m) => [
        m.records.toLocaleString('en'),
        kib(m.peakLiveAboveBaselineBytes),
        kib(m.medianLiveAboveBaselineBytes),
        kib(m.peakLiveNonCodeAboveBaselineBytes),
        `${m.liveBytesPerRecord.toFixed(1)} B/record`,
        kib(m.peakRawAboveBaselineBytes),
      ]),
    ),
  );
  out.push('');

  out.push('### 3. Webhook verification');
  out.push('');
  out.push(
    `Sequential verifications of a signed \`recognition.created\` delivery (string body, object headers, one \`whsec_\` secret). ${nodeRun.rounds} rounds × ${nodeRun.msPerTargetPerRound} ms per target, rotating order; ratios per round. The Web Crypto path runs in a second process (Node's \`process.getBuiltinModule\` hidden, as in a browser or worker), with the reference measured again beside it.`,
  );
  out.push('');
  out.push(
    table(
      ['Payload', 'Process', 'Target', 'Verifications/s', '× standardwebhooks'],
      r.webhooks.flatMap((run) =>
        Object.entries(run.sizes).flatMap(([size, s]) =>
          Object.entries(s.targets).map(([name, t]) => [
            size,
            run.mode,
            name,
            spread(t.opsPerSecond, (v) => Math.round(v).toLocaleString('en')),
            spread(t.ratioToReference, x),
          ]),
        ),
      ),
    ),
  );
  out.push('');

  out.push('### 4. Bundle size');
  out.push('');
  out.push(
    'esbuild, ESM, platform browser, minified, dependencies bundled, gzip level 9 (as size-limit measures); kB = 1,000 bytes, as size-limit counts; the apps are `bench/size/*.js` and import the SDK by its name, which resolves to the built `dist/`. "By package" splits the minified bytes with esbuild\'s metafile. `verifyWebhook` is exported only by the `/webhooks` entry: the main entry is one bundled file whose schemas bundlers cannot drop, so an app importing `verifyWebhook` from it carried the whole client (20.4 kB).',
  );
  out.push('');
  out.push(
    table(
      ['App', 'min+gzip', 'minified', 'Minified bytes by package'],
      Object.entries(apps).map(([name, a]) => [
        name,
        kb(a.gzipBytes),
        kb(a.minBytes),
        Object.entries(a.byPackage)
          .sort((p, q) => q[1] - p[1])
          .map(([pkg, bytes]) => `${pkg} ${(bytes / 1000).toFixed(1)} kB`)
          .join(', '),
      ]),
    ),
  );
  out.push('');

  out.push('### 5. Cold start');
  out.push('');
  out.push(
    `${r.coldStart.runs} fresh processes per package, rotating order. "Import" is \`performance.now()\` around \`await import()\` inside the process (for the "import + first request" rows, around the import and the first \`users.get\` against the bench server); "process" is spawn to exit. An empty process takes ${spread(r.coldStart.emptyProcessMs, (v) => v.toFixed(0))} ms.`,
  );
  out.push('');
  out.push(
    table(
      ['Package', 'Import ms', 'Import CPU ms', 'Process ms'],
      Object.entries(cold).map(([name, c]) => [
        name,
        spread(c.importMs, (v) => v.toFixed(1)),
        spread(c.cpuMs, (v) => v.toFixed(1)),
        spread(c.processMs, (v) => v.toFixed(0)),
      ]),
    ),
  );
  out.push('');

  out.push('### 6. Bulk jobs at the rate limit');
  out.push('');
  out.push(
    `The SDK's mock at the ${r.bulk.tier} tier with a ${r.bulk.windowMs / 1000} s window, on a simulated clock (bench/bulk.mjs says how): every job once with pacing (\`rateLimit: 'auto'\`, the default) and once without, other options at their defaults (2 retries). "Window arithmetic" is (⌈requests / tier⌉ − 1) windows. Real time and CPU are the simulation's own.`,
  );
  out.push('');
  out.push(
    table(
      [
        'Job',
        'rateLimit',
        'Failed calls',
        'Requests',
        '429 answers',
        'Simulated time',
        '/ window arithmetic',
        'Real time, CPU',
      ],
      r.bulk.runs.map((run) => [
        run.job,
        run.rateLimit,
        `${run.failures} of ${run.calls}${run.failureKinds.length ? ` (${run.failureKinds.join(', ')})` : ''}`,
        run.requests.toLocaleString('en'),
        `${run.answers429.toLocaleString('en')} (${pct(run.share429)})`,
        `${(run.simulatedMs / 1000).toFixed(1)} s`,
        x(run.ratioToArithmetic),
        `${(run.realMs / 1000).toFixed(1)} s, ${(run.cpuMs / 1000).toFixed(1)} s`,
      ]),
    ),
  );
  out.push('');
  out.push('### 7. Calls queued behind the rate limit');
  out.push('');
  out.push(
    `One client with its defaults (\`rateLimit: 'auto'\`) against the bench server, whose every answer under \`/limited\` says the window is spent (X-RateLimit-Remaining 0) and resets in 50 s: after a first call, every call queues in the client (bench/queued.mjs says how). In a process run with \`--expose-gc\`, after 1,000 calls queued and cancelled as a warm-up, the live heap is taken (collected until it stops shrinking), then ${queued.calls.toLocaleString('en')} \`recognitions.create\` calls are started, each with its own message and one shared AbortSignal, and the live heap is taken again: the difference is what the queued calls hold, the promises the caller keeps included. The signal then aborts; the run fails unless every call rejects with \`ApiUserAbortError\`, no request reached the server and no timer is left. The baseline build (${r.baseline.commit}) is measured the same way in a process of its own.`,
  );
  out.push('');
  out.push(
    table(
      [
        'Build',
        'Node',
        'Calls',
        'Live heap held',
        'Per call',
        'Timers while queued',
        'Abort listeners on the signal',
        'Requests sent',
        'Timers left after cancel',
      ],
      [
        ['this build', queued],
        [`baseline (${r.baseline.commit})`, r.queuedBaseline],
      ].map(([name, q]) => [
        name,
        q.node,
        q.calls.toLocaleString('en'),
        mib(q.heapBytes),
        `${Math.round(q.bytesPerCall).toLocaleString('en')} B`,
        q.whileQueued.timers,
        q.whileQueued.abortListeners,
        q.left.sent,
        q.left.timers,
      ]),
    ),
  );
  if (r.redaction) {
    const red = r.redaction;
    out.push('');
    out.push('### 8. Redacting a hostile answer');
    out.push('');
    out.push(
      `One call meets a 503 whose error message is a page of ${(red.bytes / 1e6).toLocaleString('en')} MB, and the client logs at debug, so the call's own credential is looked for in the error and in the debug line in every form it may be written back (bench/redaction.mjs says how). Each page is the worst of its kind for the redaction, which reads each order of percent- and JSON-decoding (at most ten texts); "no escapes" is an ordinary answer's cost. Median of ${red.rounds} rounds, \`fetch\` answering at once; the baseline build (${r.baseline.commit}) beside it, round by round.`,
    );
    out.push('');
    out.push(
      table(
        ['Page', 'This build, ms per call', 'Baseline, ms per call', '× baseline'],
        Object.entries(red.pages).map(([name, page]) => [
          name,
          spread(page.ms, (v) => v.toFixed(0)),
          page.baselineMs ? spread(page.baselineMs, (v) => v.toFixed(0)) : '—',
          page.ratio ? spread(page.ratio, x) : '—',
        ]),
      ),
    );
  }
  return { section: out.join('\n'), chart };
}

/** The summary as a bar chart (SVG text, no dependency): each target's measured / target. */
function summaryChart(bars) {
  const escape = (text) =>
    text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  const width = 960;
  const left = 520;
  const barHeight = 18;
  const gap = 8;
  const top = 40;
  const scale = (width - left - 40) / 2; // 0 … 2× the target
  const height = top + bars.length * (barHeight + gap) + 30;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">Benchmarks against their targets: measured / target (1 = the target; left of the line is met)</text>`,
  ];
  bars.forEach((bar, index) => {
    const y = top + index * (barHeight + gap);
    const length = Math.min(bar.ratio, 2) * scale;
    parts.push(
      `<text x="${left - 8}" y="${y + 13}" text-anchor="end">${escape(bar.label)}</text>`,
      `<rect x="${left}" y="${y}" width="${length.toFixed(1)}" height="${barHeight}" fill="${bar.ok ? '#2e7d32' : '#c62828'}"/>`,
      `<text x="${(left + length + 4).toFixed(1)}" y="${y + 13}">${bar.ratio.toFixed(2)}${bar.ratio > 2 ? ' (cut)' : ''}</text>`,
    );
  });
  const line = left + scale;
  parts.push(
    `<line x1="${line}" y1="${top - 6}" x2="${line}" y2="${height - 24}" stroke="#000" stroke-dasharray="4 3"/>`,
    `<text x="${line}" y="${height - 8}" text-anchor="middle">target</text>`,
    '</svg>',
  );
  return `${parts.join('\n')}\n`;
}
