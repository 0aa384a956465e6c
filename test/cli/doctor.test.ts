/**
 * `employee-recognition doctor` in this process against the kit's mock over real HTTP: its three
 * outputs, its exit codes (0 no failure, 1 a failure, 2 bad arguments), progress on stderr, OAuth
 * client credentials, --write's gate, `doctor webhook` on captured files; and no report, in any
 * form, holding the key, a token, a secret or a record's values.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  generateWebhookSecret,
  type MockServer,
  type MockServerOptions,
  signWebhook,
  startMockServer,
} from '@employee-recognition/sdk/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/cli/command.js';
import { doctor } from '../../src/cli/doctor.js';
import { ENV_API_KEY, ENV_AUTH_URL, ENV_BASE_URL, ENV_WEBHOOK_SECRET } from '../../src/contract.js';

let server: MockServer | undefined;
let dir: string;
let stdout: string;
let stderr: string;

async function mock(options: MockServerOptions = {}): Promise<MockServer> {
  server = await startMockServer({ recognitions: 20, ...options });
  vi.stubEnv(ENV_API_KEY, server.api.testKey);
  return server;
}

beforeEach(() => {
  vi.stubEnv(ENV_BASE_URL, '');
  vi.stubEnv(ENV_API_KEY, '');
  vi.stubEnv('RECOGNITION_CLIENT_ID', '');
  vi.stubEnv('RECOGNITION_CLIENT_SECRET', '');
  vi.stubEnv(ENV_WEBHOOK_SECRET, '');
  vi.stubEnv('HTTPS_PROXY', '');
  vi.stubEnv('https_proxy', '');
  vi.stubEnv('HTTP_PROXY', '');
  vi.stubEnv('http_proxy', '');
  dir = mkdtempSync(join(tmpdir(), 'doctor-cli-'));
  stdout = '';
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
});
afterEach(async () => {
  rmSync(dir, { recursive: true, force: true });
  await server?.close();
  server = undefined;
});

const run = (...args: string[]) => doctor.run([...args, '--base-url', server!.url]);

describe('doctor', () => {
  it('against the mock as it is: a line per check, progress on stderr, exit 0', async () => {
    await mock();
    expect(await run()).toBe(0);
    const lines = stdout.split('\n');
    for (const id of [
      'connection',
      'credential',
      'scopes',
      'rate-limit',
      'clock',
      'errors',
      'pagination',
      'records',
      'deprecations',
      'webhooks',
    ]) {
      expect(
        lines.some((line) => new RegExp(`^ok +${id} `).test(line)),
        id,
      ).toBe(true);
    }
    expect(stdout).toMatch(/^skip +idempotency +read-only run/m);
    expect(stderr).toContain('doctor: connection ok\n');
    expect(stderr).toContain('doctor: records ok\n');
  });

  it('--json prints the documented shape; a failing check exits 1', async () => {
    await mock();
    const key = `rk_test_${'r'.repeat(24)}`;
    vi.stubEnv(ENV_API_KEY, key);
    expect(await run('--json')).toBe(1);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ sdk: expect.any(String), baseUrl: server!.url, ok: false });
    expect(report.checks.find((check: { id: string }) => check.id === 'credential')).toMatchObject({
      status: 'fail',
      assumption: 'api-key-form',
      details: { kind: 'test', accepted: false },
    });
  });

  it('--markdown prints a report to paste into a ticket', async () => {
    await mock({ deprecations: { 'rewards.list': { sunsetAt: '2099-01-01' } } });
    expect(await run('--markdown')).toBe(0);
    expect(stdout).toMatch(/^## employee-recognition doctor/);
    expect(stdout).toContain('| `deprecations` | warn |');
    expect(stdout).toContain('### `deprecations`: warn');
  });

  it('the service down: exit 1, connection named', async () => {
    await mock();
    const url = server!.url;
    await server!.close();
    server = undefined;
    expect(await doctor.run(['--base-url', url])).toBe(1);
    expect(stdout).toMatch(/^fail +connection +TCP: no connection/m);
  });

  it('authenticates as an OAuth client, showing the token’s kind and expiry, never the token', async () => {
    const mocked = await mock();
    vi.stubEnv(ENV_API_KEY, '');
    vi.stubEnv(ENV_AUTH_URL, mocked.api.oauth.issuer);
    vi.stubEnv('RECOGNITION_CLIENT_ID', mocked.api.oauth.testClient.clientId);
    vi.stubEnv('RECOGNITION_CLIENT_SECRET', mocked.api.oauth.testClient.clientSecret);
    expect(await run('--json')).toBe(0);
    const credential = JSON.parse(stdout).checks.find(
      (check: { id: string }) => check.id === 'credential',
    );
    expect(credential).toMatchObject({
      status: 'ok',
      details: { kind: 'oauth', accepted: true, expiresAt: expect.stringMatching(/Z$/) },
    });
    expect(credential.summary).toMatch(/^accepted: an OAuth token, expires in \d+ min$/);
    const tokens = mocked.api.requests.map((request) => request.headers.authorization);
    expect(tokens.length).toBeGreaterThan(0);
    expect(stdout + stderr).not.toContain(mocked.api.oauth.testClient.clientSecret);
  });

  it('--write runs with an rk_test_ key and leaves nothing; with another credential it is refused, exit 2', async () => {
    await mock();
    expect(await run('--write', '--json')).toBe(0);
    expect(JSON.parse(stdout).checks.at(-1)).toMatchObject({ id: 'idempotency', status: 'ok' });
    expect(server!.api.store.webhooks.all()).toEqual([]);
    vi.stubEnv(ENV_API_KEY, `rk_live_${'l'.repeat(24)}`);
    await expect(run('--write')).rejects.toThrow(UsageError);
    await expect(run('--write')).rejects.toThrow(/only with an rk_test_ key/);
  });

  it('bad arguments are usage errors (exit 2)', async () => {
    await mock();
    await expect(run('--json', '--markdown')).rejects.toThrow(UsageError);
    await expect(run('--bogus')).rejects.toThrow(UsageError);
    await expect(run('--url', 'https://app.example/hooks')).rejects.toThrow(
      /--url goes with --receiver/,
    );
    await expect(run('checkup')).rejects.toThrow(/Unknown subcommand/);
    await expect(doctor.run(['webhook'])).rejects.toThrow(/--delivery is required/);
    await expect(doctor.run(['webhook', '--delivery', join(dir, 'none')])).rejects.toThrow(
      /cannot read/,
    );
    expect(server!.api.requests).toEqual([]);
  });

  it('with --receiver, the plan webhooks sync would make', async () => {
    await mock();
    const module = join(dir, 'receiver.mjs');
    writeFileSync(
      module,
      `export const receiver = { events: ['recognition.created'], receive() {}, on() {} };\n`,
    );
    expect(await run('--json', '--receiver', module, '--url', 'https://app.example/hooks')).toBe(0);
    const webhooks = JSON.parse(stdout).checks.find(
      (check: { id: string }) => check.id === 'webhooks',
    );
    expect(webhooks).toMatchObject({
      status: 'warn',
      details: { plan: [{ operation: 'create', events: ['recognition.created'] }] },
    });
  });
});

describe('no report holds the key or a record’s values', () => {
  it('in the terminal, --json and --markdown, with records that differ and a service that echoes the key', async () => {
    const mocked = await mock();
    const key = mocked.api.testKey;
    // Records with a field renamed, so the records check has differences to describe.
    const people = mocked.api.store.users.all();
    for (const user of people) {
      mocked.api.store.users.update(user.id, { fullName: user.name, name: undefined } as never);
    }
    // An error answer that echoes the key into its body and a header.
    mocked.api.faults.failNext('GET /v1/users/*', {
      status: 404,
      body: { error: { code: 'not_found', message: `no user for ${key}` } },
      headers: { 'x-echo': key },
    });
    const secrets = [
      key,
      ...mocked.api.store.users
        .all()
        .flatMap((user) => [user.email, (user as unknown as { fullName: string }).fullName]),
      ...mocked.api.store.recognitions
        .all()
        .flatMap((recognition) => [recognition.message, recognition.sender.name]),
      ...mocked.api.store.rewards.all().map((reward) => reward.name),
      ...mocked.api.store.teams.all().map((team) => team.name),
    ].filter((value) => value.length >= 4);
    const outputs: string[] = [];
    for (const format of [[], ['--json'], ['--markdown']]) {
      stdout = '';
      expect(await run(...format)).toBe(1);
      outputs.push(stdout);
    }
    expect(
      JSON.parse(outputs[1]!).checks.find((check: { id: string }) => check.id === 'records').details
        .differences,
    ).toContainEqual(
      expect.objectContaining({
        operation: 'users.list',
        path: 'data.*.name',
        assumption: 'user-identity',
      }),
    );
    for (const output of [...outputs, stderr]) {
      for (const secret of secrets) expect(output).not.toContain(secret);
    }
  });
});

describe('doctor webhook', () => {
  it('reads a raw HTTP capture and the secret from --secret-from: exit 0 when it verifies', async () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ type: 'user.created', data: { name: 'Zoë Private' } });
    const headers = await signWebhook(body, secret);
    const capture = join(dir, 'delivery.http');
    writeFileSync(
      capture,
      `POST /webhooks HTTP/1.1\r\n${Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}`)
        .join('\r\n')}\r\ncontent-type: application/json\r\n\r\n${body}`,
    );
    writeFileSync(join(dir, 'secret'), `${secret}\n`);
    expect(
      await doctor.run(['webhook', '--delivery', capture, '--secret-from', join(dir, 'secret')]),
    ).toBe(0);
    expect(stdout).toMatch(/^ok +signature +matches the body as given/m);
  });

  it('a re-serialized JSON capture: exit 1, the cause named, nothing secret shown', async () => {
    const secret = generateWebhookSecret();
    vi.stubEnv(ENV_WEBHOOK_SECRET, secret);
    const body = JSON.stringify({ type: 'user.created', data: { name: 'Zoë Private' } });
    const headers = await signWebhook(body, secret);
    const capture = join(dir, 'delivery.json');
    writeFileSync(
      capture,
      JSON.stringify({ headers, body: JSON.stringify(JSON.parse(body), null, 2) }),
    );
    for (const format of [[], ['--json'], ['--markdown']]) {
      stdout = '';
      expect(await doctor.run(['webhook', '--delivery', capture, ...format])).toBe(1);
      for (const hidden of [secret, headers['webhook-signature'].slice(3), 'Zoë', body])
        expect(stdout).not.toContain(hidden);
    }
    expect(stdout).toContain('parsed and re-stringified JSON (signed as compact JSON)');
  });

  it('a body nested 60,000 deep: a verdict, never a stack trace', async () => {
    const secret = generateWebhookSecret();
    writeFileSync(join(dir, 'secret'), `${secret}\n`);
    const deep = `${'['.repeat(60_000)}${']'.repeat(60_000)}`;
    const headers = await signWebhook(deep, secret);
    const raw = join(dir, 'deep.http');
    writeFileSync(
      raw,
      `POST /webhooks HTTP/1.1\r\n${Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}`)
        .join('\r\n')}\r\n\r\n${deep}`,
    );
    expect(
      await doctor.run(['webhook', '--delivery', raw, '--secret-from', join(dir, 'secret')]),
    ).toBe(0);
    expect(stdout).toMatch(/^ok +signature +matches the body as given/m);
    // The same body as JSON in a JSON capture: told apart, as bad input.
    const json = join(dir, 'deep.json');
    writeFileSync(json, `{"headers":${JSON.stringify(headers)},"body":${deep}}`);
    await expect(doctor.run(['webhook', '--delivery', json])).rejects.toThrow(
      /nests deeper than 256 levels/,
    );
  });
});
