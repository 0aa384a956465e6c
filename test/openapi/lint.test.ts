/** Check 4a: Redocly CLI lints openapi.json with its recommended rules (redocly.yaml). */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const CLI = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; message: string; location: { pointer?: string }[] }[];
}

it('passes Redocly lint with the recommended rules: no error, no warning', async () => {
  const output = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, 'lint', 'openapi.json', '--config', 'redocly.yaml', '--format', 'json'],
      {
        cwd: root,
        timeout: 60_000,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
      // Exit code 1 means problems were found: the report says which.
      (error, stdout) => (stdout ? resolve(stdout) : reject(error ?? new Error('no output'))),
    );
  });
  const report = JSON.parse(output.slice(output.indexOf('{'))) as LintReport;
  const problems = report.problems.map(
    (problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? '?'}`,
  );
  expect(problems).toEqual([]);
  expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
}, 90_000);
