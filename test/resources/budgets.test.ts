import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { InvalidResponseError } from '../../src/index.js';
import {
  json,
  records,
  TEST_BASE_URL,
  testClient,
  UUID,
  useMockServer,
  warnLogger,
} from './support.js';

const { server, requests } = useMockServer();
const client = testClient();
const COLLECTION = `${TEST_BASE_URL}/v1/budgets`;

describe('budgets.list', () => {
  it('sends GET /v1/budgets without paging and resolves to { data: budgets }', async () => {
    const data = [records.budget(), records.budget({ team_id: UUID.team, period: 'quarterly' })];
    server.use(http.get(COLLECTION, () => json({ data })));
    const result = await client.budgets.list();
    expect(result).toEqual({ data });
    expect(requests).toMatchObject([{ method: 'GET', rawPath: '/v1/budgets' }]);
    expect(requests[0]?.url.search).toBe('');
  });

  it('keeps period values added after this SDK, and unknown fields', async () => {
    const { logger, warnings } = warnLogger();
    const budget = records.budget({ period: 'weekly', currency: 'points' });
    server.use(http.get(COLLECTION, () => json({ data: [budget] })));
    const result = await testClient({ logger }).budgets.list();
    expect(result.data).toEqual([budget]);
    expect(warnings).toEqual([
      expect.stringContaining('GET /v1/budgets: data.0.period is "weekly"'),
    ]);
  });

  it('rejects a paginated-looking answer without data as an InvalidResponseError', async () => {
    server.use(http.get(COLLECTION, () => json({ budgets: [records.budget()] })));
    const error = await client.budgets.list().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).issues).toEqual([
      { path: 'data', message: 'is required' },
    ]);
  });
});

describe('budgets.get', () => {
  it('sends GET /v1/budgets/{id} and resolves to { data: budget }', async () => {
    server.use(http.get(`${COLLECTION}/:id`, () => json({ data: records.budget() })));
    const result = await client.budgets.get(UUID.record);
    expect(result).toEqual({ data: records.budget() });
    expect(requests).toMatchObject([{ method: 'GET', rawPath: `/v1/budgets/${UUID.record}` }]);
  });

  it('rejects used_points sent as a string with an InvalidResponseError naming it', async () => {
    server.use(
      http.get(`${COLLECTION}/:id`, () => json({ data: records.budget({ used_points: '250' }) })),
    );
    const error = await client.budgets.get(UUID.record).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toContain('data.used_points must be a number');
  });
});
