import { afterEach, beforeEach, expect, it } from 'vitest';
import { createMetrics } from '../../examples/hooks/metrics.js';
import { ApiConnectionError, Client, type ClientOptions, NotFoundError } from '../../src/index.js';
import { createMockApi, type MockApi } from '../../src/testing/index.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

let mock: MockApi;
beforeEach(() => {
  mock = createMockApi({ seed: 3 });
});
afterEach(() => mock.close());

const clientWith = (options: ClientOptions) =>
  new Client({ fetch: mock.fetch, baseUrl: mock.baseUrl, apiKey: mock.testKey, ...options });

/** A first user's id, a retried call (503 then 200), a 404 and a dropped connection. */
async function callsOfEveryOutcome(client: Client) {
  const { data: users } = await client.users.list({ limit: 2 });
  const id = users[0]!.id;
  mock.faults.failNext('GET /v1/users/:id', { status: 503, retryAfter: 0 });
  await client.users.get(id);
  await expect(client.users.get(MISSING)).rejects.toBeInstanceOf(NotFoundError);
  mock.faults.dropNext('GET /v1/teams');
  await expect(client.teams.list({}, { maxRetries: 0 })).rejects.toBeInstanceOf(ApiConnectionError);
  return id;
}

it('metrics: counts calls, attempts, retries, statuses, errors and answer times per operation', async () => {
  const metrics = createMetrics();
  await callsOfEveryOutcome(clientWith({ hooks: metrics.hooks }));
  const snapshot = metrics.snapshot();

  expect(Object.keys(snapshot).sort()).toEqual([
    'GET /v1/teams',
    'GET /v1/users',
    'GET /v1/users/{id}',
  ]);
  expect(snapshot['GET /v1/users']).toMatchObject({
    calls: 1,
    attempts: 1,
    retries: 0,
    statuses: { 200: 1 },
    errors: {},
  });
  // Two calls: one retried after a 503, one answered 404.
  expect(snapshot['GET /v1/users/{id}']).toMatchObject({
    calls: 2,
    attempts: 3,
    retries: 1,
    statuses: { 200: 1, 404: 1, 503: 1 },
    errors: { NotFoundError: 1 },
  });
  // No answer, so no status and no answer time.
  expect(snapshot['GET /v1/teams']).toMatchObject({
    calls: 1,
    attempts: 1,
    retries: 0,
    statuses: {},
    errors: { ApiConnectionError: 1 },
    durationMs: { count: 0, total: 0, max: 0 },
  });
  const { durationMs } = snapshot['GET /v1/users/{id}']!;
  expect(durationMs.count).toBe(3);
  expect(durationMs.max).toBeGreaterThanOrEqual(0);
  expect(durationMs.total).toBeGreaterThanOrEqual(durationMs.max);

  // A snapshot is a copy; reset starts over.
  snapshot['GET /v1/users']!.calls = 99;
  expect(metrics.snapshot()['GET /v1/users']!.calls).toBe(1);
  metrics.reset();
  expect(metrics.snapshot()).toEqual({});
});
