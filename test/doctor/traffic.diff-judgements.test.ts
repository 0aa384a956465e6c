/**
 * How diffTraffic judges each kind of change between two recordings: which answers make an
 * operation's shape (every one of them, a 2xx apart from each error status, a redirect or a cut
 * body apart from both), which field changes are drift and which notes (with the reason given),
 * and which header changes matter to the SDK.
 */
import { describe, expect, it } from 'vitest';
import { diffTraffic } from '../../src/doctor/traffic.js';
import { BASE, client, type Exchange, har, page, RECOGNITION, USER } from './har.js';

const users = (...records: unknown[]): Exchange => ({ path: '/v1/users', body: page(records) });
const user = (record: unknown): Exchange => ({
  path: `/v1/users/${USER.id}`,
  body: { data: record },
});
const recognitions = (...records: unknown[]): Exchange => ({
  path: '/v1/recognitions',
  body: page(records),
});
const notFound = (body: unknown, headers: Record<string, string> = {}): Exchange => ({
  path: '/v1/users/00000000-0000-4000-8000-000000000000',
  status: 404,
  body,
  headers,
});
const CONTRACT_404 = { error: { code: 'not_found', message: 'No such user', details: 'none' } };
const PROBLEM_404 = { type: 'about:blank', title: 'Not Found', status: 404, detail: 'No user' };
const PROBLEM = { 'content-type': 'application/problem+json' };

const diff = (before: Exchange[], after: Exchange[]) =>
  diffTraffic(client, har(...before), har(...after));
const listed = (changes: { kind: string; path: string; detail?: string; note?: string }[]) =>
  changes.map(({ kind, path, detail, note }) =>
    [kind, path, detail, note].filter((each) => each !== undefined).join(' | '),
  );

describe('diffTraffic: the answers that make a shape', () => {
  it('takes every answer of an operation: a value new in its second answer is seen', async () => {
    const result = await diff(
      [users({ ...USER, role: 'admin' })],
      [users({ ...USER, role: 'owner' }), users({ ...USER, role: 'admin' })],
    );
    expect(listed(result.differences)).toEqual(['enum value | data[].role | owner']);
  });

  it('reads an enumeration of a single record as of a list', async () => {
    const result = await diff([user(USER)], [user({ ...USER, role: 'owner' })]);
    expect(listed(result.differences)).toEqual(['enum value | data.role | owner']);
  });

  it('a null at an enumeration field is a change of type, not a value', async () => {
    const result = await diff([users(USER)], [users({ ...USER, role: null })]);
    expect(listed(result.differences)).toEqual(['nullable | data[].role | string → null']);
    expect(result.notes).toEqual([]);
  });

  it('a redirect answers nothing of the operation: the operation is missing, not changed', async () => {
    const moved: Exchange = {
      path: '/v1/users',
      status: 300,
      body: { choices: [] },
      headers: { location: `${BASE}/v2/users` },
    };
    const result = await diff([users(USER), user(USER)], [moved, user(USER)]);
    expect(result.coverage).toEqual({ missing: ['users.list'], added: [] });
    expect(result.differences).toEqual([]);
  });

  it('counts an operation new to the second recording, not a new error status', async () => {
    const result = await diff(
      [users(USER)],
      [users(USER), recognitions(RECOGNITION), notFound(CONTRACT_404)],
    );
    expect(result.coverage).toEqual({ missing: [], added: ['recognitions.list'] });
    expect(result.same).toBe(true);
  });

  it('a body cut at the size cap is left out of the judgement: the others’ notes stay notes', async () => {
    const cut: Exchange = {
      ...users(USER),
      body: '{"data":[{"id":',
      comment: 'truncated: 14 of 900 bytes kept',
    };
    const result = await diff([users(USER)], [users({ ...USER, team_id: null }), cut]);
    expect(result.same).toBe(true);
    expect(listed(result.notes)).toEqual([
      'nullable | data[].team_id | string → null | the SDK’s schema allows null here',
    ]);
  });

  it('a change is drift, not a note, once the SDK’s call fails on the new answers', async () => {
    const failing = {
      ...users({ ...USER, team_id: null }),
      body: { data: [{ ...USER, team_id: null }] },
    };
    const result = await diff([users(USER)], [failing]);
    expect(listed(result.differences)).toContain('nullable | data[].team_id | string → null');
  });
});

describe('diffTraffic: fields', () => {
  it('a nested object gone is reported once, at its top', async () => {
    const { sender: _sender, ...withoutSender } = RECOGNITION;
    const result = await diff([recognitions(RECOGNITION)], [recognitions(withoutSender)]);
    expect(listed(result.differences)).toEqual(['removed | data[].sender | object']);
  });

  it('a list emptied is a note: nothing to compare', async () => {
    const result = await diff([users(USER)], [users()]);
    expect(result.differences).toEqual([]);
    expect(listed(result.notes)).toEqual([
      'removed | data[] | object | the list is empty in the new recording: nothing to compare',
    ]);
  });

  it('a field the SDK does not need gone, or retyped, is a note saying so', async () => {
    const result = await diff(
      [users({ ...USER, pronouns: 'they', tags: [] })],
      [users({ ...USER, tags: 'a' })],
    );
    expect(result.differences).toEqual([]);
    expect(listed(result.notes)).toEqual([
      'removed | data[].pronouns | string | the SDK does not need it: its schema has it optional or undeclared',
      'retyped | data[].tags | array → string | a field the SDK does not declare',
    ]);
  });

  it('a field with two new types, one of them null, is retyped, not nullable', async () => {
    const result = await diff(
      [users(USER)],
      [users({ ...USER, points_balance: null }, { ...USER, points_balance: '40' })],
    );
    expect(listed(result.differences)).toEqual([
      'retyped | data[].points_balance | number → null or string',
    ]);
  });

  it('a new object is one added field, its own fields not listed; a new top-level field too', async () => {
    const result = await diff(
      [users(USER)],
      [
        {
          path: '/v1/users',
          body: { ...page([{ ...USER, team: { id: 't', name: 'n' } }]), meta: 1 },
        },
      ],
    );
    expect(result.same).toBe(true);
    expect(listed(result.notes)).toEqual([
      'added | data[].team | object | a field the SDK reads past (it keeps it on the record)',
      'added | meta | number | a field the SDK reads past (it keeps it on the record)',
    ]);
  });

  it('a list answered as a bare array: its fields gone, the root not compared', async () => {
    const result = await diff([users(USER)], [{ path: '/v1/users', body: [USER] }]);
    expect(result.differences.map(({ kind, path }) => `${kind} ${path}`)).toEqual([
      'removed data',
      'removed pagination',
    ]);
  });
});

describe('diffTraffic: error bodies', () => {
  it('a field of an error body gone is a note while the SDK reads the new body, naming its forms', async () => {
    const result = await diff(
      [notFound(CONTRACT_404)],
      [notFound({ error: { code: 'not_found', message: 'x' } }), notFound(PROBLEM_404, PROBLEM)],
    );
    expect(result.differences).toEqual([]);
    expect(listed(result.notes)).toContainEqual(
      'removed | error.details | string | an error body in contract and problem+json form, which the SDK reads',
    );
  });

  it('a 400 is an error answer too', async () => {
    const badRequest = (body: unknown, headers: Record<string, string> = {}): Exchange => ({
      path: '/v1/users?limit=1',
      status: 400,
      body,
      headers,
    });
    const result = await diff(
      [badRequest({ error: { code: 'invalid_request', message: 'limit' } })],
      [badRequest({ ...PROBLEM_404, status: 400, title: 'Bad Request' }, PROBLEM)],
    );
    expect(result.same).toBe(true);
    expect(listed(result.notes)).toContain(
      'removed | error | object | an error body in problem+json form, which the SDK reads',
    );
  });

  it('an error body the SDK reads only as text, or one cut at the size cap, is drift', async () => {
    const html = notFound('<html>Not found</html>', { 'content-type': 'text/html' });
    const cut = { ...notFound('{"error":{'), comment: 'truncated: 10 of 90 bytes kept' };
    for (const after of [html, cut]) {
      const result = await diff([notFound(CONTRACT_404)], [after]);
      expect(listed(result.differences)).toContain('removed | error | object');
      expect(result.notes).toEqual([]);
    }
  });
});

describe('diffTraffic: headers', () => {
  const withHeaders = (headers: Record<string, string | undefined>, ...exchanges: Exchange[]) =>
    exchanges.map((each) => ({ ...each, headers: { ...each.headers, ...headers } }));

  it('the transport’s headers are no change', async () => {
    const transport = {
      connection: 'keep-alive',
      'keep-alive': 'timeout=5',
      'transfer-encoding': 'chunked',
      'content-length': '10',
      'content-encoding': 'gzip',
      date: 'Sat, 21 Nov 2026 09:30:00 GMT',
    };
    const result = await diff([users(USER)], withHeaders(transport, users(USER)));
    expect(result.headers).toEqual([]);
  });

  it('names the family of each header the SDK reads, and of no other', async () => {
    const added = {
      'retry-after': '1',
      'x-retry-after': '1',
      'retry-after-ms': '1',
      'legacy-ratelimit': '5',
      link: `<${BASE}/v1/users?cursor=c>; rel="next"`,
      'x-link': 'x',
      sunset: 'Wed, 01 Jan 2031 00:00:00 GMT',
    };
    const result = await diff([users(USER)], withHeaders(added, users(USER)));
    expect(
      result.headers.map(({ header, family, drift }) => [header, family ?? null, drift]),
    ).toEqual([
      ['legacy-ratelimit', null, false],
      ['link', 'paging', false],
      ['retry-after', 'rate-limit', false],
      ['retry-after-ms', null, false],
      ['sunset', 'deprecation', true],
      ['x-link', null, false],
      ['x-retry-after', null, false],
    ]);
  });

  it('a request id gone and a deprecation announced are drift; a deprecation withdrawn is not', async () => {
    const deprecated = withHeaders({ deprecation: '@1700000000' }, users(USER), user(USER));
    const result = await diff(
      deprecated,
      withHeaders({ 'x-request-id': undefined }, users(USER), user(USER)),
    );
    expect(result.same).toBe(false);
    expect(listed(result.differences)).toEqual([
      'header removed | x-request-id',
      'header removed | x-request-id',
    ]);
    expect(result.differences.map(({ operation }) => operation)).toEqual([
      'users.list',
      'users.get',
    ]);
    expect(result.headers.map(({ header, kind, drift }) => `${kind} ${header} ${drift}`)).toEqual([
      'header removed deprecation false',
      'header removed x-request-id true',
    ]);
    const announced = await diff(
      [users(USER)],
      withHeaders({ deprecation: '@1700000000' }, users(USER)),
    );
    expect(listed(announced.differences)).toEqual(['header added | deprecation']);
    const requestIdAdded = await diff(withHeaders({ 'x-request-id': undefined }, users(USER)), [
      users(USER),
    ]);
    expect(requestIdAdded.same).toBe(true);
  });

  it('a rate-limit header change is drift where the new window is not read, on any operation', async () => {
    const old = [users(USER), user(USER)];
    const noWindow = {
      'x-ratelimit-limit': undefined,
      'x-ratelimit-remaining': undefined,
      'x-ratelimit-reset': undefined,
    };
    // users.list's new window is read; users.get's is not (no policy beside it).
    const read = {
      ...noWindow,
      ratelimit: '"default";r=99;t=60',
      'ratelimit-policy': '"default";q=100;w=60',
    };
    const unread = { ...noWindow, ratelimit: 'nonsense', 'x-trace': 't' };
    const result = await diff(old, [
      ...withHeaders(read, users(USER)),
      ...withHeaders(unread, user(USER)),
    ]);
    const ratelimit = result.headers.find(({ header }) => header === 'ratelimit')!;
    expect(ratelimit).toEqual({
      header: 'ratelimit',
      kind: 'header added',
      operations: ['users.list', 'users.get'],
      family: 'rate-limit',
      drift: true,
    });
    expect(result.headers.find(({ header }) => header === 'x-trace')).toMatchObject({
      drift: false,
    });
    expect(result.differences).toContainEqual({
      operation: 'users.list',
      kind: 'header added',
      path: 'ratelimit',
    });
    expect(result.differences.some(({ path }) => path === 'x-trace')).toBe(false);
  });

  it('rate-limit headers gone with no window left, or beside a header merely named like one, are no drift', async () => {
    const gone = {
      'x-ratelimit-limit': undefined,
      'x-ratelimit-remaining': undefined,
      'x-ratelimit-reset': undefined,
      'legacy-ratelimit': '5',
    };
    const result = await diff([users(USER)], withHeaders(gone, users(USER)));
    expect(result.same).toBe(true);
    expect(result.headers.filter(({ drift }) => drift)).toEqual([]);
  });
});
