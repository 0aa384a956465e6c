/**
 * What each check of checkTraffic reports, word for word: which answers it reads and which it
 * leaves out (no answer, a redirect, a body cut at the size cap, another request than the API's),
 * when it skips, warns or fails, and the counts and names in its summary and details.
 */
import { describe, expect, it } from 'vitest';
import { checkTraffic } from '../../src/doctor/traffic.js';
import { BASE, byId, client, type Exchange, har, page, RECOGNITION, USER } from './har.js';

const users: Exchange = { path: '/v1/users', body: page([USER]) };
const user: Exchange = { path: `/v1/users/${USER.id}`, body: { data: USER } };
const token: Exchange = { method: 'POST', path: '/oauth/token', body: { token_type: 'Bearer' } };
const html: Exchange = {
  path: `/v1/users/${USER.id}`,
  status: 500,
  mimeType: 'text/html',
  body: '<html>Bad gateway</html>',
};
const check = async (id: string, ...exchanges: Exchange[]) =>
  byId(await checkTraffic(client, har(...exchanges)), id);

describe('recording: what the file holds', () => {
  it('counts entries, API answers and operations; a request to another endpoint and an entry without an answer are no API answer', async () => {
    const recording = await check('recording', users, user, token, { ...users, status: 0 });
    expect(recording.summary).toBe('4 entries, 2 API answers of 2 operations');
    expect(recording.details).toEqual({
      entries: 4,
      operations: ['users.list', 'users.get'],
      truncated: 0,
      noAnswer: 1,
    });
  });

  it('says one entry and one answer in the singular, and counts the bodies cut at the size cap', async () => {
    expect((await check('recording', users)).summary).toBe('1 entry, 1 API answer of 1 operation');
    const cut = { ...users, body: '{"data":[{"id":', comment: 'truncated: 14 of 900 bytes kept' };
    expect((await check('recording', cut)).summary).toBe(
      '1 entry, 1 API answer of 1 operation; 1 cut at the size cap or nested too deep (not checked)',
    );
  });

  it('reads a JSON body kept in base64 under a binary type as bytes, not as its base64 text', async () => {
    const checks = await checkTraffic(
      client,
      har({ ...users, mimeType: 'application/octet-stream', base64: true }),
    );
    expect(byId(checks, 'recording').summary).toBe('1 entry, 1 API answer of 1 operation');
    expect(byId(checks, 'envelope')).toMatchObject({
      status: 'ok',
      summary: 'the SDK reads every answer',
    });
  });
});

describe('records and envelope: the 2xx answers', () => {
  it('a body cut at the size cap is not judged: no failure from the cut', async () => {
    const cut = { ...users, body: '{"data":[{"id":', comment: 'truncated: 14 of 900 bytes kept' };
    const checks = await checkTraffic(client, har(cut, user));
    expect(byId(checks, 'envelope')).toMatchObject({ status: 'ok' });
    expect(byId(checks, 'records').summary).toBe(
      "every record of 1 answer matches the SDK's types",
    );
  });

  it('a recording without a 2xx answer skips both, saying so', async () => {
    const notFound = {
      path: `/v1/users/${USER.id}`,
      status: 404,
      body: { error: { code: 'not_found', message: 'No such user' } },
    };
    const checks = await checkTraffic(client, har(notFound));
    expect(byId(checks, 'records')).toMatchObject({
      status: 'skip',
      summary: 'no successful answer to check',
    });
    expect(byId(checks, 'envelope')).toEqual({
      id: 'envelope',
      status: 'skip',
      summary: 'no answer of this kind in the recording',
      assumption: expect.any(String),
      details: { problems: [] },
    });
  });

  it('a content comment other than the recorder’s cut leaves the body judged', async () => {
    const cached = { ...users, body: { data: [{}] }, comment: 'served from the cache' };
    const checks = await checkTraffic(client, har(cached));
    expect(byId(checks, 'recording').details.truncated).toBe(0);
    expect(byId(checks, 'envelope').status).toBe('fail');
  });

  it('a 1xx answer is no successful one', async () => {
    const records = await check('records', users, { ...user, status: 103, body: undefined });
    expect(records.summary).toBe("every record of 1 answer matches the SDK's types");
  });

  it('names how the lists page: page numbers where the request asked for a page', async () => {
    const paged = (query: string) => ({
      path: `/v1/users?${query}`,
      body: page([USER], { page: 12, total_pages: 13, next_cursor: null }),
    });
    expect((await check('envelope', paged('page=12'))).summary).toBe(
      'the SDK reads every answer; lists page on by page numbers',
    );
    // No page asked (cursor mode), or none the SDK could have asked: the null cursor ends it.
    for (const query of ['limit=1', 'page=x12', 'page=12x', 'page=1234567890']) {
      expect((await check('envelope', paged(query))).summary).toBe('the SDK reads every answer');
    }
  });

  it('names every way the lists page, joined', async () => {
    const cursor = {
      path: '/v1/recognitions',
      body: page([RECOGNITION], { page: 1, total_pages: 2, next_cursor: 'c2' }),
    };
    const numbered = {
      path: '/v1/users?page=1',
      body: page([USER], { page: 1, total_pages: 2, next_cursor: null }),
    };
    expect((await check('envelope', cursor, numbered)).summary).toBe(
      'the SDK reads every answer; lists page on by cursor paging and page numbers',
    );
  });

  it('lists each failing operation once, three in the summary, every one in the details, with the fix', async () => {
    const broken = (path: string) => ({ path, body: { data: [{}] } });
    const three = ['/v1/users', '/v1/recognitions', '/v1/teams'].map(broken);
    const envelope = await check('envelope', ...three, broken('/v1/users'));
    expect(envelope.status).toBe('fail');
    expect(envelope.summary.match(/\w+\.list(?=: the call fails)/g)).toEqual([
      'users.list',
      'recognitions.list',
      'teams.list',
    ]);
    expect(envelope.fix).toBe(
      'Every call of these operations fails with that error: report the answer the service sends (docs/doctor.md, “Reporting a difference”); meanwhile read them with client.get().',
    );
    const four = await check('envelope', ...three, broken('/v1/rewards'));
    expect(envelope.summary).not.toMatch(/…$/);
    expect(four.summary.match(/\w+\.list(?=: the call fails)/g)).toHaveLength(3);
    expect(four.summary).toMatch(/; …$/);
    expect(
      (four.details.problems as { operation: string }[]).map((each) => each.operation),
    ).toEqual(['users.list', 'recognitions.list', 'teams.list', 'rewards.list']);
  });
});

describe('errors: the body each error answer was read in', () => {
  it('an error body in neither form warns, naming the error the call gets', async () => {
    const errors = await check('errors', users, html);
    expect(errors).toEqual({
      id: 'errors',
      status: 'warn',
      summary:
        'users.get 500: neither { error: { code, message } } nor problem+json: the call gets InternalServerError with code internal_error and the raw body as message',
      fix: 'These errors carry the raw body as their message and the status’s code: branch on the error classes and `status`.',
      assumption: expect.any(String),
      details: {
        problems: [
          {
            operation: 'users.get 500',
            problem:
              'neither { error: { code, message } } nor problem+json: the call gets InternalServerError with code internal_error and the raw body as message',
          },
        ],
      },
    });
  });

  it('a 400 is an error answer; none at all is a skip', async () => {
    const badRequest = {
      path: '/v1/users?limit=1',
      status: 400,
      body: { error: { code: 'invalid_request', message: 'limit' } },
    };
    expect(await check('errors', users, badRequest)).toMatchObject({
      status: 'ok',
      summary: "1 error answer in the SDK's error body or RFC 9457 problem+json",
      details: { problems: [] },
    });
    expect(await check('errors', users)).toMatchObject({
      status: 'skip',
      summary: 'no answer of this kind in the recording',
    });
  });

  it('a redirect is not judged, its answer being another entry', async () => {
    const moved = { ...users, status: 302, headers: { location: `${BASE}/v2/users` } };
    const checks = await checkTraffic(client, har(moved, user));
    expect(byId(checks, 'errors').status).toBe('skip');
    expect(byId(checks, 'records').summary).toBe(
      "every record of 1 answer matches the SDK's types",
    );
  });
});

describe('headers: request ids and rate-limit windows', () => {
  it('names the operations without a request id, without rate-limit headers, and with ones the SDK does not read', async () => {
    const headers = await check(
      'headers',
      { ...users, headers: { 'x-request-id': undefined } },
      {
        ...user,
        headers: {
          'x-ratelimit-limit': undefined,
          'x-ratelimit-remaining': undefined,
          'x-ratelimit-reset': undefined,
        },
      },
      { path: '/v1/teams', body: page([]), headers: { 'x-ratelimit-limit': 'many' } },
      { path: '/v1/rewards', body: page([]), headers: { 'x-request-id': undefined } },
    );
    expect(headers).toEqual({
      id: 'headers',
      status: 'warn',
      summary:
        'no x-request-id on users.list, rewards.list; no rate-limit headers on users.get; rate-limit headers in a form the SDK does not read on teams.list',
      fix: 'Without a window the SDK paces by its own count (pacing is off), and errors without a request id carry none for support.',
      assumption: expect.any(String),
      details: {
        noRequestId: ['users.list', 'rewards.list'],
        noRateLimit: ['users.get', 'teams.list'],
        families: ['x-ratelimit'],
      },
    });
  });

  it('tells a header merely named like a rate-limit header from one the SDK does not read', async () => {
    const noWindow = {
      'x-ratelimit-limit': undefined,
      'x-ratelimit-remaining': undefined,
      'x-ratelimit-reset': undefined,
    };
    const headers = await check(
      'headers',
      { ...users, headers: { ...noWindow, 'legacy-ratelimit': '5' } },
      { ...user, headers: { ...noWindow, 'x-ratelimits': '5' } },
      { path: '/v1/teams', body: page([]), headers: { ...noWindow, ratelimit: 'nonsense' } },
      { path: '/v1/rewards', body: page([]), headers: { ...noWindow, 'ratelimit-policy': 'x' } },
    );
    expect(headers.summary).toBe(
      'no rate-limit headers on users.list, users.get; rate-limit headers in a form the SDK does not read on teams.list, rewards.list',
    );
  });

  it('names every family read, with no fix when nothing is missing', async () => {
    const structured = {
      ...user,
      headers: {
        'x-ratelimit-limit': undefined,
        'x-ratelimit-remaining': undefined,
        'x-ratelimit-reset': undefined,
        ratelimit: '"default";r=99;t=60',
        'ratelimit-policy': '"default";q=100;w=60',
      },
    };
    const headers = await check('headers', users, structured);
    expect(headers).toEqual({
      id: 'headers',
      status: 'ok',
      summary:
        'x-request-id and rate-limit headers (x-ratelimit, ratelimit-structured) on every answer, read by the SDK',
      assumption: expect.any(String),
      details: {
        noRequestId: [],
        noRateLimit: [],
        families: ['x-ratelimit', 'ratelimit-structured'],
      },
    });
  });

  it('without an answer of the API, it and the deprecations check skip', async () => {
    const checks = await checkTraffic(client, har(token));
    for (const id of ['headers', 'deprecations']) {
      expect(byId(checks, id)).toMatchObject({
        id,
        status: 'skip',
        summary: 'no answer of the API in the recording',
      });
    }
    expect(byId(checks, 'headers').details).toEqual({
      noRequestId: [],
      noRateLimit: [],
      families: [],
    });
    expect(byId(checks, 'deprecations').details).toEqual({ deprecated: [], notices: [] });
  });
});

describe('deprecations: each notice as the SDK reads it, dated by `now`', () => {
  const SUNSET = Date.parse('2027-01-01T00:00:00Z');
  const deprecated = (path: string, headers: Record<string, string>): Exchange => ({
    path,
    body: page([]),
    headers: { deprecation: '@1700000000', ...headers },
  });
  const sunsetUsers = deprecated('/v1/users', {
    sunset: new Date(SUNSET).toUTCString(),
    link: `<${BASE}/docs/users-v2>; rel="deprecation"`,
  });
  const teams = deprecated('/v1/teams', {});

  it('none announced: ok', async () => {
    expect(await check('deprecations', users)).toMatchObject({
      id: 'deprecations',
      status: 'ok',
      summary: 'no operation is announced as deprecated',
      details: { deprecated: [], notices: [] },
    });
  });

  it('a sunset ahead warns, dated, with each notice in the details and the pages named', async () => {
    const rewards = deprecated('/v1/rewards', {
      link: `<${BASE}/docs/rewards>; rel="deprecation"`,
    });
    const checks = await checkTraffic(client, har(sunsetUsers, teams, rewards), SUNSET - 1);
    expect(byId(checks, 'deprecations')).toEqual({
      id: 'deprecations',
      status: 'warn',
      summary:
        'users.list deprecated, sunset 2027-01-01T00:00:00.000Z; teams.list deprecated; rewards.list deprecated',
      fix: `Move off these operations before their sunset. The service’s pages: users.list ${BASE}/docs/users-v2, rewards.list ${BASE}/docs/rewards.`,
      assumption: expect.any(String),
      details: {
        deprecated: ['users.list', 'teams.list', 'rewards.list'],
        notices: [
          {
            operation: 'users.list',
            sunsetAt: '2027-01-01T00:00:00.000Z',
            link: `${BASE}/docs/users-v2`,
          },
          { operation: 'teams.list', sunsetAt: null, link: null },
          { operation: 'rewards.list', sunsetAt: null, link: `${BASE}/docs/rewards` },
        ],
      },
    });
  });

  it('a sunset that is now has passed: fail, and no pages to name without a link', async () => {
    const noLink = deprecated('/v1/users', { sunset: new Date(SUNSET).toUTCString() });
    const deprecations = byId(
      await checkTraffic(client, har(noLink, teams), SUNSET),
      'deprecations',
    );
    expect(deprecations).toMatchObject({
      status: 'fail',
      summary:
        'users.list deprecated, its sunset passed on 2027-01-01T00:00:00.000Z; teams.list deprecated',
      fix: 'The sunset has passed: these operations may stop answering at any time; move off them now.',
    });
  });
});

describe('privacy: what the recording’s redaction would remove', () => {
  const keyIn = (index: number): Exchange => ({
    ...users,
    requestHeaders: { authorization: `Bearer opaque-token-${index}` },
  });

  it('names up to three findings in the summary and a hundred in the details, counting all', async () => {
    const three = await check('privacy', ...[1, 2, 3].map(keyIn));
    expect(three.summary).toBe(
      "3 values the recording's redaction removes: entry 0 request.headers.authorization.value; entry 1 request.headers.authorization.value; entry 2 request.headers.authorization.value: do not share this file",
    );
    expect(three.fix).toBe(
      'Record again with the default redaction (createRecorder, the preload or --record), which removes credentials, secrets, names and emails.',
    );
    const many = await check('privacy', ...Array.from({ length: 101 }, (_, index) => keyIn(index)));
    expect(many.summary).toMatch(
      /^101 values .*entry 2 request\.headers\.authorization\.value; …: do not share this file$/,
    );
    expect(many.details.entriesWithSecrets).toBe(101);
    expect((many.details.findings as string[]).length).toBe(100);
    expect((many.details.findings as string[])[99]).toBe(
      'entry 99 request.headers.authorization.value',
    );
  });

  it('passes pseudonyms the recorder numbered otherwise, and a null or unnamed item of a tool’s own field', async () => {
    const renumbered = {
      ...users,
      body: page([{ ...USER, name: 'Person12 Person13', email: 'person12@redacted.invalid' }]),
      extra: { _meta: null, _tags: [null, 'smoke', 3] },
    };
    expect(await check('privacy', renumbered)).toEqual({
      id: 'privacy',
      status: 'ok',
      summary:
        'nothing the recording’s redaction would remove: no credential, secret, name or email',
      details: { findings: [], entriesWithSecrets: 0 },
    });
  });

  it('names an item of a list without names by its index', async () => {
    const recorded = har({ ...users, method: 'POST', path: '/v1/recognitions', status: 201 });
    recorded.log.entries[0]!.request.postData = {
      mimeType: 'application/json',
      text: '{}',
      _redacted: ['message', 'notes.ada@acme.example'],
    };
    expect(
      (await checkTraffic(client, recorded)).find(({ id }) => id === 'privacy')!.details,
    ).toEqual({
      findings: ['entry 0 request.postData._redacted[1]'],
      entriesWithSecrets: 1,
    });
  });

  it('an entry whose own field nests past what JSON.stringify can walk is named, not checked', async () => {
    let deep: unknown = {};
    for (let level = 0; level < 20_000; level++) deep = { deep };
    const privacy = await check('privacy', { ...users, extra: { _deep: deep } });
    expect(privacy.status).toBe('fail');
    expect(privacy.details.findings).toEqual(['entry 0 (nested deeper than 256: not checked)']);
  });
});
