/**
 * diagnose() against the kit's mock over real HTTP: as it is (every check ok), and with each
 * difference the doctor exists to name: limited scopes, a skewed clock, a deprecation, the service
 * down, a rejected key, a window nearly spent; --write's webhook made and removed.
 */
import { Client } from '@employee-recognition/sdk';
import { type DoctorReport, diagnose } from '@employee-recognition/sdk/doctor';
import {
  type MockServer,
  type MockServerOptions,
  startMockServer,
} from '@employee-recognition/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/core/config.js';
import { MAX_REQUESTS } from '../../src/doctor/diagnose.js';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function mock(options: MockServerOptions = {}): Promise<MockServer> {
  const server = await startMockServer({ recognitions: 5, ...options });
  servers.push(server);
  return server;
}

function clientOf(server: MockServer, apiKey = server.api.testKey): Client {
  return new Client({ apiKey, baseUrl: server.url, logLevel: 'off' });
}

const check = (report: DoctorReport, id: string) => {
  const found = report.checks.find((each) => each.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
};

const KEY = (tag: string) => `rk_test_${tag.padEnd(24, 'x')}`;

describe('diagnose against the mock as it is', () => {
  it('passes every check, in the documented order and shapes, within 25 requests', async () => {
    const server = await mock();
    const report = await diagnose(clientOf(server), { credential: server.api.testKey, env: {} });
    expect(report.checks.map((each) => each.id)).toEqual([
      'runtime',
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
      'idempotency',
    ]);
    // The runtime's verdict follows today's date against the support table; the rest is the mock's.
    expect(check(report, 'runtime').status).not.toBe('fail');
    for (const each of report.checks.slice(1, -1))
      expect([each.id, each.status]).toEqual([each.id, 'ok']);
    expect(check(report, 'idempotency').status).toBe('skip');
    expect(report.ok).toBe(true);
    expect(report.baseUrl).toBe(server.url);
    expect(check(report, 'scopes').details).toEqual({
      granted: [
        'recognitions:read',
        'users:read',
        'rewards:read',
        'teams:read',
        'webhooks:read',
        'budgets:read',
        'analytics:read',
      ],
      missing: [],
      unchecked: ['recognitions:write', 'webhooks:write'],
      reasons: expect.any(Object),
    });
    expect(check(report, 'rate-limit').details).toMatchObject({
      limit: 100,
      remaining: expect.any(Number),
      resetAt: expect.stringMatching(/Z$/),
      headers: ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
    });
    expect(check(report, 'clock').details).toMatchObject({ skewSeconds: expect.any(Number) });
    expect(check(report, 'records').details).toMatchObject({ differences: [], newFields: [] });
    expect(check(report, 'pagination').details).toMatchObject({
      mode: 'cursor',
      cursorField: 'next_cursor',
    });
    expect(check(report, 'deprecations').details).toEqual({ notices: [] });
    // Every probe is in the mock's log: the budget holds, and nothing was written.
    const requests = server.api.requests;
    expect(requests.length).toBeLessThanOrEqual(MAX_REQUESTS);
    expect(requests.every((request) => request.method === 'GET')).toBe(true);
  });
});

describe('diagnose names each difference in its check', () => {
  it('limited scopes: the missing ones, and the operations they fail', async () => {
    const key = KEY('scoped');
    const server = await mock({
      keys: [{ key, scopes: ['recognitions:read', 'users:read', 'analytics:read'] }],
    });
    const report = await diagnose(clientOf(server, key), { credential: key, env: {} });
    const scopes = check(report, 'scopes');
    expect(scopes.status).toBe('warn');
    expect(scopes.details).toMatchObject({
      granted: ['recognitions:read', 'users:read', 'analytics:read'],
      missing: ['rewards:read', 'teams:read', 'webhooks:read', 'budgets:read'],
    });
    expect(scopes.summary).toContain('webhooks.list');
    expect(check(report, 'webhooks')).toMatchObject({
      status: 'skip',
      summary: 'the key lacks webhooks:read',
    });
    expect(check(report, 'records').details).toMatchObject({
      unsampled: ['rewards.list', 'teams.list', 'webhooks.list', 'budgets.list'],
    });
    expect(report.ok).toBe(true);
  });

  it('a clock 400 s ahead: clock fails, naming the webhook-timestamp rejections', async () => {
    const server = await mock();
    const report = await diagnose(clientOf(server), {
      credential: server.api.testKey,
      env: {},
      now: () => Date.now() + 400_000,
    });
    const clock = check(report, 'clock');
    expect(clock.status).toBe('fail');
    expect(clock.summary).toMatch(
      /40\d s ahead of the service's: every webhook delivery is refused \(verifyWebhook throws WebhookVerificationError timestamp_too_old/,
    );
    expect(clock.details.skewSeconds).toBeGreaterThanOrEqual(399);
    expect(report.ok).toBe(false);
  });

  it('a clock 60 s behind: clock warns', async () => {
    const server = await mock();
    const report = await diagnose(clientOf(server), {
      credential: server.api.testKey,
      env: {},
      now: () => Date.now() - 60_000,
    });
    expect(check(report, 'clock')).toMatchObject({ status: 'warn' });
    expect(check(report, 'clock').summary).toContain('behind');
    expect(report.ok).toBe(true);
  });

  it('a passed sunset fails, said as passed, the service’s page printed in the fix', async () => {
    const server = await mock({
      deprecations: {
        'users.list': { sunsetAt: '2020-06-30', deprecationLink: 'https://docs.example/users-v2' },
      },
    });
    const report = await diagnose(clientOf(server), { credential: server.api.testKey, env: {} });
    const deprecations = check(report, 'deprecations');
    expect(deprecations.status).toBe('fail');
    expect(deprecations.summary).toBe(
      'deprecated: users.list (its sunset passed on 2020-06-30T00:00:00.000Z)',
    );
    expect(deprecations.fix).toContain('A sunset has passed');
    expect(deprecations.fix).toContain('users.list: https://docs.example/users-v2');
  });

  it('unchecked scopes say why; a count of one is singular', async () => {
    const server = await mock();
    const report = await diagnose(clientOf(server), { credential: server.api.testKey, env: {} });
    expect(check(report, 'scopes').summary).toMatch(
      /unchecked recognitions:write \(never checked: it would create a recognition people see.*\), webhooks:write \(read-only run/,
    );
    expect(check(report, 'deprecations').summary).toMatch(/on \d+ answers$/);
  });

  it('a deprecation: every notice seen, with its dates', async () => {
    const server = await mock({ deprecations: { 'users.list': { sunsetAt: '2099-06-30' } } });
    const report = await diagnose(clientOf(server), { credential: server.api.testKey, env: {} });
    const deprecations = check(report, 'deprecations');
    expect(deprecations.status).toBe('warn');
    expect(deprecations.details).toEqual({
      notices: [
        {
          operation: 'users.list',
          deprecated: true,
          deprecatedAt: expect.any(String),
          sunsetAt: '2099-06-30T00:00:00.000Z',
          link: null,
        },
      ],
    });
  });

  it('a sunset passed: deprecations fails', async () => {
    const server = await mock({ deprecations: { 'teams.list': { sunsetAt: '2020-01-01' } } });
    const report = await diagnose(clientOf(server), { credential: server.api.testKey, env: {} });
    expect(check(report, 'deprecations').status).toBe('fail');
  });

  it('the service down: connection fails, and every check that needs it is skipped', async () => {
    const server = await mock();
    const client = clientOf(server);
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    const report = await diagnose(client, { credential: KEY('down'), env: {} });
    expect(check(report, 'connection')).toMatchObject({ status: 'fail' });
    expect(check(report, 'connection').summary).toContain('ECONNREFUSED');
    for (const each of report.checks.slice(2)) {
      expect(each).toMatchObject({
        status: 'skip',
        summary: 'the service could not be reached (see connection)',
      });
    }
    expect(report.ok).toBe(false);
  });

  it('the service answering 503: connection fails, naming the status', async () => {
    const server = await mock();
    server.api.faults.failNext('GET /v1/recognitions', { status: 503 });
    const report = await diagnose(clientOf(server), { credential: server.api.testKey, env: {} });
    expect(check(report, 'connection')).toMatchObject({ status: 'fail' });
    expect(check(report, 'connection').summary).toContain('HTTP 503');
  });

  it('a rejected key: credential fails, and the checks that need it say why they are skipped', async () => {
    const server = await mock();
    const key = KEY('unknown');
    const report = await diagnose(clientOf(server, key), { credential: key, env: {} });
    expect(check(report, 'credential')).toMatchObject({
      status: 'fail',
      details: { kind: 'test', accepted: false },
    });
    for (const id of ['scopes', 'errors', 'pagination', 'records', 'webhooks', 'idempotency']) {
      expect(check(report, id)).toMatchObject({
        status: 'skip',
        summary: 'the credential was refused (see credential)',
      });
    }
    expect(report.ok).toBe(false);
  });

  it('a window nearly spent: skips what it cannot afford rather than wait, leaving 10 %', async () => {
    const server = await mock({ tier: 10 });
    const client = clientOf(server);
    // The app spent half its window already.
    for (let i = 0; i < 5; i++) await client.users.list({ limit: 1 });
    const report = await diagnose(client, { credential: server.api.testKey, env: {} });
    const reasons = check(report, 'scopes').details.reasons as Record<string, string>;
    expect(reasons['webhooks:read']).toMatch(
      /^the rate-limit window has 1 of 10 requests left, and the doctor leaves 1 \(10 %\) to your app; run it again after \d{4}-/,
    );
    expect(check(report, 'errors')).toMatchObject({ status: 'skip' });
    expect(check(report, 'errors').summary).toMatch(/rate-limit window has 1 of 10 requests left/);
    // Never below the reserve: one request of ten is left to the app, and nothing waited.
    expect(server.api.requests.length).toBe(9);
  });

  it('a proxy variable that fetch ignores: runtime warns with the fix', async () => {
    const server = await mock();
    const report = await diagnose(clientOf(server), {
      credential: server.api.testKey,
      env: { HTTPS_PROXY: 'http://proxy.internal:3128' },
    });
    expect(check(report, 'runtime')).toMatchObject({ status: 'warn' });
    expect(check(report, 'runtime').fix).toContain('NODE_USE_ENV_PROXY=1');
  });
});

describe('diagnose --write', () => {
  it('checks webhooks:write and the Idempotency-Key replay, and leaves no webhook behind', async () => {
    const server = await mock();
    const report = await diagnose(clientOf(server), {
      credential: server.api.testKey,
      env: {},
      write: true,
    });
    expect(check(report, 'idempotency')).toMatchObject({
      status: 'ok',
      details: { created: true, sameId: true, sameSecret: true },
    });
    expect(check(report, 'scopes').details).toMatchObject({ unchecked: ['recognitions:write'] });
    expect(check(report, 'scopes').details.granted as string[]).toContain('webhooks:write');
    expect(server.api.store.webhooks.all()).toEqual([]);
    const writes = server.api.requests.filter((request) => request.method !== 'GET');
    expect(writes.map((request) => request.method)).toEqual(['POST', 'PATCH', 'POST', 'DELETE']);
  });

  // A service that ignores the Idempotency-Key (so the replay makes a second webhook), and a
  // connection that drops the answer to one write after the service did it.
  it.each([
    [1, 'the first create'],
    [2, 'the disabling update'],
    [3, 'the replayed create'],
  ])('leaves nothing behind when the answer to write %i (%s) is lost', async (lost) => {
    const server = await mock();
    let writes = 0;
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      let request = new Request(input, init);
      if (request.method === 'POST') {
        const headers = new Headers(request.headers);
        headers.delete('idempotency-key');
        request = new Request(request, { headers });
      }
      const response = await globalThis.fetch(request);
      if (request.method !== 'GET' && request.method !== 'DELETE' && ++writes === lost) {
        await response.body?.cancel();
        throw new TypeError('fetch failed: the connection dropped');
      }
      return response;
    };
    const client = new Client({
      apiKey: server.api.testKey,
      baseUrl: server.url,
      logLevel: 'off',
      fetch,
    });
    const report = await diagnose(client, {
      credential: server.api.testKey,
      env: {},
      write: true,
      fetch,
    });
    expect(check(report, 'idempotency').status).toBe('fail');
    expect(server.api.store.webhooks.all()).toEqual([]);
  });

  it('is refused without an rk_test_ key, before anything is sent', async () => {
    const server = await mock();
    await expect(
      diagnose(clientOf(server), { credential: `rk_live_${'x'.repeat(24)}`, write: true }),
    ).rejects.toThrow(ConfigurationError);
    await expect(diagnose(clientOf(server), { write: true })).rejects.toThrow(/rk_test_/);
    expect(server.api.requests).toEqual([]);
  });
});

describe('diagnose in each dialect of the mock', () => {
  const run = async (dialect: MockServerOptions['dialect']) => {
    const server = await mock({ dialect });
    return diagnose(clientOf(server), { credential: server.api.testKey, env: {} });
  };

  it.each([
    [
      'x-ratelimit-seconds',
      'x-ratelimit',
      ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
    ],
    ['ratelimit', 'ratelimit', ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']],
    ['ratelimit-structured', 'ratelimit-structured', ['ratelimit', 'ratelimit-policy']],
  ] as const)(
    'rate-limit headers %s: a known variant, its family named, exit 0',
    async (headers, family, names) => {
      const report = await run({ rateLimitHeaders: headers });
      const check = report.checks.find((each) => each.id === 'rate-limit')!;
      expect(check).toMatchObject({ status: 'ok', details: { limit: 100, headers: names } });
      expect(String(check.details.family)).toContain(family);
      expect(report.ok).toBe(true);
    },
  );

  it('no rate-limit headers: pacing is off, and the check says what that costs', async () => {
    const report = await run({ rateLimitHeaders: 'none' });
    const check = report.checks.find((each) => each.id === 'rate-limit')!;
    expect(check).toMatchObject({ status: 'warn', details: { limit: null, headers: [] } });
    expect(check.summary).toContain('pacing is off');
    expect(check.fix).toContain('429');
  });

  it('RFC 9457 problem+json errors: a known variant', async () => {
    const report = await run({ errors: 'problem' });
    expect(report.checks.find((each) => each.id === 'errors')).toMatchObject({
      status: 'ok',
      details: { status: 404, shape: 'problem+json', requestIdHeader: true },
    });
    expect(report.ok).toBe(true);
  });

  it('Link paging beside a pagination object: a known variant, named as Link paging', async () => {
    const report = await run({ pagination: 'link' });
    const check = report.checks.find((each) => each.id === 'pagination')!;
    expect(check).toMatchObject({ status: 'ok', details: { link: true, mode: 'link' } });
    expect(check.summary).toMatch(/^Link paging/);
    expect(report.ok).toBe(true);
  });

  it('Link paging without a pagination object fails, as the SDK’s own list call does', async () => {
    const server = await mock({ dialect: { pagination: 'link-only' } });
    const client = clientOf(server);
    // The SDK's verdict, which the doctor must repeat.
    await expect(client.recognitions.list({ limit: 1 })).rejects.toThrow(/pagination/);
    const report = await diagnose(client, { credential: server.api.testKey, env: {} });
    const check = report.checks.find((each) => each.id === 'pagination')!;
    expect(check).toMatchObject({ status: 'fail', details: { link: true } });
    expect(check.summary).toContain('a Link header with rel="next", but no pagination object');
    expect(check.summary).toContain('InvalidResponseError');
    // Reported once, by the pagination check: the records themselves are readable.
    expect(report.checks.find((each) => each.id === 'records')!.status).toBe('ok');
    expect(report.ok).toBe(false);
  });

  it('a service clock 10 minutes behind: clock fails, naming timestamp_too_old', async () => {
    const report = await run({ clockSkewSeconds: -600 });
    const check = report.checks.find((each) => each.id === 'clock')!;
    expect(check.status).toBe('fail');
    expect(check.summary).toContain('timestamp_too_old');
    expect(Math.abs(Number(check.details.skewSeconds) - 600)).toBeLessThanOrEqual(2);
    expect(report.ok).toBe(false);
  });

  it('renamed record fields: each difference with its operation, path and assumption; the new names listed', async () => {
    const report = await run({
      renamedFields: { users: { email: 'mail' }, teams: { member_count: 'members' } },
    });
    const check = report.checks.find((each) => each.id === 'records')!;
    expect(check.status).toBe('fail');
    expect(check.details.differences).toEqual([
      {
        operation: 'users.list',
        path: 'data.*.email',
        problem: 'is missing, but the SDK assumes a string',
        assumption: 'user-identity',
      },
      {
        operation: 'teams.list',
        path: 'data.*.member_count',
        problem: 'is missing, but the SDK assumes a number',
        assumption: 'team-member-count',
      },
    ]);
    expect(check.details.newFields).toEqual([
      { operation: 'users.list', path: 'data.*.mail', type: 'string' },
      { operation: 'teams.list', path: 'data.*.members', type: 'number' },
    ]);
    expect(report.ok).toBe(false);
  });
});
