// The CLI as installed from the packed package (installed-cli.ts), run as a process per test.
// Time: 18 s of a full run on two shared cores, 1 to 3 s a test: each starts Node and the CLI,
// as a customer's shell does; what the tests check (exit codes, help, what was sent) is the
// process's own.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VERSION } from '@employee-recognition/sdk';
import { startMockServer } from '@employee-recognition/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InstalledCli, installCli } from './installed-cli.js';

const COMMANDS = ['mock', 'trigger', 'api', 'export', 'webhooks', 'doctor', 'traffic'];
let cli: InstalledCli;

beforeAll(async () => {
  cli = await installCli();
}, 180_000);

afterAll(async () => {
  await cli?.remove();
});

describe('employee-recognition', () => {
  it('prints the SDK version with --version and -v', async () => {
    for (const flag of ['--version', '-v']) {
      expect(await cli.run([flag])).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    }
  });

  it('lists every command with --help, and with no command exits 2 after the same help', async () => {
    const help = await cli.run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: employee-recognition <command> \[options\]/);
    for (const command of COMMANDS)
      expect(help.stdout).toMatch(new RegExp(`^  ${command} +\\S`, 'm'));
    const bare = await cli.run([]);
    expect(bare).toMatchObject({ code: 2, stdout: help.stdout });
  });

  it.each(COMMANDS)(
    'prints the help of %s with --help and -h, sending nothing',
    async (command) => {
      for (const flag of ['--help', '-h']) {
        const result = await cli.run([command, flag]);
        expect(result).toMatchObject({ code: 0, stderr: '' });
        expect(result.stdout).toMatch(new RegExp(`^Usage: employee-recognition ${command}\\b`));
        expect(result.stdout).toContain('-h, --help');
      }
    },
  );

  it('exits 2 on an unknown command or option, pointing at the right help', async () => {
    const unknown = await cli.run(['listen']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'employee-recognition: Unknown command "listen".\nUsage: employee-recognition <command> [options]\nSee employee-recognition --help.\n',
    );
    const option = await cli.run(['mock', '--prot', '4010']);
    expect(option.code).toBe(2);
    expect(option.stderr).toBe(
      "employee-recognition mock: Unknown option '--prot'.\nUsage: employee-recognition mock [options]\nSee employee-recognition mock --help.\n",
    );
  });

  it('doctor runs through the installed package’s /doctor entry: the report on stdout, progress on stderr', async () => {
    const server = await startMockServer({ recognitions: 5 });
    try {
      const result = await cli.run(['doctor', '--json'], {
        env: { RECOGNITION_API_KEY: server.api.testKey, RECOGNITION_BASE_URL: server.url },
      });
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout) as { ok: boolean; checks: { id: string }[] };
      expect(report.ok).toBe(true);
      expect(report.checks.map((check) => check.id)).toContain('records');
      expect(result.stderr).toContain('doctor: records ok');
      expect(result.stdout + result.stderr).not.toContain(server.api.testKey);
    } finally {
      await server.close();
    }
  });

  it('api --record and traffic run through the installed package’s /testing and /doctor entries', async () => {
    const server = await startMockServer({ recognitions: 5 });
    const dir = mkdtempSync(join(tmpdir(), 'traffic-cli-'));
    const file = join(dir, 'calls.har');
    try {
      const env = { RECOGNITION_API_KEY: server.api.testKey, RECOGNITION_BASE_URL: server.url };
      const recorded = await cli.run(['api', 'GET', '/v1/users', '--record', file], { env });
      expect(recorded).toMatchObject({ code: 0, stderr: '' });
      const har = readFileSync(file, 'utf8');
      expect(JSON.parse(har).log.entries).toHaveLength(1);
      expect(har).not.toContain(server.api.testKey);
      const check = await cli.run(['traffic', 'check', file]);
      expect(check).toMatchObject({ code: 0, stderr: '' });
      expect(check.stdout).toMatch(/^ok +records /m);
      const diff = await cli.run(['traffic', 'diff', file, file]);
      expect(diff).toMatchObject({ code: 0, stderr: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.close();
    }
  });
});
