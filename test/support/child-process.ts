import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./client-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** How one call in the child ended. */
interface ChildOutcome {
  resolved: boolean;
  name?: string;
  /** The error is an EmployeeRecognitionError. */
  sdkError?: boolean;
  message?: string;
  limit?: number;
  status?: number;
  code?: string;
}

/** What client-child.ts reports about its calls. */
export interface ChildReport {
  outcomes: ChildOutcome[];
  /** Highest resident set size during the calls, less the baseline after the warm-up call. */
  peakRssGrowth: number;
  /**
   * Highest JS heap plus Buffers and ArrayBuffers during the calls, less the baseline: after a
   * full collection at each sample with `liveMemory`, garbage included without.
   */
  peakHeapAndBuffersGrowth: number;
  cpuMicros: number;
}

export interface ChildInput {
  baseUrl: string;
  apiKey: string;
  options?: Record<string, unknown>;
  /** Users to get, one after the other. */
  userIds: string[];
  /** Collect garbage before each memory sample: measure what is held, not what awaits collection. */
  liveMemory?: boolean;
}

/**
 * Runs `users.get` for each id, one after the other, in a child process and returns its report.
 * A child that has not reported within `killAfterMs` is killed and the promise rejects: the bound
 * for a call that hangs or freezes its event loop, not a speed target.
 */
export function runClientInChild(input: ChildInput, killAfterMs = 15_000): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', CHILD], {
      cwd: ROOT,
      env: { ...process.env, CHILD_INPUT: JSON.stringify({ options: {}, ...input }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as ChildReport);
      } catch {
        reject(
          new Error(
            `the child ended (code ${code}, signal ${signal}) without a report: ${stderr.slice(-2000)}`,
          ),
        );
      }
    });
  });
}
