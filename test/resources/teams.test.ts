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
const COLLECTION = `${TEST_BASE_URL}/v1/teams`;

describe('teams.list', () => {
  it('sends GET /v1/teams with the cursor as the query and resolves to the page', async () => {
    const body = pageBody([records.team({ description: null })], {
      page: 3,
      total_pages: 3,
      next_cursor: null,
    });
    server.use(http.get(COLLECTION, () => json(body)));

    const page = await client.teams.list({ cursor: 't3', limit: 100 });

    expect(page.toJSON()).toEqual(body);
    expect(requests).toMatchObject([{ method: 'GET', rawPath: '/v1/teams' }]);
    expect(queryOf(requests[0])).toEqual({ cursor: 't3', limit: '100' });
  });
});

describe('teams.get', () => {
  it('sends GET /v1/teams/{id} and resolves to { data: team }, keeping unknown fields', async () => {
    const team = records.team({ lead_id: UUID.alice });
    server.use(http.get(`${COLLECTION}/:id`, () => json({ data: team })));
    const result = await client.teams.get(UUID.team);
    expect(result).toEqual({ data: team });
    expect(requests).toMatchObject([{ method: 'GET', rawPath: `/v1/teams/${UUID.team}` }]);
  });

  it('rejects a fractional member_count with an InvalidResponseError naming it', async () => {
    server.use(
      http.get(`${COLLECTION}/:id`, () => json({ data: records.team({ member_count: 2.5 }) })),
    );
    const error = await client.teams.get(UUID.team).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).issues).toEqual([
      { path: 'data.member_count', message: 'must be an integer' },
    ]);
  });
});
