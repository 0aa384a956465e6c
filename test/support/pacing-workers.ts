import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { REDIS_LIBRARIES } from './redis.js';

const WORKER = fileURLToPath(new URL('./pacing-worker.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What one worker process reports. */
export interface WorkerReport {
  library: string;
  succeeded: number;
  failed: string[];
  requests: number;
  limited: number;
  warnings: string[];
}

export interface WorkersInput {
  workers: number;
  baseUrl: string;
  apiKey: string;
  recipientId: string;
  redisUrl: string;
  prefix: string;
  /** Calls per worker. */
  calls: number;
  /** The store's timeout in ms. */
  timeout: number;
}

/**
 * Runs `workers` processes of pacing-worker.ts on one key, each with a client library of its own
 * in turn (node-redis 4 and 6, ioredis 5 and 6), starts them together once all are connected,
 * and returns their reports. A worker that has not reported within `killAfterMs` is killed and
 * the promise rejects: the bound for a job that hangs, not a speed target.
 */
export async function runPacingWorkers(
  input: WorkersInput,
  killAfterMs = 120_000,
): Promise<WorkerReport[]> {
  const children: ChildProcess[] = [];
  const killer = setTimeout(() => children.forEach((child) => child.kill('SIGKILL')), killAfterMs);
  try {
    const runs = Array.from({ length: input.workers }, (_, index) => {
      const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
        cwd: ROOT,
        env: {
          ...process.env,
          PACING_WORKER: JSON.stringify({
            ...input,
            library: REDIS_LIBRARIES[index % REDIS_LIBRARIES.length],
          }),
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      children.push(child);
      let stdout = '';
      let stderr = '';
      let onReady: () => void = () => {};
      const ready = new Promise<void>((resolve) => (onReady = resolve));
      child.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.startsWith('ready\n')) onReady();
      });
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const report = new Promise<WorkerReport>((resolve, reject) => {
        child.on('close', (code, signal) => {
          onReady();
          const line = stdout.trim().split('\n').pop() ?? '';
          try {
            resolve(JSON.parse(line) as WorkerReport);
          } catch {
            reject(
              new Error(
                `worker ${index} ended (code ${code}, signal ${signal}) without a report: ${stderr.slice(-2000)}`,
              ),
            );
          }
        });
      });
      return { child, ready, report };
    });
    await Promise.all(runs.map((run) => run.ready));
    for (const { child } of runs) child.stdin!.write('go\n');
    return await Promise.all(runs.map((run) => run.report));
  } finally {
    clearTimeout(killer);
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  }
}
