import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@employee-recognition/sdk';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, startTestServer } from '../support/http-server.js';
import { type InstalledCli, installCli, type RunningCli } from './installed-cli.js';

let cli: InstalledCli;

beforeAll(async () => {
  cli = await installCli();
}, 180_000);

afterAll(async () => {
  await cli?.remove();
});

async function startMock(
  args: string[],
): Promise<{ mock: RunningCli; baseUrl: string; apiKey: string }> {
  const mock = cli.start(['mock', '--port', '0', ...args]);
  const [, baseUrl] = await mock.waitFor(/export RECOGNITION_BASE_URL=(\S+)/);
  const [, apiKey] = await mock.waitFor(/export RECOGNITION_API_KEY=(\S+)/);
  return { mock, baseUrl: baseUrl!, apiKey: apiKey! };
}

describe('employee-recognition mock', () => {
  it('runs in a project without msw: the mock needs none', () => {
    expect(existsSync(join(cli.project, 'node_modules', 'msw'))).toBe(false);
  });

  it('serves the seeded data, tier and window it is given to the SDK, and SIGTERM stops it with exit 0', async () => {
    const { mock, baseUrl, apiKey } = await startMock([
      '--seed',
      '7',
      '--recognitions',
      '12',
      '--tier',
      '10',
      '--window-ms',
      '5000',
    ]);
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const client = new Client({ baseUrl, apiKey, maxRetries: 0 });
    const ids: string[] = [];
    for await (const recognition of client.recognitions.list({ limit: 5 }))
      ids.push(recognition.id);
    expect(ids).toHaveLength(12);
    const { response } = await client.users.list().withResponse();
    expect(response.headers.get('x-ratelimit-limit')).toBe('10');

    mock.child.kill('SIGTERM');
    const result = await mock.exited;
    expect(result).toMatchObject({ code: 0, signal: null });
    expect(result.stdout).toContain('SIGTERM: stopping the mock API.');
  });

  it('gives the same test key for the same seed, whatever the tier, and stops on SIGINT with exit 0', async () => {
    const first = await startMock(['--seed', '3']);
    first.mock.child.kill('SIGINT');
    expect(await first.mock.exited).toMatchObject({ code: 0, signal: null });
    const second = await startMock(['--seed', '3', '--tier', '1000']);
    second.mock.child.kill('SIGINT');
    expect(await second.mock.exited).toMatchObject({ code: 0, signal: null });
    expect(second.apiKey).toBe(first.apiKey);
  });

  it('delivers signed events to a webhook registered on http://127.0.0.1', async () => {
    const deliveries: { body: string; headers: Record<string, string> }[] = [];
    const receiver = await startTestServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        deliveries.push({ body, headers: request.headers as Record<string, string> });
        response.writeHead(204).end();
      });
    });
    const { mock, baseUrl, apiKey } = await startMock([]);
    try {
      const client = new Client({ baseUrl, apiKey, maxRetries: 0 });
      const { data: webhook } = await client.webhooks.create({
        url: `${receiver.url}/webhooks`,
        events: ['recognition.created'],
      });
      const { data: users } = await client.users.list({ limit: 3 });
      const { data: created } = await client.recognitions.create({
        recipient_id: users[1]!.id,
        message: 'Thanks for the local receiver!',
      });
      await mock.waitFor(/webhook recognition\.created -> \S+: 204/);
      expect(deliveries).toHaveLength(1);
      const event = new Webhook(webhook.secret).verify(deliveries[0]!.body, deliveries[0]!.headers);
      expect(event).toMatchObject({ type: 'recognition.created', data: { id: created.id } });
    } finally {
      mock.child.kill('SIGTERM');
      await mock.exited;
      await receiver.close();
    }
  });

  it('fails with exit 1 and says so when the port is taken', async () => {
    const { mock, baseUrl } = await startMock([]);
    try {
      const port = new URL(baseUrl).port;
      const result = await cli.run(['mock', '--port', port]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`port ${port} is in use`);
    } finally {
      mock.child.kill('SIGTERM');
      await mock.exited;
    }
  });

  it('rejects a tier the contract does not have with exit 2, before starting', async () => {
    const result = await cli.run([
      'mock',
      '--tier',
      '50',
      '--port',
      new URL(await closedPort()).port,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--tier must be one of 10, 100, 1000');
  });

  it('marks the operations of --deprecate deprecated, so the SDK warns once with the sunset and link', async () => {
    const { mock, baseUrl, apiKey } = await startMock([
      '--deprecate',
      'users.get',
      '--deprecate',
      'users.list',
      '--sunset',
      '2027-06-30',
      '--deprecation-link',
      'https://docs.example/deprecations',
    ]);
    try {
      expect(mock.stdout()).toContain(
        'Deprecated (their answers carry Deprecation, Sunset and Link): users.get, users.list',
      );
      const warnings: string[] = [];
      const logger = {
        debug() {},
        info() {},
        error() {},
        warn: (line: string) => void warnings.push(line),
      };
      const client = new Client({ baseUrl, apiKey, maxRetries: 0, logger, logLevel: 'warn' });
      const { data: page, deprecation } = await client.users.list().withResponse();
      await client.users.list();
      await client.users.get(page.data[0]!.id);
      await client.teams.list();
      expect(deprecation).toMatchObject({
        deprecated: true,
        sunsetAt: new Date('2027-06-30T00:00:00Z'),
        deprecationLink: 'https://docs.example/deprecations',
      });
      expect(warnings).toHaveLength(2);
      expect(warnings[0]).toMatch(
        /users\.list is deprecated by the service \(deprecation date \S+, sunset 2027-06-30T00:00:00Z, details https:\/\/docs\.example\/deprecations\)/,
      );
      expect(warnings[1]).toMatch(/^\[employee-recognition\] users\.get is deprecated/);
    } finally {
      mock.child.kill('SIGTERM');
      await mock.exited;
    }
  });

  it('warns on stderr of a --sunset before the deprecation date it announces, and starts as before', async () => {
    const warning = (sunset: string) =>
      `employee-recognition mock: --sunset ${sunset} comes before the deprecation date the mock announces, 2026-11-21: its answers say the operations were retired before they were deprecated.\n`;
    for (const [sunset, stderr] of [
      ['2026-01-01', warning('2026-01-01')],
      ['2027-06-30', ''],
    ] as const) {
      const { mock, baseUrl, apiKey } = await startMock([
        '--deprecate',
        'users.get',
        '--sunset',
        sunset,
      ]);
      const { data } = await new Client({ baseUrl, apiKey, maxRetries: 0 }).users.list();
      expect(data.length).toBeGreaterThan(0);
      mock.child.kill('SIGTERM');
      // Read once it exited: stderr and stdout are separate pipes, with no order between them.
      expect(await mock.exited).toMatchObject({ code: 0, stderr });
    }
  });

  it('speaks the dialect of its options: IETF headers, problem errors, Link paging, a skewed clock, renamed fields', async () => {
    const { mock, baseUrl, apiKey } = await startMock([
      '--rate-limit-headers',
      'ratelimit',
      '--errors',
      'problem',
      '--pagination',
      'link',
      '--clock-skew=-360',
      '--rename',
      'users.email=mail',
    ]);
    try {
      expect(mock.stdout()).toContain('Dialect: {"rateLimitHeaders":"ratelimit"');
      const client = new Client({ baseUrl, apiKey, maxRetries: 0 });
      // The child reads this machine's clock while it answers, between these two readings; its
      // Date header is that time, 360 s behind, in whole seconds. However long the call takes.
      const before = Date.now();
      const { data: users, rateLimit, response } = await client.users.list().withResponse();
      const after = Date.now();
      expect(rateLimit).toMatchObject({ family: 'ratelimit', limit: 100 });
      expect(users.data[0]).toHaveProperty('mail');
      const served = Date.parse(response.headers.get('date')!) + 360_000;
      expect(served).toBeGreaterThan(before - 1000);
      expect(served).toBeLessThanOrEqual(after);
      const missing = await client.users
        .get('00000000-0000-4000-8000-000000000000')
        .catch((e: unknown) => e);
      expect(missing).toMatchObject({
        status: 404,
        code: 'not_found',
        type: `${baseUrl}/problems/not_found`,
      });
      const all = await client.recognitions.list({ limit: 100 }).toArray({ limit: 1000 });
      expect(all).toHaveLength(300);
    } finally {
      mock.child.kill('SIGTERM');
      await mock.exited;
    }
  });

  it('rejects a dialect value it does not know with exit 2, naming the option', async () => {
    const port = new URL(await closedPort()).port;
    const errors = await cli.run(['mock', '--errors', 'xml', '--port', port]);
    expect(errors.code).toBe(2);
    expect(errors.stderr).toContain('dialect.errors must be one of "contract", "problem"');
    const rename = await cli.run(['mock', '--rename', 'email', '--port', port]);
    expect(rename.code).toBe(2);
    expect(rename.stderr).toContain('--rename takes type.field=name');
  });

  it('rejects an operation --deprecate does not know, and --sunset without --deprecate, with exit 2', async () => {
    const port = new URL(await closedPort()).port;
    const unknown = await cli.run(['mock', '--deprecate', 'users.fetch', '--port', port]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--deprecate takes an operation, one of recognitions.list');
    const alone = await cli.run(['mock', '--sunset', '2027-06-30', '--port', port]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain(
      '--sunset and --deprecation-link describe the operations of --deprecate',
    );
    const badDate = await cli.run([
      'mock',
      '--deprecate',
      'users.get',
      '--sunset',
      'soon',
      '--port',
      port,
    ]);
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toContain('--sunset must be a date');
  });
});
