import { createMockApi } from '@employee-recognition/sdk/testing';
import { describe, expect, it } from 'vitest';
import { FACTORIES } from '../../src/testing/fixtures.js';
import { compilePath, ROUTES } from '../../src/testing/routes.js';
import { call } from './support.js';

const api = createMockApi({ now: () => Date.parse('2026-11-21T12:00:00Z') });

describe.each([
  ['users', 'user', api.store.users],
  ['rewards', 'reward', api.store.rewards],
  ['teams', 'team', api.store.teams],
] as const)('/v1/%s', (path, label, collection) => {
  it('lists oldest first as a page of records', async () => {
    const reply = await call(api, 'GET', `/v1/${path}?limit=100`);
    expect(reply.status).toBe(200);
    const expected = [...collection.all()].sort((a, b) => a.created_at.localeCompare(b.created_at));
    expect(reply.body).toEqual({
      data: expected,
      pagination: { page: 1, total_pages: 1, next_cursor: null },
    });
  });

  it('gets one record as { data }', async () => {
    const record = collection.all()[1]!;
    const reply = await call(api, 'GET', `/v1/${path}/${record.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ data: record });
  });

  it('404 not_found for an unknown id', async () => {
    const reply = await call(api, 'GET', `/v1/${path}/00000000-0000-4000-8000-000000000000`);
    expect(reply.status).toBe(404);
    expect(reply.body.error.code).toBe('not_found');
    expect(reply.body.error.message).toContain(label);
  });

  it('accepts an upper-case id', async () => {
    const record = collection.all()[0]!;
    const reply = await call(api, 'GET', `/v1/${path}/${record.id.toUpperCase()}`);
    expect(reply.body).toEqual({ data: record });
  });
});

describe('/v1/budgets', () => {
  it('lists every budget, not paginated', async () => {
    const reply = await call(api, 'GET', '/v1/budgets?page=2&limit=1');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ data: api.store.budgets.all() });
    expect(reply.body.data[0]).toEqual({
      id: expect.any(String),
      team_id: expect.any(String),
      period: 'monthly',
      total_points: expect.any(Number),
      used_points: expect.any(Number),
      remaining_points: expect.any(Number),
      starts_at: '2026-11-01T00:00:00Z',
      ends_at: '2026-11-30T23:59:59Z',
    });
    expect(reply.body.data.at(-1)).toMatchObject({
      team_id: null,
      period: 'annual',
      starts_at: '2026-01-01T00:00:00Z',
      ends_at: '2026-12-31T23:59:59Z',
    });
  });

  it('gets one budget, or 404', async () => {
    const budget = api.store.budgets.all()[0]!;
    expect((await call(api, 'GET', `/v1/budgets/${budget.id}`)).body).toEqual({ data: budget });
    const missing = await call(api, 'GET', '/v1/budgets/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
  });
});

describe('routing', () => {
  it('404 not_found for unknown routes, methods a route does not take and a trailing /', async () => {
    const api = createMockApi();
    for (const [method, path] of [
      ['GET', '/v1/nothing'],
      ['PUT', '/v1/recognitions'],
      ['POST', '/v1/users'],
      ['GET', '/v1/recognitions/a/b'],
      ['GET', '/v2/recognitions'],
      ['GET', '/v1/recognitions/'],
      ['GET', '/openapi.json/'],
    ]) {
      const reply = await call(api, method!, path!);
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({
        error: { code: 'not_found', message: expect.stringContaining(path!) },
      });
    }
  });

  it('takes the id from its path segment, percent-decoded, and 404s a malformed escape', async () => {
    const api = createMockApi();
    const user = api.store.users.all()[2]!;
    const encoded = await call(api, 'GET', `/v1/users/${user.id.replace('-', '%2D')}`);
    expect(encoded.body).toEqual({ data: user });
    const malformed = await call(api, 'GET', '/v1/users/%E0%A4%A');
    expect(malformed.status).toBe(404);
    expect(malformed.body.error.code).toBe('not_found');
  });

  it('routes every GET of the table, below a base URL with a path', async () => {
    const api = createMockApi({ baseUrl: 'https://mock.example/api' });
    api.store.webhooks.insert();
    const kinds = Object.keys(FACTORIES) as (keyof typeof FACTORIES)[];
    const ids = new Map(kinds.map((kind) => [kind as string, api.store[kind].all()[0]!.id]));
    for (const route of ROUTES.filter((each) => each.method === 'GET')) {
      const path = route.path.replace(':id', ids.get(route.path.split('/')[2]!) ?? '');
      const response = await api.fetch(`https://mock.example/api${path}`, {
        headers: { authorization: `Bearer ${api.testKey}` },
      });
      expect(response.status, path).toBe(200);
    }
  });
});

describe('compilePath', () => {
  it('reads :name as one whole segment, percent-decoded', () => {
    const match = compilePath('/v1/teams/:id/members/:userId');
    expect(match('/v1/teams/t1/members/u%2F2')).toEqual({ id: 't1', userId: 'u/2' });
    expect(match('/v1/teams/t1/members')).toBeUndefined();
    expect(match('/v1/teams//members/u2')).toBeUndefined();
    expect(match('/v1/teams/t1/x/members/u2')).toBeUndefined();
  });

  it('reads * as any rest, slashes included, and matches letters in any case', () => {
    const match = compilePath('/v1/*');
    for (const path of ['/v1/', '/v1/teams', '/V1/Teams/a/b'])
      expect(match(path), path).toEqual({});
    expect(match('/v2/teams')).toBeUndefined();
    expect(compilePath('/v1/rec*')('/v1/recognitions/1')).toEqual({});
  });

  it('takes a trailing / on either side, and matches literal text literally', () => {
    expect(compilePath('/v1/teams/')('/v1/teams')).toEqual({});
    expect(compilePath('/v1/teams')('/v1/teams/')).toEqual({});
    expect(compilePath('/v1/a.b')('/v1/aXb')).toBeUndefined();
    expect(compilePath('/v1/(x)+')('/v1/(x)+')).toEqual({});
  });

  it('gives no match for a malformed %-escape in a parameter', () => {
    expect(compilePath('/v1/users/:id')('/v1/users/%E0%A4%A')).toBeUndefined();
  });

  it.each([
    ['v1/teams', 'must start with /'],
    ['/v1/:', 'a parameter is a whole segment'],
    ['/v1/a:id', 'a parameter is a whole segment'],
    ['/v1/teams?limit=1', 'no query'],
    ['/v1/:id/x/:id', ':id appears twice'],
  ])('throws a TypeError for %s', (pattern, why) => {
    expect(() => compilePath(pattern)).toThrow(TypeError);
    expect(() => compilePath(pattern)).toThrow(why);
  });
});
