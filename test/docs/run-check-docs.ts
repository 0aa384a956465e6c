import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** `npm run test:docs` on the docs under `docsRoot`: what it printed, and its exit code. */
export function runCheckDocs(docsRoot: string): Promise<{ output: string; exitCode: number }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/check-docs.mjs', `--docs-root=${docsRoot}`],
      { cwd: root, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ output: stdout + stderr, exitCode: error ? 1 : 0 }),
    );
  });
}
