import { createMockApi } from '@employee-recognition/sdk/testing';
import { describe, expect, it } from 'vitest';
import { call } from '../support.js';

describe('/v1/budgets', () => {
  const api = createMockApi();

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

  it('computes the quarter of a quarterly budget inserted into the store', () => {
    const budget = createMockApi({
      now: () => Date.parse('2026-05-10T00:00:00Z'),
    }).store.budgets.insert({
      period: 'quarterly',
    });
    expect(budget).toMatchObject({
      starts_at: '2026-04-01T00:00:00Z',
      ends_at: '2026-06-30T23:59:59Z',
    });
  });
});
