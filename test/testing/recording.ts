// A session of every operation, OAuth and a webhook create, recorded against the kit's server,
// and the HAR 1.2 validator (the har-schema package's JSON schemas) the recording tests use.
import { Client, NotFoundError } from '@employee-recognition/sdk';
import { clientCredentials } from '@employee-recognition/sdk/oauth';
import {
  createRecorder,
  type Har,
  type MockServer,
  startMockServer,
} from '@employee-recognition/sdk/testing';
import { Ajv } from 'ajv';
import draft06 from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import addFormats from 'ajv-formats';
import harSchemas from 'har-schema';
import { Agent } from 'undici';

/** The errors of a HAR 1.2 document against the HAR schema; empty when it is valid. */
export function harErrors(har: unknown): string[] {
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(draft06);
  addFormats(ajv);
  for (const schema of Object.values(harSchemas as Record<string, object>)) ajv.addSchema(schema);
  const validate = ajv.getSchema('har.json#')!;
  return validate(har)
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

/** How a session's client reaches the API. */
export interface SessionTarget {
  baseUrl: string;
  apiKey: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  fetch?: typeof globalThis.fetch | undefined;
}

/**
 * Every one of the 18 operations, an OAuth token request (`client_secret_post`, so the secret is
 * in a form body) and its use, a webhook create (its answer holds the signing secret), a 404.
 * What each call gave, as plain JSON, so two sessions compare with `toEqual`.
 */
export async function runSession(target: SessionTarget): Promise<unknown[]> {
  const options = { baseUrl: target.baseUrl, fetch: target.fetch, maxRetries: 0 };
  const client = new Client({ ...options, apiKey: target.apiKey });
  const results: unknown[] = [];
  const users = await client.users.list({ limit: 100 });
  results.push(users.data);
  const user = users.data[1]!;
  results.push((await client.users.get(user.id)).data);
  const recognitions = await client.recognitions.list({ limit: 5 });
  results.push(recognitions.data);
  results.push((await client.recognitions.get(recognitions.data[0]!.id)).data);
  const created = await client.recognitions.create({
    recipient_id: user.id,
    message: `Thanks for the review, ${user.name.split(' ')[0]}! ${user.email} says hi.`,
    points: 10,
  });
  results.push(created.data);
  results.push(await client.recognitions.delete(created.data.id));
  const rewards = await client.rewards.list();
  results.push(rewards.data, (await client.rewards.get(rewards.data[0]!.id)).data);
  const teams = await client.teams.list();
  results.push(teams.data, (await client.teams.get(teams.data[0]!.id)).data);
  const budgets = await client.budgets.list();
  results.push(budgets.data, (await client.budgets.get(budgets.data[0]!.id)).data);
  results.push((await client.analytics.summary('30d')).data);
  const webhook = await client.webhooks.create({
    url: 'https://hooks.example.com/recognition',
    events: ['recognition.created'],
    description: `Alerts for ${user.name}`,
  });
  results.push(webhook.data);
  results.push((await client.webhooks.list()).data);
  results.push((await client.webhooks.get(webhook.data.id)).data);
  results.push((await client.webhooks.update(webhook.data.id, { enabled: false })).data);
  results.push(await client.webhooks.delete(webhook.data.id));
  try {
    await client.users.get('00000000-0000-4000-8000-000000000000');
  } catch (error) {
    results.push(
      error instanceof NotFoundError ? { status: error.status, code: error.code } : 'other',
    );
  }
  const oauth = new Client({
    ...options,
    apiKey: clientCredentials({
      issuer: target.issuer,
      clientId: target.clientId,
      clientSecret: target.clientSecret,
      authMethod: 'client_secret_post',
      fetch: target.fetch,
      logLevel: 'off',
    }),
  });
  results.push((await oauth.teams.list({ limit: 2 })).data);
  return results;
}

/** How a session reaches a kit server, its credentials included. */
export function targetOf(server: MockServer, fetch?: typeof globalThis.fetch): SessionTarget {
  return {
    baseUrl: server.url,
    apiKey: server.api.testKey,
    issuer: server.api.oauth.issuer,
    ...server.api.oauth.testClient,
    fetch,
  };
}

/** A key of the right form that no server knows: a replaying test holds no credential. */
export const FAKE_KEY = `rk_test_${'x'.repeat(24)}`;

/**
 * How a replaying test reaches a recording served at `baseUrl`: the recorded client id, and no
 * credential (the recording holds none).
 */
export function replayTarget(baseUrl: string, clientId: string): SessionTarget {
  return {
    baseUrl,
    apiKey: FAKE_KEY,
    issuer: baseUrl,
    clientId,
    clientSecret: 'any secret: the recording holds none',
  };
}

/** The kit server a session runs against: seeded, on a fixed clock, so two runs answer alike. */
export const SESSION_SERVER = {
  recognitions: 30,
  seed: 41,
  now: () => Date.parse('2026-11-21T12:00:00Z'),
};

/** A session recorded against a fresh kit server, with every secret and personal value it held. */
export async function recordSession() {
  const server = await startMockServer(SESSION_SERVER);
  const seeded = server.api.store.users.all();
  // Connections of its own, closed with the server: msw 3 intercepts new connections only, so a
  // replay of the same origin must meet no connection the recording kept alive.
  const agent = new Agent();
  const recorder = createRecorder({
    fetch: (input, init) => fetch(input, { ...init, dispatcher: agent } as RequestInit),
  });
  try {
    const results = await runSession(targetOf(server, recorder.fetch));
    await recorder.close();
    const har: Har = recorder.har();
    return {
      har,
      results,
      requests: server.api.requests.length,
      secrets: [
        server.api.testKey,
        server.api.oauth.testClient.clientSecret,
        ...server.api.oauth.tokens.map((token) => token.accessToken),
        // The webhook is deleted by the end: its secret is the one the create answered with.
        ...(JSON.stringify(results).match(/whsec_[A-Za-z0-9+/=]+/g) ?? []),
      ],
      clientId: server.api.oauth.testClient.clientId,
      emails: seeded.map((user) => user.email),
      names: seeded.map((user) => user.name),
      url: server.url,
    };
  } finally {
    await server.close();
    await agent.close();
  }
}
