/**
 * Runs Stoplight Prism on openapi.json as a child process on 127.0.0.1: each suite starts its
 * own, on a port the system picks, and stops it (its whole process group) in afterAll, so no
 * process outlives the suite even when a test fails.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** A running Prism. */
export interface Prism {
  /** Its base URL, such as `http://127.0.0.1:41234`. */
  url: string;
  /** Every line it has logged so far. */
  readonly log: readonly string[];
  /** Stops it: SIGTERM to its process group, SIGKILL if it has not exited within 5 s. */
  stop(): Promise<void>;
}

const DOCUMENT = fileURLToPath(new URL('../../openapi.json', import.meta.url));
const CLI = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;
const LISTENING = /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/;
// Runs Prism and kills it when its stdin closes: when the test process dies without calling
// stop() (a crash, a killed worker), its end of the pipe closes and Prism goes with it.
const WATCHDOG = `
const { spawn } = require('node:child_process');
const prism = spawn(process.execPath, process.argv.slice(1), { stdio: ['ignore', 'inherit', 'inherit'] });
process.stdin.on('close', () => prism.kill('SIGKILL'));
process.stdin.resume();
prism.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const name of ['SIGTERM', 'SIGINT']) process.on(name, () => prism.kill(name));
`;
// Prism colours its log on a terminal; the pattern needs plain text.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** Starts `prism mock` (`args` such as `['-d']`) or `prism proxy <upstream>` on a free port. */
export async function startPrism(mode: { mock: string[] } | { proxy: string }): Promise<Prism> {
  const command =
    'mock' in mode ? ['mock', DOCUMENT, ...mode.mock] : ['proxy', DOCUMENT, mode.proxy];
  const args = [CLI, ...command, '--host', '127.0.0.1', '--port', '0'];
  const child = spawn(process.execPath, ['-e', WATCHDOG, ...args], {
    // Its own process group, so stop() reaches the watchdog and Prism at once.
    detached: true,
    // stdin stays open for the watchdog: it closes when this process ends, however it ends.
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  const log: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = () => stopProcess(child, exited);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`Prism did not start within ${START_TIMEOUT_MS} ms:\n${log.join('\n')}`),
          ),
        START_TIMEOUT_MS,
      );
      const onData = (chunk: Buffer) => {
        for (const line of chunk.toString('utf8').split('\n')) {
          if (line.trim() === '') continue;
          const plain = line.replace(ANSI, '');
          log.push(plain);
          const match = LISTENING.exec(plain);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`Prism exited with ${code} before listening:\n${log.join('\n')}`));
      });
    });
    return { url, log, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function stopProcess(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // Already gone.
    }
  };
  signal('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), STOP_TIMEOUT_MS);
  });
  const killed = await Promise.race([exited.then(() => false), late]);
  clearTimeout(timer);
  if (killed) {
    signal('SIGKILL');
    await exited;
  }
}

/** The violations Prism reports in a response's `sl-violations` header. */
export interface Violation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

/** The violations of one response, with the request they were found on. */
export function violationsOf(response: Response): Violation[] {
  const header = response.headers.get('sl-violations');
  if (!header) return [];
  try {
    return JSON.parse(header) as Violation[];
  } catch {
    // Prism cuts a long list short ("Too many violations! …"): report it as one.
    return [{ location: ['(header)'], severity: 'Error', message: header }];
  }
}
