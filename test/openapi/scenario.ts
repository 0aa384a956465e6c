/**
 * One pass of the SDK over the whole API: the 18 operations on their success paths, and the
 * errors 401, 403 (every operation), 404 (every operation on an id), 409, 422 and 429. The
 * OpenAPI suites run it through Prism (proxy) and through the mock alone, and judge what crossed
 * the wire against openapi.json.
 */
import { expect } from 'vitest';
import {
  AuthenticationError,
  Client,
  type ClientOptions,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from '../../src/index.js';
import type { MockKey } from '../../src/testing/index.js';

/** One request the SDK made and the answer it got. */
export interface Exchange {
  method: string;
  url: URL;
  status: number;
  headers: Headers;
  /** The parsed JSON body; undefined when there was none. */
  body: unknown;
  /** The answer itself, body unread, for whoever needs more (Prism's `sl-violations`). */
  response: Response;
}

export const FULL_KEY = `rk_test_${'OpenApi0'.repeat(4)}`;
const NO_SCOPE_KEY = `rk_test_${'NoScope0'.repeat(4)}`;
const SLOW_KEY = `rk_test_${'SlowTier'.repeat(4)}`;
const UNKNOWN_KEY = `rk_test_${'Unknown0'.repeat(4)}`;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** The credentials the mock must accept for the scenario. */
export const SCENARIO_KEYS: MockKey[] = [
  { key: FULL_KEY, scopes: '*', rateLimit: 1000 },
  { key: NO_SCOPE_KEY, scopes: [], rateLimit: 1000 },
  { key: SLOW_KEY, scopes: '*', rateLimit: 10 },
];

/** A fetch that records every exchange in `exchanges`; the caller still reads the response. */
export function recordingFetch(
  exchanges: Exchange[],
  fetch: typeof globalThis.fetch = globalThis.fetch,
): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    const text = await response.clone().text();
    exchanges.push({
      method: request.method,
      url: new URL(request.url),
      status: response.status,
      headers: response.headers,
      body: text === '' ? undefined : (JSON.parse(text) as unknown),
      response,
    });
    return response;
  };
}

/** Runs the scenario with clients on `baseUrl` that send through `fetch`. */
export async function runScenario(baseUrl: string, fetch: typeof globalThis.fetch): Promise<void> {
  const warnings: string[] = [];
  const options: ClientOptions = {
    baseUrl,
    fetch,
    maxRetries: 0,
    rateLimit: 'off',
    validateResponses: 'strict',
    logger: {
      debug: () => undefined,
      info: () => undefined,
      warn: (message: string) => void warnings.push(message),
      error: (message: string) => void warnings.push(message),
    },
  };
  const client = new Client({ ...options, apiKey: FULL_KEY });

  // Success paths: every operation, lists in page and cursor mode and with every filter.
  const first = await client.recognitions.list({ limit: 5 });
  expect(first.data).toHaveLength(5);
  const next = await client.recognitions.list({ limit: 5, cursor: first.pagination.next_cursor! });
  expect(next.data[0]!.id).not.toBe(first.data[0]!.id);
  const page2 = await client.recognitions.list({ page: 2, limit: 5 });
  expect(page2.pagination.page).toBe(2);
  const sample = first.data[0]!;
  await client.recognitions.list({
    from: '2026-08-01',
    to: new Date('2026-11-21T09:30:00Z'),
    sender_id: sample.sender.id,
    recipient_id: sample.recipient.id,
  });
  await client.recognitions.get(sample.id);
  const users = await client.users.list({ limit: 3 });
  const colleague = users.data[1]!;
  await client.users.get(colleague.id);
  const rewards = await client.rewards.list({ page: 1 });
  await client.rewards.get(rewards.data[0]!.id);
  const teams = await client.teams.list();
  await client.teams.get(teams.data[0]!.id);
  const budgets = await client.budgets.list();
  await client.budgets.get(budgets.data[0]!.id);
  await client.analytics.summary();
  await client.analytics.summary('7d');
  const created = await client.recognitions.create({
    recipient_id: colleague.id,
    message: 'Thanks for the review!',
    points: 10,
  });
  // The sender is the credential's owner.
  const me = created.data.sender;
  await client.recognitions.create({ recipient_id: colleague.id, message: 'Again, thanks' });
  await client.recognitions.delete(created.data.id);
  const webhook = await client.webhooks.create({
    url: 'https://hooks.acme.example/recognition',
    events: ['recognition.created', 'team.member_added'],
    description: 'Team channel',
  });
  await client.webhooks.list();
  await client.webhooks.get(webhook.data.id);
  await client.webhooks.update(webhook.data.id, { enabled: false, events: ['*'] });
  await client.webhooks.update(webhook.data.id, { description: null });

  // 403 on every operation: a credential without scopes.
  const noScope = new Client({ ...options, apiKey: NO_SCOPE_KEY });
  const ids = {
    recognition: sample.id,
    user: me.id,
    reward: rewards.data[0]!.id,
    team: teams.data[0]!.id,
    budget: budgets.data[0]!.id,
    webhook: webhook.data.id,
  };
  const everyOperation = (sdk: Client, id: (kind: keyof typeof ids) => string) => [
    () => sdk.recognitions.list(),
    () => sdk.recognitions.get(id('recognition')),
    () => sdk.recognitions.create({ recipient_id: colleague.id, message: 'Hi' }),
    () => sdk.recognitions.delete(id('recognition')),
    () => sdk.users.list(),
    () => sdk.users.get(id('user')),
    () => sdk.rewards.list(),
    () => sdk.rewards.get(id('reward')),
    () => sdk.teams.list(),
    () => sdk.teams.get(id('team')),
    () => sdk.webhooks.list(),
    () => sdk.webhooks.get(id('webhook')),
    () => sdk.webhooks.create({ url: 'https://hooks.acme.example/x', events: ['*'] }),
    () => sdk.webhooks.update(id('webhook'), { enabled: true }),
    () => sdk.webhooks.delete(id('webhook')),
    () => sdk.budgets.list(),
    () => sdk.budgets.get(id('budget')),
    () => sdk.analytics.summary(),
  ];
  const operations = everyOperation(noScope, (kind) => ids[kind]);
  expect(operations).toHaveLength(18);
  for (const operation of operations) {
    await expect(operation()).rejects.toBeInstanceOf(PermissionDeniedError);
  }

  // 404 on every operation on an id.
  await expect(client.recognitions.get(UNKNOWN_ID)).rejects.toBeInstanceOf(NotFoundError);
  await expect(client.recognitions.delete(UNKNOWN_ID)).rejects.toBeInstanceOf(NotFoundError);
  await expect(client.users.get(UNKNOWN_ID)).rejects.toBeInstanceOf(NotFoundError);
  await expect(client.rewards.get(UNKNOWN_ID)).rejects.toBeInstanceOf(NotFoundError);
  await expect(client.teams.get(UNKNOWN_ID)).rejects.toBeInstanceOf(NotFoundError);
  await expect(client.budgets.get(UNKNOWN_ID)).rejects.toBeInstanceOf(NotFoundError);
  await expect(client.webhooks.get(UNKNOWN_ID)).rejects.toBeInstanceOf(NotFoundError);
  await expect(client.webhooks.update(UNKNOWN_ID, { enabled: true })).rejects.toBeInstanceOf(
    NotFoundError,
  );
  await expect(client.webhooks.delete(UNKNOWN_ID)).rejects.toBeInstanceOf(NotFoundError);

  // 401: a credential the service does not know.
  const stranger = new Client({ ...options, apiKey: UNKNOWN_KEY });
  await expect(stranger.users.list()).rejects.toBeInstanceOf(AuthenticationError);
  await expect(
    stranger.recognitions.create({ recipient_id: colleague.id, message: 'Hi' }),
  ).rejects.toBeInstanceOf(AuthenticationError);

  // 409: one Idempotency-Key, two bodies.
  const idempotencyKey = 'openapi-scenario-409';
  await client.recognitions.create(
    { recipient_id: colleague.id, message: 'One' },
    { idempotencyKey },
  );
  await expect(
    client.recognitions.create({ recipient_id: colleague.id, message: 'Two' }, { idempotencyKey }),
  ).rejects.toBeInstanceOf(ConflictError);

  // 422 from the service (the SDK's local checks pass): oneself, an unknown user, an unknown type.
  for (const recipient of [me.id, UNKNOWN_ID]) {
    const error = await client.recognitions
      .create({ recipient_id: recipient, message: 'Hi' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as UnprocessableEntityError).local).toBe(false);
  }
  await expect(
    client.webhooks.create({ url: 'https://hooks.acme.example/y', events: ['no.such_type'] }),
  ).rejects.toBeInstanceOf(UnprocessableEntityError);
  await expect(
    client.webhooks.update(webhook.data.id, { events: ['no.such_type'] }),
  ).rejects.toBeInstanceOf(UnprocessableEntityError);

  // 429: a key of the 10-a-minute tier, past its allowance and burst.
  const slow = new Client({ ...options, apiKey: SLOW_KEY });
  let limited: unknown;
  for (let attempt = 0; attempt < 50 && !limited; attempt++) {
    limited = await slow.users.list().then(
      () => undefined,
      (error: unknown) => error,
    );
  }
  expect(limited).toBeInstanceOf(RateLimitError);

  await client.webhooks.delete(webhook.data.id);
  expect(warnings).toEqual([]);
}
