import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { InvalidResponseError, type UserListParams } from '../../src/index.js';
import {
  expectLocalBadRequest,
  json,
  pageBody,
  queryOf,
  records,
  TEST_BASE_URL,
  testClient,
  UUID,
  useMockServer,
  warnLogger,
} from './support.js';

const { server, requests } = useMockServer();
const client = testClient();
const COLLECTION = `${TEST_BASE_URL}/v1/users`;

describe('users.list', () => {
  it('sends GET /v1/users with the paging as the query and resolves to the first page', async () => {
    const body = pageBody([records.user(), records.user({ id: UUID.bob, name: 'Bob' })], {
      page: 2,
      total_pages: 2,
      next_cursor: null,
    });
    server.use(http.get(COLLECTION, () => json(body)));

    const page = await client.users.list({ page: 2, limit: 2 });

    expect(page.toJSON()).toEqual(body);
    expect(requests).toMatchObject([{ method: 'GET', rawPath: '/v1/users' }]);
    expect(queryOf(requests[0])).toEqual({ page: '2', limit: '2' });
  });

  it('keeps role and status values added after this SDK, and unknown fields, noting each new value once', async () => {
    const { logger, warnings } = warnLogger();
    const noting = testClient({ logger });
    const user = records.user({ role: 'auditor', status: 'invited', pronouns: 'she/her' });
    const body = pageBody([user, user], { page: 1, total_pages: 1 });
    server.use(http.get(COLLECTION, () => json(body)));

    const page = await noting.users.list();

    expect(page.data).toEqual([user, user]);
    expect(warnings).toEqual([
      expect.stringContaining(
        'GET /v1/users: data.0.role is "auditor", a value this SDK does not know (it knows admin, manager, member); enumerations may gain values (contract §3). The record is returned as received.',
      ),
      expect.stringContaining('GET /v1/users: data.0.status is "invited"'),
    ]);
  });

  it('takes null params, and null paging fields, as absent', async () => {
    server.use(http.get(COLLECTION, () => json(pageBody([], { page: 1, total_pages: 0 }))));
    await client.users.list(null);
    await client.users.list({ page: null, limit: 10, cursor: null } as never);
    expect(requests.map((request) => request.url.search)).toEqual(['', '?limit=10']);
  });

  it.each<[string, unknown, string[]]>([
    ['limit 101', { limit: 101 }, ['limit']],
    ['page 0', { page: 0 }, ['page']],
    ['a filter users do not have', { sender_id: UUID.alice }, ['sender_id']],
    ['a misspelled parameter', { per_page: 10 }, ['per_page']],
    ['an array for params', [10], ['(root)']],
    ['a number for params', 10, ['(root)']],
  ])(
    'rejects %s locally as the 400 the service would answer, sending nothing',
    async (_case, params, fields) => {
      await expectLocalBadRequest(client.users.list(params as UserListParams), fields);
      expect(requests).toHaveLength(0);
    },
  );
});

describe('users.get', () => {
  it('sends GET /v1/users/{id} and resolves to { data: user }, team_id null included', async () => {
    server.use(
      http.get(`${COLLECTION}/:id`, () => json({ data: records.user({ team_id: null }) })),
    );
    const result = await client.users.get(UUID.alice);
    expect(result).toEqual({ data: records.user({ team_id: null }) });
    expect(requests).toMatchObject([{ method: 'GET', rawPath: `/v1/users/${UUID.alice}` }]);
  });

  it('rejects a role that is not a string with an InvalidResponseError naming data.role', async () => {
    server.use(http.get(`${COLLECTION}/:id`, () => json({ data: records.user({ role: 3 }) })));
    const error = await client.users.get(UUID.alice).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).issues).toEqual([
      { path: 'data.role', message: 'must be a string' },
    ]);
  });
});
