// The CLI as a customer gets it: the package built, packed with npm pack and installed from the
// tarball into a fresh project, then run through node_modules/.bin. Nothing here touches the
// shared dist/: the build goes to a temporary copy of the package.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const root = resolve(import.meta.dirname, '../..');
const execFileAsync = promisify(execFile);
// Generous: the machine is shared; the wait ends early when the child does.
const STEP_TIMEOUT_MS = 120_000;
const DEFAULT_RUN_TIMEOUT_MS = 30_000;

/** What a finished run of the CLI left. */
interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A CLI process still running, such as `mock`. */
export interface RunningCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout; rejects after `timeoutMs` or on exit. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves when the process has exited. */
  exited: Promise<CliResult>;
}

export interface InstalledCli {
  /** The consumer project the package is installed in. */
  project: string;
  /** Runs the bin to its end, killed after `timeoutMs`. */
  run(args: string[], options?: RunOptions): Promise<CliResult>;
  /** Starts the bin and returns at once. */
  start(args: string[], options?: RunOptions): RunningCli;
  /** Kills every process still running and removes the temporary directories. */
  remove(): Promise<void>;
}

interface RunOptions {
  env?: Record<string, string>;
  input?: string;
  timeoutMs?: number;
}

// A setup step; when it fails, the error shows the end of what the step printed.
export async function step(file: string, args: string[], cwd: string): Promise<string> {
  try {
    return (await execFileAsync(file, args, { cwd, timeout: STEP_TIMEOUT_MS })).stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    const output = `${stdout}\n${stderr}`.trim().split('\n').slice(-20).join('\n');
    throw new Error(`${[file, ...args].join(' ')} failed:\n${output}`, { cause: error });
  }
}

// The package built into `work`, packed, and installed from the tarball into `project`.
async function buildAndInstall(work: string, project: string): Promise<void> {
  const packageDir = join(work, 'package');
  mkdirSync(packageDir);
  mkdirSync(project);
  for (const file of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']) {
    if (existsSync(join(root, file))) copyFileSync(join(root, file), join(packageDir, file));
  }
  // Declaration files play no part in running the bin; leaving them out saves most of the build.
  await step(
    process.execPath,
    [
      join(root, 'node_modules/tsup/dist/cli-default.js'),
      '--out-dir',
      join(packageDir, 'dist'),
      '--no-dts',
    ],
    root,
  );
  const packed = await step(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', work],
    packageDir,
  );
  const [{ filename }] = JSON.parse(packed.slice(packed.indexOf('['))) as [{ filename: string }];
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }),
  );
  // Dependencies come from npm's cache when it has them. No msw: the CLI runs without the
  // testing kit's optional peer, as a customer's project that never added it.
  await step(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      join(work, filename),
    ],
    project,
  );
}

/** Builds, packs and installs the package into a fresh project, without msw (5 to 10 s). */
export async function installCli(): Promise<InstalledCli> {
  const work = mkdtempSync(join(tmpdir(), 'er-cli-'));
  const project = join(work, 'project');
  try {
    await buildAndInstall(work, project);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
  const bin = join(project, 'node_modules', '.bin', 'employee-recognition');
  const children = new Set<ChildProcess>();

  const start = (args: string[], options: RunOptions = {}): RunningCli => {
    const child = spawn(bin, args, {
      cwd: project,
      env: { ...cleanEnv(), ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    const listeners = new Set<() => void>();
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      for (const listener of listeners) listener();
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.stdin!.end(options.input);
    const exited = new Promise<CliResult>((resolve) => {
      child.once('close', (code, signal) => {
        children.delete(child);
        for (const listener of listeners) listener();
        resolve({ code, signal, stdout, stderr });
      });
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? STEP_TIMEOUT_MS);
    void exited.then(() => clearTimeout(timer));
    return {
      child,
      exited,
      stdout: () => stdout,
      stderr: () => stderr,
      waitFor: (pattern, timeoutMs = 15_000) =>
        new Promise((resolve, reject) => {
          const check = () => {
            const match = stdout.match(pattern);
            if (match) done(() => resolve(match));
            else if (child.exitCode !== null || child.signalCode !== null) {
              done(() => reject(new Error(`exited before ${pattern}: ${stdout}${stderr}`)));
            }
          };
          const timeout = setTimeout(
            () =>
              done(() => reject(new Error(`no ${pattern} in ${timeoutMs} ms: ${stdout}${stderr}`))),
            timeoutMs,
          );
          const done = (settle: () => void) => {
            clearTimeout(timeout);
            listeners.delete(check);
            settle();
          };
          listeners.add(check);
          check();
        }),
    };
  };

  return {
    project,
    start,
    run: (args, options = {}) =>
      start(args, { ...options, timeoutMs: options.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS }).exited,
    async remove() {
      await Promise.all(
        [...children].map((child) => {
          const closed = new Promise((resolve) => child.once('close', resolve));
          child.kill('SIGKILL');
          return closed;
        }),
      );
      rmSync(work, { recursive: true, force: true });
    },
  };
}

// The tests set what the CLI reads; nothing of the developer's shell leaks in.
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('RECOGNITION_')),
  );
}
