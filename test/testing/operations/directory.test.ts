import { createMockApi } from '@employee-recognition/sdk/testing';
import { describe, expect, it } from 'vitest';
import { call } from '../support.js';

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
