#!/usr/bin/env node
// Exercises the SDK on every runtime customers use, with the binaries that
// scripts/install-runtimes.mjs put in .runtimes/ (run that first):
//   - the vitest suite under Node 22 and Node 24 (Node 20, the machine's, runs it in `npm test`);
//   - the MSW tests (/testing/msw, fromRecording, the docs' MSW examples) under msw 3 on Node 22
//     and 24: in a copy of the repository whose `msw` is the msw 3 install-runtimes put in
//     .runtimes/msw3 (the testing kit imports `msw` by name; the repository's is msw 2, which
//     `npm test` runs them under on Node 20);
//   - test/runtimes/smoke.mjs, importing the BUILT package, against a mock server over real
//     HTTP under Node 20, 22 and 24, Bun, Deno, Cloudflare workerd and headless Chromium.
// The mock server (startMockServer from the package's ./testing entry) runs in this Node
// process; each runtime gets a fresh one. Prints one line per check, timings and a summary, and
// exits 1 when any check failed. Everything it starts is bounded and stopped.
//
// Usage: node scripts/test-runtimes.mjs [--only=bun,deno,...] [--list]
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuild } from './lib/build.mjs';
import {
  freePort,
  killAll,
  run,
  seconds,
  startBackground,
  stripAnsi,
  within,
} from './lib/process.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const runtimesDir = join(root, '.runtimes');
const buildDir = join(runtimesDir, 'build');
const logDir = join(runtimesDir, 'logs');
const SMOKE = 'test/runtimes/smoke.mjs';
/** The smoke's checks; a run that reports fewer did not run them all. */
const SMOKE_CHECKS = 11;
const SMOKE_TIMEOUT_MS = 90_000;
const VITEST_TIMEOUT_MS = 15 * 60_000;
/** The mock data: 25 recognitions read 10 at a time are three pages. */
const RECOGNITIONS = 25;
const PAGE_SIZE = 10;
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The MSW tests: the handlers of /testing/msw, and fromRecording with the rest of replay. */
const MSW_TESTS = ['test/testing/msw.test.ts', 'test/testing/replay.test.ts'];
// @mswjs/source, the repository's, peers msw 2: its one test is the repository's alone.
const MSW3_SKIPPED_TESTS = '^(?!.*@mswjs/source)';
/** What the copy for msw 3 needs of the repository: the sources, the tests, the docs and their checker. */
// The one option msw 3 renamed that the tests and the docs' examples give: written as msw 3
// spells it in the copy, so an unhandled request fails there too (msw 3 ignores the old name).
const MSW3_RENAMED = [/\bonUnhandledRequest\b/g, 'onUnhandledFrame'];
const MSW3_COPIED = [
  'openapi.json',
  'src',
  'test',
  'docs',
  'scripts',
  'README.md',
  'package.json',
  'tsconfig.json',
  'vitest.config.ts',
];

const say = (line) => console.log(line);
const indent = (line) => say(`    ${line}`);

/** The runtimes of .runtimes/runtimes.json that the checks to run need (each names its own). */
function readRuntimes(checks) {
  const path = join(runtimesDir, 'runtimes.json');
  const runtimes = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {};
  const missing = ['node22', 'node24', 'bun', 'deno', 'workerd', 'chromium', 'msw3'].filter(
    (name) =>
      checks.some((check) => check.name.includes(name)) &&
      (!runtimes[name]?.path || !existsSync(runtimes[name].path)),
  );
  if (missing.length) {
    throw new Error(`${missing.join(', ')} not installed: run node scripts/install-runtimes.mjs`);
  }
  return runtimes;
}

/** A fresh mock server and the smoke settings that go with it. */
async function startSmokeServer(testing, secret = testing.generateWebhookSecret()) {
  const server = await testing.startMockServer({ port: 0, recognitions: RECOGNITIONS });
  const { store, testKey } = server.api;
  // The first seeded user owns the key; recognize someone else who is active.
  const recipient = store.users.all().find((user, index) => index > 0 && user.status === 'active');
  const event = {
    id: 'evt_smoke_runtime',
    type: 'recognition.created',
    created_at: new Date().toISOString(),
    data: store.recognitions.all()[0],
  };
  const payload = JSON.stringify(event);
  const headers = await testing.signWebhook(payload, secret, {
    id: event.id,
    timestamp: new Date(),
  });
  const config = {
    baseUrl: server.url,
    apiKey: testKey,
    pageSize: PAGE_SIZE,
    expectedTotal: store.recognitions.size,
    recipientId: recipient.id,
    webhook: { payload, headers: { ...headers }, secret, type: event.type },
  };
  return { server, config };
}

/** Checks a smoke run's report: every check ran and none failed. */
function judgeSmoke(lines, exitCode) {
  const summary = lines.map((line) => /(\d+) passed, (\d+) failed/.exec(line)).findLast(Boolean);
  if (!summary) return `no summary line (exit ${exitCode})`;
  const [, passed, failed] = summary.map(Number);
  if (failed > 0) return `${failed} of ${passed + failed} smoke checks failed`;
  if (passed < SMOKE_CHECKS) return `only ${passed} of ${SMOKE_CHECKS} smoke checks ran`;
  if (exitCode !== 0) return `exit code ${exitCode}`;
  return undefined;
}

/** Runs the smoke as a program: `file args` with the settings in SMOKE_CONFIG. */
async function smokeProgram(testing, file, args, extraEnv = {}) {
  const { server, config } = await startSmokeServer(testing);
  try {
    const lines = [];
    const result = await run(file, args, {
      cwd: root,
      timeoutMs: SMOKE_TIMEOUT_MS,
      env: { ...process.env, NO_COLOR: '1', ...extraEnv, SMOKE_CONFIG: JSON.stringify(config) },
      onLine: (line) => {
        if (line.trim() === '') return;
        lines.push(line);
        indent(line);
      },
    });
    if (result.timedOut) return `timed out after ${SMOKE_TIMEOUT_MS / 1000}s`;
    return judgeSmoke(lines, result.code);
  } finally {
    await server.close();
  }
}

async function bundle(entry, outfile, platform, conditions) {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [join(root, entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform,
    conditions,
    target: 'es2022',
    logLevel: 'warning',
    metafile: true,
  });
  // What a consumer's bundler gets: the package through its exports, i.e. dist/, never src/
  // (test/runtimes/tsconfig.json keeps the root tsconfig's paths to src/ out), and no Node
  // built-in (an import of one would fail in a Worker or a page).
  const inputs = Object.keys(result.metafile.inputs);
  const sources = inputs.filter((input) => input.startsWith('src/'));
  if (sources.length) throw new Error(`the bundle took the sources: ${sources.join(', ')}`);
  if (!inputs.includes('dist/index.js')) throw new Error('the bundle lacks dist/index.js');
  const text = readFileSync(outfile, 'utf8');
  if (/\bfrom\s*["']node:|\bimport\(["']node:|\brequire\(["']node:/.test(text)) {
    throw new Error(`${relative(root, outfile)} imports a node: module`);
  }
  return text.length;
}

function workerdConfig(port, webhookSecret) {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .smokeWorker),
    # The default "internet" service reaches public addresses only; the mock is on loopback.
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);

const smokeWorker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2025-09-01",
  globalOutbound = "internet",
  bindings = [(name = "RECOGNITION_WEBHOOK_SECRET", text = "${webhookSecret}")],
);
`;
}

async function smokeWorkerd(testing, runtimes) {
  // The browser platform, as Workers' bundlers use it: a package's `browser` field maps its Node
  // files to its web ones (the OpenTelemetry SDK's, which the smoke's tracing check uses).
  const size = await bundle('test/runtimes/worker.mjs', join(buildDir, 'worker.js'), 'browser', [
    'workerd',
    'worker',
    'browser',
    'import',
    'default',
  ]);
  indent(`bundled test/runtimes/worker.mjs for workerd (${(size / 1024).toFixed(0)} KiB)`);
  const port = await freePort();
  const webhookSecret = testing.generateWebhookSecret();
  writeFileSync(join(buildDir, 'config.capnp'), workerdConfig(port, webhookSecret));
  const workerd = startBackground(runtimes.workerd.path, ['serve', 'config.capnp'], {
    cwd: buildDir,
    timeoutMs: 3 * 60_000,
  });
  const { server, config } = await startSmokeServer(testing, webhookSecret);
  try {
    const url = `http://127.0.0.1:${port}/`;
    // Ready when the worker answers; workerd compiles the bundle first.
    const deadline = Date.now() + 30_000;
    let exited = false;
    workerd.exited.then(() => {
      exited = true;
    });
    for (;;) {
      if (exited) return `workerd exited: ${workerd.output().trim().slice(-500)}`;
      if (Date.now() > deadline) return 'workerd did not answer within 30s';
      try {
        const probe = await fetch(url, { signal: AbortSignal.timeout(2_000) });
        await probe.arrayBuffer();
        if (probe.status === 405) break;
      } catch {
        // Not listening yet.
      }
      await new Promise((done) => setTimeout(done, 200));
    }
    indent(`workerd serve config.capnp on 127.0.0.1:${port}`);
    const response = await fetch(url, {
      method: 'POST',
      body: JSON.stringify(config),
      signal: AbortSignal.timeout(SMOKE_TIMEOUT_MS),
    });
    if (!response.ok) return `the worker answered ${response.status}: ${await response.text()}`;
    const { lines } = await response.json();
    for (const line of lines) indent(line);
    return judgeSmoke(lines, 0) ?? (await receiveInWorkerd(`${url}webhooks`, config.webhook));
  } finally {
    await server.close();
    await workerd.stop();
    const logged = workerd.output().trim();
    if (logged) for (const line of logged.split('\n').slice(-10)) indent(`workerd: ${line}`);
  }
}

/**
 * Posts the smoke's signed delivery to the receiver the worker serves: 202 (its handlers run in
 * ctx.waitUntil), a forgery 400, then copies until the first is handled (409 while it runs) and
 * the copy is answered 204 without running them again. Resolves to a failure, or undefined.
 */
async function receiveInWorkerd(url, { payload, headers }) {
  const post = (body) =>
    fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
  const first = await post(payload);
  if (first.status !== 202) return `the worker's receiver answered a delivery ${first.status}`;
  const forged = await post(`${payload} `);
  if (forged.status !== 400) return `the worker's receiver answered a forgery ${forged.status}`;
  for (let attempt = 0; attempt < 50; attempt++) {
    const copy = await post(payload);
    if (copy.status === 204) {
      indent('ok   webhook receiver in workerd: 202, forgery 400, then its copy 204');
      return undefined;
    }
    if (copy.status !== 409) return `the worker's receiver answered a copy ${copy.status}`;
    await new Promise((done) => setTimeout(done, 100));
  }
  return "the worker's receiver never finished handling the delivery";
}

async function smokeChromium(testing, runtimes) {
  const size = await bundle('test/runtimes/browser.mjs', join(buildDir, 'browser.js'), 'browser', [
    'browser',
    'import',
    'default',
  ]);
  indent(`bundled test/runtimes/browser.mjs for the browser (${(size / 1024).toFixed(0)} KiB)`);
  const script = readFileSync(join(buildDir, 'browser.js'));
  // The page has an origin of its own, so the SDK's calls to the mock server are cross-origin.
  const pages = createServer((request, response) => {
    if (request.url === '/smoke.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    } else if (request.url === '/') {
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>smoke</title><script type="module" src="/smoke.js"></script>');
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise((done) => pages.listen(0, '127.0.0.1', done));
  const { chromium } = await import('playwright-core');
  const { server, config } = await startSmokeServer(testing);
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: runtimes.chromium.path,
      args: CHROMIUM_ARGS,
      timeout: 60_000,
    });
    indent(`chromium ${browser.version()} (headless, --no-sandbox)`);
    const page = await browser.newPage();
    const lines = [];
    page.on('console', (message) => {
      if (message.type() !== 'log') return;
      lines.push(message.text());
      indent(message.text());
    });
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`http://127.0.0.1:${pages.address().port}/`, { timeout: 30_000 });
    await page.waitForFunction(() => typeof globalThis.runSmoke === 'function', null, {
      timeout: 30_000,
    });
    const result = await within(
      SMOKE_TIMEOUT_MS,
      page.evaluate((settings) => globalThis.runSmoke(settings), config),
      `the page did not finish within ${SMOKE_TIMEOUT_MS / 1000}s`,
    );
    if (errors.length) return `page errors: ${errors.join('; ')}`;
    return judgeSmoke(result.lines, 0);
  } finally {
    await browser?.close().catch(() => {});
    await new Promise((done) => pages.close(done));
    pages.closeAllConnections?.();
    await server.close();
  }
}

async function vitest(label, node, { cwd = root, args = [] } = {}) {
  const logFile = join(logDir, `vitest-${label}.log`);
  const result = await run(node, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...args], {
    cwd,
    timeoutMs: VITEST_TIMEOUT_MS,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  const output = stripAnsi(result.output);
  writeFileSync(logFile, output);
  const lines = output.split('\n');
  for (const line of lines.filter((l) => /^\s*(Test Files|Tests)\s/.test(l))) indent(line.trim());
  if (result.timedOut) return `timed out after ${VITEST_TIMEOUT_MS / 1000}s`;
  if (result.code !== 0) {
    for (const line of lines.filter((l) => /FAIL|✗|×|Error:/.test(l)).slice(0, 30)) {
      indent(line);
    }
    indent(`full output: ${relative(root, logFile)}`);
    return `vitest exited with ${result.code}`;
  }
  return undefined;
}

/**
 * `.runtimes/msw3-project`: a copy of what the MSW tests need of the repository, whose
 * node_modules links every package of the repository's but msw, which is msw 3, and whose tests
 * and docs spell `onUnhandledRequest` as msw 3 does. Files are copied, not linked: a module
 * resolves `msw` from where its file really is.
 */
function msw3Project(runtimes) {
  const project = join(runtimesDir, 'msw3-project');
  rmSync(project, { recursive: true, force: true });
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  for (const entry of MSW3_COPIED) {
    cpSync(join(root, entry), join(project, entry), { recursive: true });
  }
  for (const folder of ['test', 'docs']) {
    for (const name of readdirSync(join(project, folder), { recursive: true })) {
      const file = join(project, folder, name);
      if (!/\.(ts|md)$/.test(file)) continue;
      const text = readFileSync(file, 'utf8');
      if (MSW3_RENAMED[0].test(text)) writeFileSync(file, text.replace(...MSW3_RENAMED));
    }
  }
  for (const name of readdirSync(join(root, 'node_modules'))) {
    if (name === 'msw' || name === '.bin') continue;
    symlinkSync(join(root, 'node_modules', name), join(project, 'node_modules', name));
  }
  symlinkSync(runtimes.msw3.path, join(project, 'node_modules', 'msw'));
  return project;
}

/** The MSW tests and the docs' MSW examples, in `project`, under `node`. */
async function mswTests(label, node, project) {
  const { version } = JSON.parse(
    readFileSync(join(project, 'node_modules', 'msw', 'package.json'), 'utf8'),
  );
  indent(`msw ${version} in ${relative(root, project)}`);
  const failure = await vitest(label, node, {
    cwd: project,
    args: [...MSW_TESTS, '-t', MSW3_SKIPPED_TESTS],
  });
  if (failure) return failure;
  const docs = await run(node, ['scripts/check-docs.mjs', '--blocks-of=docs/testing.md'], {
    cwd: project,
    timeoutMs: VITEST_TIMEOUT_MS,
    env: { ...process.env, NO_COLOR: '1' },
  });
  const summary = stripAnsi(docs.output)
    .split('\n')
    .findLast((line) => /^docs: /.test(line));
  indent(`docs/testing.md's blocks: ${summary ?? '(no summary)'}`);
  if (docs.code !== 0) {
    for (const line of tail(docs.output)) indent(line);
    return `check-docs of docs/testing.md exited with ${docs.code}`;
  }
  return undefined;
}

function tail(output, lines = 20) {
  return stripAnsi(output).trim().split('\n').slice(-lines);
}

function plan(runtimes, testing) {
  const node = (label) => runtimes[label].path;
  // Made once, by the first check that needs it.
  let msw3;
  return [
    { name: 'vitest-node22', run: () => vitest('node22', node('node22')) },
    { name: 'vitest-node24', run: () => vitest('node24', node('node24')) },
    ...['node22', 'node24'].map((label) => ({
      name: `msw3-${label}`,
      run: () => mswTests(`msw3-${label}`, node(label), (msw3 ??= msw3Project(runtimes))),
    })),
    { name: 'smoke-node20', run: () => smokeProgram(testing, process.execPath, [SMOKE]) },
    { name: 'smoke-node22', run: () => smokeProgram(testing, node('node22'), [SMOKE]) },
    { name: 'smoke-node24', run: () => smokeProgram(testing, node('node24'), [SMOKE]) },
    {
      name: 'smoke-bun',
      run: () =>
        smokeProgram(testing, runtimes.bun.path, [`./${SMOKE}`], {
          DO_NOT_TRACK: '1',
          BUN_RUNTIME_TRANSPILER_CACHE_PATH: '0',
        }),
    },
    {
      name: 'smoke-deno',
      // Run from the project folder: Deno 2 sees package.json and resolves npm packages,
      // this one included by its own name, from node_modules, with no registry access.
      run: () =>
        smokeProgram(
          testing,
          runtimes.deno.path,
          [
            'run',
            '--no-prompt',
            '--allow-net=127.0.0.1',
            // OTEL_*: the OpenTelemetry SDK of the tracing check reads its configuration.
            '--allow-env=SMOKE_CONFIG,OTEL_*',
            `--allow-read=${root}`,
            SMOKE,
          ],
          { DENO_DIR: join(runtimesDir, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1' },
        ),
    },
    { name: 'smoke-workerd', run: () => smokeWorkerd(testing, runtimes) },
    { name: 'smoke-chromium', run: () => smokeChromium(testing, runtimes) },
  ];
}

async function main() {
  const only = process.argv
    .find((arg) => arg.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  const started = Date.now();
  mkdirSync(buildDir, { recursive: true });
  mkdirSync(logDir, { recursive: true });
  await ensureBuild(say);
  const testing = await import('@employee-recognition/sdk/testing');
  // Filled below with the runtimes of the checks chosen; the checks read it when they run.
  const runtimes = {};
  const checks = plan(runtimes, testing).filter(
    (check) => !only || only.some((name) => check.name.includes(name)),
  );
  if (process.argv.includes('--list')) {
    for (const check of checks) say(check.name);
    return;
  }
  Object.assign(runtimes, readRuntimes(checks));
  const results = [];
  for (const check of checks) {
    say(`▶ ${check.name}`);
    const checkStarted = Date.now();
    let failure;
    try {
      failure = await check.run();
    } catch (error) {
      failure = error instanceof Error ? (error.stack ?? error.message) : String(error);
    }
    const time = seconds(checkStarted);
    results.push({ name: check.name, failure, time });
    say(failure ? `FAIL ${check.name} (${time}): ${failure}` : `PASS ${check.name} (${time})`);
  }
  say('');
  say('runtime checks:');
  for (const { name, failure, time } of results) {
    say(`  ${failure ? 'FAIL' : 'pass'}  ${name.padEnd(16)} ${time.padStart(7)}`);
  }
  const failed = results.filter((result) => result.failure).length;
  say(`total ${seconds(started)}`);
  say(`runtimes: ${results.length - failed} passed, ${failed} failed`);
  if (failed > 0 || results.length === 0) process.exitCode = 1;
}

main()
  .catch((error) => {
    console.error(`test-runtimes: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  })
  .finally(killAll);
