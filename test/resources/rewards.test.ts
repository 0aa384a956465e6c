import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { InvalidResponseError } from '../../src/index.js';
import {
  json,
  pageBody,
  queryOf,
  records,
  TEST_BASE_URL,
  testClient,
  UUID,
  useMockServer,
} from './support.js';

const { server, requests } = useMockServer();
const client = testClient();
const COLLECTION = `${TEST_BASE_URL}/v1/rewards`;

describe('rewards.list', () => {
  it('sends GET /v1/rewards with the paging as the query and resolves to the first page', async () => {
    const body = pageBody([records.reward()], { page: 1, total_pages: 4, next_cursor: 'r2' });
    server.use(http.get(COLLECTION, () => json(body)));

    const page = await client.rewards.list({ limit: 1 });

    expect(page.toJSON()).toEqual(body);
    expect(requests).toMatchObject([{ method: 'GET', rawPath: '/v1/rewards' }]);
    expect(queryOf(requests[0])).toEqual({ limit: '1' });
  });

  it('rejects a list item of the wrong shape with an InvalidResponseError naming its index', async () => {
    const body = pageBody([records.reward(), records.reward({ available: 'yes' })], {
      page: 1,
      total_pages: 1,
    });
    server.use(http.get(COLLECTION, () => json(body)));
    const error = await client.rewards.list().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).issues).toEqual([
      { path: 'data.1.available', message: 'must be a boolean' },
    ]);
  });

  it('rejects a page without pagination with an InvalidResponseError naming it', async () => {
    server.use(http.get(COLLECTION, () => json({ data: [records.reward()] })));
    const error = await client.rewards.list().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toContain('pagination is required');
  });
});

describe('rewards.get', () => {
  it('sends GET /v1/rewards/{id} and resolves to { data: reward }, keeping unknown fields', async () => {
    const reward = records.reward({ description: 'A day to yourself', stock: 3 });
    server.use(http.get(`${COLLECTION}/:id`, () => json({ data: reward })));
    const result = await client.rewards.get(UUID.record);
    expect(result).toEqual({ data: reward });
    expect(requests).toMatchObject([{ method: 'GET', rawPath: `/v1/rewards/${UUID.record}` }]);
  });
});
