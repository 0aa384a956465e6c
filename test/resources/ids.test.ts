import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { type Client, NotFoundError } from '../../src/index.js';
import {
  expectLocalValidationError,
  json,
  TEST_BASE_URL,
  testClient,
  useMockServer,
} from './support.js';

const { server, requests } = useMockServer();
const client = testClient();

/** Every method that puts an id in its path, and the collection that path is under. */
const methods: [string, (client: Client, id: string) => PromiseLike<unknown>, string][] = [
  ['recognitions.get', (c, id) => c.recognitions.get(id), '/v1/recognitions'],
  ['recognitions.delete', (c, id) => c.recognitions.delete(id), '/v1/recognitions'],
  ['users.get', (c, id) => c.users.get(id), '/v1/users'],
  ['rewards.get', (c, id) => c.rewards.get(id), '/v1/rewards'],
  ['teams.get', (c, id) => c.teams.get(id), '/v1/teams'],
  ['webhooks.get', (c, id) => c.webhooks.get(id), '/v1/webhooks'],
  ['webhooks.update', (c, id) => c.webhooks.update(id, { enabled: true }), '/v1/webhooks'],
  ['webhooks.delete', (c, id) => c.webhooks.delete(id), '/v1/webhooks'],
  ['budgets.get', (c, id) => c.budgets.get(id), '/v1/budgets'],
];

describe.each(methods)('%s', (_method, call, collection) => {
  it.each([
    ['a slash', 'team/42', 'team%2F42'],
    ['a question mark', 'why?', 'why%3F'],
    ['a hash', 'tag#1', 'tag%231'],
    ['unicode', 'équipe-東京', '%C3%A9quipe-%E6%9D%B1%E4%BA%AC'],
    ['a space', 'a b', 'a%20b'],
    ['an encoded dot-dot', '%2e%2e', '%252e%252e'],
  ])('URL-encodes an id with %s as one path segment', async (_case, id, encoded) => {
    server.use(
      http.all(`${TEST_BASE_URL}/v1/*`, () =>
        json({ error: { code: 'not_found', message: 'No such record.' } }, 404),
      ),
    );
    await expect(call(client, id)).rejects.toBeInstanceOf(NotFoundError);
    expect(requests.map((request) => request.rawPath)).toEqual([`${collection}/${encoded}`]);
  });

  it.each<[string, unknown, string]>([
    ['an empty string', '', 'id: must not be empty'],
    ['whitespace', '  ', 'id: must not be empty'],
    ['"."', '.', 'id: must not be "." or ".."'],
    ['".."', '..', 'id: must not be "." or ".."'],
    ['a number', 42, 'id: must be a string'],
    ['undefined', undefined, 'id: must be a string'],
    ['null', null, 'id: must be a string'],
  ])('rejects %s as id locally, sending nothing', async (_case, id, message) => {
    const error = await expectLocalValidationError(call(client, id as string), ['id']);
    expect(error.message).toBe(message);
    expect(requests).toHaveLength(0);
  });
});
