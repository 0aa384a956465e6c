import { createMockApi, type MockApi } from '@employee-recognition/sdk/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, createClock } from './support.js';

let api: MockApi;
let clock: ReturnType<typeof createClock>;

beforeEach(() => {
  clock = createClock();
  api = createMockApi({ now: clock.read, recognitions: 45 });
});

const ids = (reply: { body: { data: { id: string }[] } }) =>
  reply.body.data.map((record) => record.id);

describe('page mode', () => {
  it('pages by number up to total_pages, with no cursor', async () => {
    const pages = [];
    for (let page = 1; page <= 3; page++) {
      const reply = await call(api, 'GET', `/v1/recognitions?page=${page}&limit=20`);
      expect(reply.body.pagination).toEqual({ page, total_pages: 3, next_cursor: null });
      pages.push(...ids(reply));
    }
    expect(pages).toHaveLength(45);
    expect(new Set(pages).size).toBe(45);
  });

  it('gives an empty page beyond the last', async () => {
    const reply = await call(api, 'GET', '/v1/recognitions?page=4&limit=20');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      data: [],
      pagination: { page: 4, total_pages: 3, next_cursor: null },
    });
  });

  it('reports total_pages 0 for an empty list', async () => {
    api.store.recognitions.clear();
    for (const query of ['page=1', '']) {
      const reply = await call(api, 'GET', `/v1/recognitions?${query}`);
      expect(reply.body).toEqual({
        data: [],
        pagination: { page: 1, total_pages: 0, next_cursor: null },
      });
    }
  });

  it('shifts under inserts, as page numbers do', async () => {
    const before = ids(await call(api, 'GET', '/v1/recognitions?page=2&limit=10'));
    api.store.recognitions.insert({ created_at: new Date(clock.now).toISOString() });
    const after = ids(await call(api, 'GET', '/v1/recognitions?page=2&limit=10'));
    expect(after.slice(1)).toEqual(before.slice(0, 9));
  });
});

describe('cursor mode', () => {
  const walk = async (path: string, limit: number, between?: (page: number) => void) => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let page = 0;
    do {
      const query: string = cursor ? `&cursor=${cursor}` : '';
      const reply = await call(api, 'GET', `${path}?limit=${limit}${query}`);
      expect(reply.status).toBe(200);
      page++;
      expect(reply.body.pagination.page).toBe(page);
      seen.push(...ids(reply));
      cursor = reply.body.pagination.next_cursor;
      between?.(page);
    } while (cursor !== null);
    return seen;
  };

  it('starts on a first request without page and ends with next_cursor null', async () => {
    const first = await call(api, 'GET', '/v1/recognitions?limit=20');
    expect(first.body.pagination).toEqual({
      page: 1,
      total_pages: 3,
      next_cursor: expect.any(String),
    });
    const all = await walk('/v1/recognitions', 20);
    expect(all).toHaveLength(45);
    expect(new Set(all).size).toBe(45);
  });

  it('is stable under inserts: no record is skipped or repeated', async () => {
    const expected = ids(await call(api, 'GET', '/v1/recognitions?limit=100'));
    const seen = await walk('/v1/recognitions', 7, () => {
      clock.advance(1000);
      api.store.recognitions.insert({ created_at: new Date(clock.now).toISOString() });
    });
    expect(seen).toEqual(expected);
  });

  it('survives the deletion of the record it points after', async () => {
    const first = await call(api, 'GET', '/v1/recognitions?limit=5');
    const rest = ids(await call(api, 'GET', '/v1/recognitions?limit=100')).slice(5, 10);
    api.store.recognitions.delete(first.body.data[4].id);
    const next = await call(
      api,
      'GET',
      `/v1/recognitions?limit=5&cursor=${first.body.pagination.next_cursor}`,
    );
    expect(ids(next)).toEqual(rest);
  });

  it('pages users, rewards and teams oldest first, new records last', async () => {
    const users = api.store.users.all().sort((a, b) => a.created_at.localeCompare(b.created_at));
    const seen = await walk('/v1/users', 15, (page) => {
      if (page === 1) api.store.users.insert({ name: 'New Hire' });
    });
    expect(seen.slice(0, 40)).toEqual(users.map((user) => user.id));
    expect(seen).toHaveLength(41);
    expect(await walk('/v1/rewards', 3)).toHaveLength(10);
    expect((await walk('/v1/teams', 1)).length).toBe(api.store.teams.size);
  });
});

describe('bad paging', () => {
  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=1.5', 'page'],
    ['page=two', 'page'],
    ['page=', 'page'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['limit=2.5', 'limit'],
    ['cursor=garbage', 'cursor'],
    ['cursor=WzEsMiwzXQ', 'cursor'],
    ['cursor=WzEsMl0&page=2', 'page'],
  ])('400 invalid_request for %s naming %s', async (query, field) => {
    for (const path of ['/v1/recognitions', '/v1/users', '/v1/rewards', '/v1/teams']) {
      const reply = await call(api, 'GET', `${path}?${query}`);
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('invalid_request');
      expect(reply.body.error.details).toEqual([{ field, message: expect.any(String) }]);
    }
  });

  it('accepts the bounds 1 and 100', async () => {
    expect((await call(api, 'GET', '/v1/recognitions?limit=1')).body.data).toHaveLength(1);
    expect((await call(api, 'GET', '/v1/recognitions?limit=100')).body.data).toHaveLength(45);
  });
});
