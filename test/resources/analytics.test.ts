import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { InvalidResponseError } from '../../src/index.js';
import {
  expectLocalBadRequest,
  json,
  queryOf,
  records,
  TEST_BASE_URL,
  testClient,
  useMockServer,
} from './support.js';

const { server, requests } = useMockServer();
const client = testClient();
const SUMMARY = `${TEST_BASE_URL}/v1/analytics/summary`;

describe('analytics.summary', () => {
  it('sends GET /v1/analytics/summary?period=30d by default and resolves to { data: summary }', async () => {
    server.use(http.get(SUMMARY, () => json({ data: records.summary() })));
    const result = await client.analytics.summary();
    expect(result).toEqual({ data: records.summary() });
    expect(requests).toMatchObject([{ method: 'GET', rawPath: '/v1/analytics/summary' }]);
    expect(queryOf(requests[0])).toEqual({ period: '30d' });
  });

  it.each(['1d', '7d', '365d'])('sends period=%s as given', async (period) => {
    server.use(http.get(SUMMARY, () => json({ data: records.summary({ period }) })));
    const result = await client.analytics.summary(period);
    expect(result.data.period).toBe(period);
    expect(queryOf(requests[0])).toEqual({ period });
  });

  it('takes a null period as absent: 30d', async () => {
    server.use(http.get(SUMMARY, () => json({ data: records.summary() })));
    await client.analytics.summary(null);
    expect(queryOf(requests[0])).toEqual({ period: '30d' });
  });

  it('keeps summary fields added after this SDK', async () => {
    const summary = records.summary({ top_team_id: null, median_points: 15 });
    server.use(http.get(SUMMARY, () => json({ data: summary })));
    await expect(client.analytics.summary()).resolves.toEqual({ data: summary });
  });

  it('rejects a participation_rate that is not a number with an InvalidResponseError', async () => {
    server.use(
      http.get(SUMMARY, () => json({ data: records.summary({ participation_rate: '63%' }) })),
    );
    const error = await client.analytics.summary().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).issues).toEqual([
      { path: 'data.participation_rate', message: 'must be a number' },
    ]);
  });

  it.each<[string, unknown]>([
    ['0d', '0d'],
    ['366d', '366d'],
    ['a number without d', '30'],
    ['an upper-case D', '30D'],
    ['a leading zero', '030d'],
    ['a fraction', '1.5d'],
    ['weeks', '4w'],
    ['an empty string', ''],
    ['a number', 30],
  ])(
    'rejects %s as period locally as the 400 the service would answer, sending nothing',
    async (_case, period) => {
      const error = await expectLocalBadRequest(client.analytics.summary(period as string), [
        'period',
      ]);
      expect(error.message).toMatch(/^period: must be/);
      expect(requests).toHaveLength(0);
    },
  );
});
