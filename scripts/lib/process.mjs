// Bounded child processes for the check scripts: every child has a time limit, runs in its own
// process group, and is killed with its children on timeout or when the parent exits.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

const live = new Set();

function killGroup(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    try {
      child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** Kills every child still running; also runs on exit and on SIGINT/SIGTERM. */
export function killAll() {
  for (const child of live) killGroup(child);
  live.clear();
}

process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    killAll();
    process.exit(130);
  });
}

// eslint-disable-next-line no-control-regex -- ANSI escapes are control characters.
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

/** Text without terminal colours. */
export const stripAnsi = (text) => text.replace(ANSI, '');

/**
 * Starts `file args` and resolves when it exits or its time runs out (then it is killed):
 * `{ code, signal, timedOut, output, ms }`. `output` is stdout and stderr interleaved. With
 * `onLine`, each line of output is passed on as it arrives.
 */
export function run(file, args, { cwd, env, timeoutMs = 60_000, onLine, input } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    let output = '';
    let pending = '';
    let timedOut = false;
    let child;
    try {
      child = spawn(file, args, {
        cwd,
        env: env ?? process.env,
        detached: true,
        stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      });
    } catch (error) {
      resolve({ code: null, signal: null, timedOut, output: String(error), ms: 0 });
      return;
    }
    live.add(child);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, timeoutMs);
    const take = (chunk) => {
      const text = chunk.toString();
      output += text;
      if (!onLine) return;
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) onLine(stripAnsi(line));
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    if (input !== undefined) child.stdin.end(input);
    const finish = (code, signal, error) => {
      clearTimeout(timer);
      live.delete(child);
      // The group may hold grandchildren that outlived the child.
      killGroup(child);
      if (onLine && pending) onLine(stripAnsi(pending));
      if (error) output += `\n${error.message}`;
      resolve({ code, signal, timedOut, output, ms: Date.now() - started });
    };
    child.once('error', (error) => finish(null, null, error));
    child.once('close', (code, signal) => finish(code, signal));
  });
}

/**
 * Starts a long-running child (a server) and returns it with `stop()`; its output collects in
 * `output()`. The time limit still applies as a backstop.
 */
export function startBackground(file, args, { cwd, env, timeoutMs = 5 * 60_000 } = {}) {
  let output = '';
  const child = spawn(file, args, {
    cwd,
    env: env ?? process.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  const exited = new Promise((resolve) => {
    child.once('error', (error) => {
      output += `\n${error.message}`;
      resolve(null);
    });
    child.once('close', (code) => resolve(code));
  });
  const timer = setTimeout(() => killGroup(child), timeoutMs);
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  return {
    child,
    exited,
    output: () => stripAnsi(output),
    async stop() {
      clearTimeout(timer);
      killGroup(child);
      await exited;
      live.delete(child);
    },
  };
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Rejects with `message` when `promise` has not settled within `ms`. */
export function within(ms, promise, message) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(message ?? `timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Seconds since `started`, as `12.3s`. */
export const seconds = (started) => `${((Date.now() - started) / 1000).toFixed(1)}s`;
