import { createMockApi } from '@employee-recognition/sdk/testing';
import { describe, expect, it } from 'vitest';
import { call } from '../support.js';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const DAY = 86_400_000;

describe('GET /v1/analytics/summary', () => {
  const api = createMockApi({ now: () => NOW });

  const expected = (days: number) => {
    const recognitions = api.store.recognitions
      .all()
      .filter(
        (r) => Date.parse(r.created_at) > NOW - days * DAY && Date.parse(r.created_at) <= NOW,
      );
    const active = api.store.users.all().filter((user) => user.status === 'active');
    const senders = new Set(recognitions.map((r) => r.sender.id));
    return {
      total_recognitions: recognitions.length,
      total_points: recognitions.reduce((sum, r) => sum + r.points, 0),
      participation_rate:
        Math.round((active.filter((user) => senders.has(user.id)).length / active.length) * 1000) /
        10,
    };
  };

  it('summarises the last 30 days by default', async () => {
    const reply = await call(api, 'GET', '/v1/analytics/summary');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ data: { period: '30d', ...expected(30) } });
    expect(reply.body.data.total_recognitions).toBeGreaterThan(0);
    expect(reply.body.data.participation_rate).toBeGreaterThan(0);
    expect(reply.body.data.participation_rate).toBeLessThanOrEqual(100);
  });

  it.each([1, 7, 90, 365])('summarises %i days', async (days) => {
    const reply = await call(api, 'GET', `/v1/analytics/summary?period=${days}d`);
    expect(reply.body).toEqual({ data: { period: `${days}d`, ...expected(days) } });
  });

  it.each(['0d', '366d', '30', 'd', '1w', '-5d', '030d', '1.5d', ''])(
    '400 invalid_request naming period for %j',
    async (period) => {
      const reply = await call(api, 'GET', `/v1/analytics/summary?period=${period}`);
      expect(reply.status).toBe(400);
      expect(reply.body.error).toEqual({
        code: 'invalid_request',
        message: expect.any(String),
        details: [{ field: 'period', message: expect.stringContaining('1 to 365') }],
      });
    },
  );

  it('counts a recognition created now', async () => {
    const before = (await call(api, 'GET', '/v1/analytics/summary?period=1d')).body.data;
    const recipient = api.store.users.all()[1]!;
    await call(api, 'POST', '/v1/recognitions', {
      body: { recipient_id: recipient.id, message: 'Hi', points: 7 },
    });
    const after = (await call(api, 'GET', '/v1/analytics/summary?period=1d')).body.data;
    expect(after.total_recognitions).toBe(before.total_recognitions + 1);
    expect(after.total_points).toBe(before.total_points + 7);
  });
});
