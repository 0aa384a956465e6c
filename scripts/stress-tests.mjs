#!/usr/bin/env node
// `npm run test:stress -- <test files> [-- <vitest options>]`: runs each file ten times, one run
// at a time, while two processes spin beside it so that both cores of a small CI machine are
// busy. A test that decides on the wall clock (a pause, a margin on Date.now()) fails here
// sooner or later; one driven by fake timers or by events passes ten of ten. Exits 1 when any
// run failed, 2 on a usage error. Options: --runs=<n> (10), --spinners=<n> (2).
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));

const USAGE =
  'Usage: npm run test:stress -- [--runs=10] [--spinners=2] <test files> [-- <vitest options>]';

function parseArgs(argv) {
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  const passed = split === -1 ? [] : argv.slice(split + 1);
  const options = { runs: 10, spinners: 2, files: [], vitestArgs: passed };
  for (const arg of own) {
    const match = /^--(runs|spinners)=(\d+)$/.exec(arg);
    if (match) options[match[1]] = Number(match[2]);
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}`);
    else options.files.push(arg);
  }
  if (options.files.length === 0) throw new Error('no test file given');
  if (options.runs < 1) throw new Error('--runs must be 1 or more');
  return options;
}

/** A process that keeps one core busy until it is killed. */
function spinner() {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

/** The processes this script started and has not yet seen end: stopped with it. */
const children = new Set();

function track(child) {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

/** One vitest run of `file`: whether it passed, how long it took, and what it printed. */
function runOnce(file, vitestArgs) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = track(
      spawn(process.execPath, [vitest, 'run', file, ...vitestArgs], {
        cwd: root,
        env: { ...process.env, FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) =>
      resolve({
        passed: code === 0,
        how: code === null ? `killed by ${signal}` : `exit ${code}`,
        seconds: (performance.now() - started) / 1000,
        output,
      }),
    );
  });
}

async function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${error.message}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  Array.from({ length: options.spinners }, () => track(spinner()));
  const stop = () => {
    for (const child of children) child.kill('SIGKILL');
  };
  process.on('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      stop();
      process.exit(130);
    });
  }
  console.log(
    `${options.runs} runs of each file, one at a time, beside ${options.spinners} spinning processes (${availableParallelism()} cores)`,
  );
  const summary = [];
  try {
    for (const file of options.files) {
      let passed = 0;
      const times = [];
      for (let run = 1; run <= options.runs; run++) {
        const result = await runOnce(file, options.vitestArgs);
        times.push(result.seconds);
        if (result.passed) passed++;
        console.log(
          `${file} run ${run}/${options.runs}: ${result.passed ? 'passed' : `FAILED (${result.how})`} in ${result.seconds.toFixed(1)} s`,
        );
        if (!result.passed) console.log(result.output.trimEnd().split('\n').slice(-60).join('\n'));
      }
      times.sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)];
      summary.push(
        `${file}: ${passed}/${options.runs} passed (${times[0].toFixed(1)} s to ${times.at(-1).toFixed(1)} s, median ${median.toFixed(1)} s)`,
      );
      if (passed < options.runs) process.exitCode = 1;
    }
  } finally {
    stop();
  }
  console.log(`\n${summary.join('\n')}`);
}

await main();
