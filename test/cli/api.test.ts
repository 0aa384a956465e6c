import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type MockServer, startMockServer } from '@employee-recognition/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../support/http-server.js';
import { type InstalledCli, installCli } from './installed-cli.js';

let cli: InstalledCli;
let server: MockServer;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startMockServer({ recognitions: 30 });
  env = { RECOGNITION_BASE_URL: server.url, RECOGNITION_API_KEY: server.api.testKey };
  cli = await installCli();
}, 180_000);

afterAll(async () => {
  await cli?.remove();
  await server?.close();
});

const api = (args: string[], options: { env?: Record<string, string>; input?: string } = {}) =>
  cli.run(['api', ...args], { env: { ...env, ...options.env }, input: options.input });

// Someone other than the key's owner (the store's first user), who cannot recognize themself.
function colleague() {
  const [, user] = server.api.store.users.all().filter((each) => each.status === 'active');
  return user!;
}

describe('employee-recognition api', () => {
  it('round-trips a create: POST prints the new record on one line, GET reads it back', async () => {
    const recipient = colleague();
    const body = {
      recipient_id: recipient.id,
      message: 'Thanks for the CLI, "really"!',
      points: 25,
    };
    const created = await api(['POST', '/v1/recognitions', '--data', JSON.stringify(body)]);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    // Piped, so one line of JSON.
    expect(created.stdout.trimEnd().split('\n')).toHaveLength(1);
    const { data } = JSON.parse(created.stdout) as { data: { id: string } };
    expect(data).toMatchObject({
      recipient: { id: recipient.id },
      message: body.message,
      points: 25,
    });
    expect(server.api.store.recognitions.get(data.id)).toEqual(data);

    const read = await api(['get', `/v1/recognitions/${data.id}`]);
    expect(read.code).toBe(0);
    expect(JSON.parse(read.stdout)).toEqual({ data });
  });

  it('sends --query parameters and takes the body from a file or standard input', async () => {
    const page = await api(['GET', '/v1/recognitions', '--query', 'limit=3', '--query', 'page=2']);
    expect(page.code).toBe(0);
    const { data, pagination } = JSON.parse(page.stdout) as {
      data: unknown[];
      pagination: { page: number };
    };
    expect(data).toHaveLength(3);
    expect(pagination.page).toBe(2);

    const file = join(cli.project, 'webhook.json');
    writeFileSync(
      file,
      JSON.stringify({ url: 'https://hooks.example.com/recognition', events: ['*'] }),
    );
    const fromFile = await api(['POST', '/v1/webhooks', '--data', `@${file}`]);
    expect(fromFile.code).toBe(0);
    const { data: webhook } = JSON.parse(fromFile.stdout) as { data: { id: string } };

    const patched = await api(['PATCH', `/v1/webhooks/${webhook.id}`, '--data', '@-'], {
      input: JSON.stringify({ enabled: false }),
    });
    expect(patched.code).toBe(0);
    expect(JSON.parse(patched.stdout)).toMatchObject({ data: { id: webhook.id, enabled: false } });

    // 204: nothing to print.
    const deleted = await api(['DELETE', `/v1/webhooks/${webhook.id}`]);
    expect(deleted).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(server.api.store.webhooks.get(webhook.id)).toBeUndefined();
  });

  it('shows the typed error with status, code, message and request id on stderr, and exits 1', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const result = await api(['GET', `/v1/recognitions/${missing}`]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const requestId = server.api.requests.at(-1)!.id;
    expect(result.stderr).toContain('NotFoundError: ');
    expect(result.stderr).toMatch(/status: +404\n/);
    expect(result.stderr).toMatch(/code: +not_found\n/);
    expect(result.stderr).toMatch(new RegExp(`request id: +${requestId}\\n`));

    const invalid = await api([
      'POST',
      '/v1/recognitions',
      '--data',
      JSON.stringify({ message: 'x' }),
    ]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('UnprocessableEntityError: ');
    expect(invalid.stderr).toMatch(/code: +validation_error\n/);
    expect(invalid.stderr).toMatch(/recipient_id: /);
  });

  it('keeps the SDK’s log lines (RECOGNITION_LOG) on stderr, so stdout stays JSON', async () => {
    const result = await api(['GET', '/v1/users', '--query', 'limit=2'], {
      env: { RECOGNITION_LOG: 'debug' },
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ data: [{}, {}] });
    expect(result.stderr).toMatch(/GET \S+\/v1\/users\?limit=2 -> 200 in \d+ ms/);
  });

  it('never shows the credential, even when the service refuses it', async () => {
    const apiKey = `rk_test_${'Z'.repeat(32)}`;
    const result = await api(['GET', '/v1/users'], { env: { RECOGNITION_API_KEY: apiKey } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/AuthenticationError: .*\n +status: +401/);
    expect(result.stderr + result.stdout).not.toContain(apiKey);
  });

  it('reports a connection error by name and exits 1 when the service cannot be reached', async () => {
    const result = await api(['GET', '/v1/users'], {
      env: { RECOGNITION_BASE_URL: await closedPort() },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^ApiConnectionError: /);
  }, 30_000);

  it('exits 2 on a method it does not know or a GET with a body, sending nothing', async () => {
    const sent = server.api.requests.length;
    const put = await api(['PUT', '/v1/users']);
    expect(put.code).toBe(2);
    expect(put.stderr).toContain('The method must be one of GET, POST, PATCH, DELETE');
    const getWithBody = await api(['GET', '/v1/users', '--data', '{}']);
    expect(getWithBody.code).toBe(2);
    const badJson = await api(['POST', '/v1/recognitions', '--data', '{nope']);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toContain('--data is not JSON');
    expect(server.api.requests).toHaveLength(sent);
  });
});
