/**
 * The checks of recorded traffic (checkTraffic, diffTraffic): each verdict the SDK's own, against
 * files other tools write too (browser exports with base64 bodies, Polly.js-style files), and
 * each false green, false red and misreading of issue 47 pinned.
 */
import { describe, expect, it } from 'vitest';
import { checkTraffic, diffTraffic } from '../../src/doctor/traffic.js';
import { BASE, byId, client, type Exchange, har, page, RECOGNITION, USER } from './har.js';

describe('checkTraffic: the SDK’s own verdict on every answer', () => {
  it('Link paging without a pagination object fails the envelope, as client.recognitions.list() does', async () => {
    const recorded = har({
      path: '/v1/recognitions?limit=1',
      body: { data: [RECOGNITION] },
      headers: { link: `<${BASE}/v1/recognitions?limit=1&cursor=abc>; rel="next"` },
    });
    const envelope = byId(await checkTraffic(client, recorded), 'envelope');
    expect(envelope.status).toBe('fail');
    expect(envelope.summary).toMatch(
      /recognitions\.list: the call fails with InvalidResponseError: .*pagination/,
    );
  });

  it('Link paging beside a pagination object is read, and named as Link paging', async () => {
    const recorded = har({
      path: '/v1/recognitions?limit=1',
      body: page([RECOGNITION], { page: 1, total_pages: 2 }),
      headers: { link: `<${BASE}/v1/recognitions?limit=1&page=2>; rel="next"` },
    });
    const envelope = byId(await checkTraffic(client, recorded), 'envelope');
    expect(envelope).toMatchObject({ status: 'ok' });
    expect(envelope.summary).toContain('Link paging (RFC 8288)');
  });

  it('base64 bodies, as browsers export them, are read as the plain ones', async () => {
    const exchanges: Exchange[] = [
      { path: '/v1/users?limit=2', body: page([USER, USER]) },
      { path: `/v1/users/${USER.id}`, body: { data: USER } },
    ];
    const plain = await checkTraffic(client, har(...exchanges));
    const base64 = await checkTraffic(
      client,
      har(...exchanges.map((each) => ({ ...each, base64: true }))),
    );
    expect(base64.map(({ id, status }) => [id, status])).toEqual(
      plain.map(({ id, status }) => [id, status]),
    );
    expect(byId(base64, 'envelope').status).toBe('ok');
    expect(byId(base64, 'records').status).toBe('ok');
  });

  it('an enumeration value the SDK does not know is a note (warn), not a failure: the call succeeds', async () => {
    const recorded = har({ path: '/v1/users', body: page([{ ...USER, role: 'owner' }]) });
    const checks = await checkTraffic(client, recorded);
    expect(byId(checks, 'records')).toMatchObject({ status: 'warn' });
    expect(byId(checks, 'records').summary).toContain(
      'data.*.role holds a value this SDK does not know',
    );
    expect(checks.some((check) => check.status === 'fail')).toBe(false);
  });

  it('a passed sunset fails, said as passed, with the service’s page in the fix', async () => {
    const recorded = har({
      path: '/v1/users',
      body: page([USER]),
      headers: {
        deprecation: '@1700000000',
        sunset: 'Wed, 01 Jan 2025 00:00:00 GMT',
        link: `<${BASE}/docs/users-v2>; rel="deprecation"`,
      },
    });
    const deprecations = byId(await checkTraffic(client, recorded), 'deprecations');
    expect(deprecations.status).toBe('fail');
    expect(deprecations.summary).toBe(
      'users.list deprecated, its sunset passed on 2025-01-01T00:00:00.000Z',
    );
    expect(deprecations.fix).toContain(`users.list ${BASE}/docs/users-v2`);
  });
});

describe('checkTraffic: privacy by the recording’s own redaction', () => {
  const secret = 'cl1ent-s3cret-value-0123';
  const token = 'opaque.token-with.no.shape-42';
  const cases: [string, Exchange, string][] = [
    [
      'Basic credentials',
      {
        path: '/v1/users',
        body: page([USER]),
        requestHeaders: {
          authorization: `Basic ${Buffer.from(`client:${secret}`).toString('base64')}`,
        },
      },
      'entry 0 request.headers.authorization.value',
    ],
    [
      'a Bearer OAuth token of no known shape',
      {
        path: '/v1/users',
        body: page([USER]),
        requestHeaders: { authorization: `Bearer ${token}` },
      },
      'entry 0 request.headers.authorization.value',
    ],
    [
      'a token answer’s access_token',
      {
        method: 'POST',
        path: '/v1/oauth/token',
        body: { access_token: token, token_type: 'Bearer', expires_in: 3600 },
      },
      'entry 0 response.content.text',
    ],
    [
      'a client_secret form field',
      {
        method: 'POST',
        path: '/oauth/token',
        form: { grant_type: 'client_credentials', client_secret: secret },
        body: { token_type: 'Bearer' },
      },
      'entry 0 request.postData',
    ],
    [
      'a whsec_ secret in a base64 body',
      {
        method: 'POST',
        path: '/v1/webhooks',
        status: 201,
        base64: true,
        body: {
          data: {
            id: 'wh_1',
            url: 'https://receiver.example/hooks',
            events: ['*'],
            enabled: true,
            description: null,
            secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0',
            created_at: '2026-11-21T09:30:00Z',
          },
        },
      },
      'entry 0 response.content.text',
    ],
    [
      'an email in free text',
      {
        path: `/v1/recognitions/${RECOGNITION.id}`,
        body: { data: { ...RECOGNITION, message: 'Thanks, write to ada@acme.example' } },
      },
      'entry 0 response.content.text',
    ],
    [
      'a name in a personal field',
      { path: '/v1/users', body: page([{ ...USER, name: 'Ada Lovelace' }]) },
      'entry 0 response.content.text',
    ],
  ];

  it.each(cases)(
    'fails on %s, naming entry and field, never the value',
    async (_, exchange, where) => {
      const privacy = byId(await checkTraffic(client, har(exchange)), 'privacy');
      expect(privacy.status).toBe('fail');
      expect(privacy.summary).toContain(where);
      const shown = JSON.stringify(privacy);
      for (const value of [secret, token, 'whsec_c2Vj', 'ada@acme', 'Lovelace']) {
        expect(shown).not.toContain(value);
      }
    },
  );

  it('fails a Polly.js-style file with the key in it (its own _ fields and creator), naming the field', async () => {
    const key = `rk_live_${'a1B2'.repeat(6)}`;
    const recorded = har({
      path: '/v1/users',
      body: page([USER]),
      requestHeaders: { authorization: `Bearer ${key}` },
    });
    recorded.log.creator = { name: 'Polly.JS', version: '6.0.6' };
    Object.assign(recorded.log.entries[0]!, { _id: 'abc', _order: 0 });
    const privacy = byId(await checkTraffic(client, recorded), 'privacy');
    expect(privacy.status).toBe('fail');
    expect(privacy.summary).toContain('entry 0 request.headers.authorization.value');
    expect(JSON.stringify(privacy)).not.toContain(key);
  });

  it('passes what the recorder writes: REDACTED credentials and pseudonyms', async () => {
    const recorded = har(
      {
        path: '/v1/users',
        body: page([USER, { ...USER, name: 'Person3 Person4', email: 'person2@redacted.invalid' }]),
        requestHeaders: { authorization: 'REDACTED', 'idempotency-key': 'REDACTED' },
      },
      { path: `/v1/recognitions/${RECOGNITION.id}`, body: { data: RECOGNITION } },
    );
    expect(byId(await checkTraffic(client, recorded), 'privacy')).toMatchObject({ status: 'ok' });
  });
});

describe('diffTraffic: what the SDK makes of a change', () => {
  const plain: Exchange[] = [
    { path: '/v1/users?limit=2', body: page([USER]) },
    { path: `/v1/users/${USER.id}`, body: { data: USER } },
    { path: '/v1/recognitions?limit=2', body: page([RECOGNITION]) },
    {
      path: '/v1/users/00000000-0000-4000-8000-000000000000',
      status: 404,
      body: { error: { code: 'not_found', message: 'No such user' } },
    },
  ];

  it('a new recording with no answer: nothing to compare', async () => {
    await expect(diffTraffic(client, har(...plain), har())).rejects.toThrow(/nothing to compare/);
  });

  it('names each operation the new recording lacks, as drift', async () => {
    const diff = await diffTraffic(client, har(...plain), har(plain[0]!));
    expect(diff.same).toBe(false);
    expect(diff.coverage.missing).toEqual(['users.get', 'recognitions.list']);
  });

  it('a value the SDK knows, and a null its schema allows, are notes; an unknown value is drift', async () => {
    const changed = { ...USER, role: 'admin', team_id: null };
    const known = await diffTraffic(
      client,
      har(...plain),
      har({ ...plain[0]!, body: page([changed]) }, ...plain.slice(1)),
    );
    expect(known.same).toBe(true);
    expect(known.differences).toEqual([]);
    expect(known.notes.map(({ kind, path }) => `${kind} ${path}`)).toEqual([
      'nullable data[].team_id',
      'enum value data[].role',
    ]);
    const unknown = await diffTraffic(
      client,
      har(...plain),
      har({ ...plain[0]!, body: page([{ ...USER, role: 'owner' }]) }, ...plain.slice(1)),
    );
    expect(unknown.differences).toEqual([
      { operation: 'users.list', kind: 'enum value', path: 'data[].role', detail: 'owner' },
    ]);
  });

  it('a dialect the SDK reads fully (problem+json, Link paging, structured rate-limit headers) is no drift; each header once', async () => {
    const dialect = plain.map((each): Exchange => {
      const headers = {
        'x-ratelimit-limit': '',
        ratelimit: '"default";r=99;t=60',
        'ratelimit-policy': '"default";q=100;w=60',
      };
      if (each.status === 404) {
        return {
          ...each,
          headers: { ...headers, 'content-type': 'application/problem+json' },
          body: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'No such user' },
        };
      }
      return { ...each, headers };
    });
    const stripped = (exchanges: Exchange[]) => {
      const recorded = har(...exchanges);
      for (const entry of recorded.log.entries) {
        entry.response.headers = entry.response.headers.filter(
          (header) => !/^x-ratelimit/.test(header.name),
        );
      }
      return recorded;
    };
    const diff = await diffTraffic(client, har(...plain), stripped(dialect));
    expect(diff.same).toBe(true);
    expect(
      diff.headers.map(({ header, kind, operations, family, drift }) => [
        header,
        kind,
        operations.length,
        family,
        drift,
      ]),
    ).toEqual([
      ['ratelimit', 'header added', 4, 'rate-limit', false],
      ['ratelimit-policy', 'header added', 4, 'rate-limit', false],
      ['x-ratelimit-limit', 'header removed', 4, 'rate-limit', false],
      ['x-ratelimit-remaining', 'header removed', 4, 'rate-limit', false],
      ['x-ratelimit-reset', 'header removed', 4, 'rate-limit', false],
    ]);
  });

  it('a change on which the SDK’s call now fails is drift: the pagination object gone, a Link header instead', async () => {
    const diff = await diffTraffic(
      client,
      har(...plain),
      har(
        {
          ...plain[0]!,
          body: { data: [USER] },
          headers: { link: `<${BASE}/v1/users?limit=2&cursor=c2>; rel="next"` },
        },
        ...plain.slice(1),
      ),
    );
    expect(diff.same).toBe(false);
    expect(diff.differences).toContainEqual({
      operation: 'users.list',
      kind: 'removed',
      path: 'pagination',
      detail: 'object',
    });
  });

  it('base64 bodies and plain ones have the same shapes', async () => {
    const diff = await diffTraffic(
      client,
      har(...plain),
      har(...plain.map((each) => ({ ...each, base64: true }))),
    );
    expect(diff).toMatchObject({ same: true, differences: [], notes: [] });
  });

  it('a body nested 50,000 deep is not walked, and crashes nothing', async () => {
    const deep = `{"data":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    const recorded = har({ path: '/v1/users', body: deep });
    await expect(diffTraffic(client, har(...plain), recorded)).resolves.toMatchObject({
      same: false,
    });
    const checks = await checkTraffic(client, recorded);
    expect(byId(checks, 'recording').summary).toContain('nested too deep');
  });
});
