import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `npm run test:docs` on the docs under `docsRoot`: what it printed, and the exit code it chose.
 * A run that did not end by itself (killed at the timeout or by a signal) or did not start
 * rejects instead, so a test expecting "exits 1" cannot pass on a hang or a crash.
 */
export function runCheckDocs(docsRoot: string): Promise<{ output: string; exitCode: number }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['scripts/check-docs.mjs', `--docs-root=${docsRoot}`],
      { cwd: root, timeout: 120_000 },
      (error, stdout, stderr) => {
        const output = stdout + stderr;
        if (!error) return resolve({ output, exitCode: 0 });
        // execFile's error carries the exit code as a number only when the process exited;
        // a timeout or a signal leaves it null (error.signal says which), a spawn failure a string.
        if (typeof error.code === 'number') return resolve({ output, exitCode: error.code });
        const how = error.killed
          ? `was killed at the timeout (${error.signal})`
          : error.signal
            ? `died of ${error.signal}`
            : `did not start (${String(error.code)})`;
        reject(new Error(`check-docs.mjs ${how}; it printed:\n${output}`, { cause: error }));
      },
    );
  });
}
