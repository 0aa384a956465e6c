/**
 * The token request's own engine: bounded in time and body, retried on 5xx and connection errors,
 * and carrying only what oauth4webapi sends. A fetch function stands in for the network, so every
 * wait runs on fake timers.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import {
  ApiConnectionError,
  ApiTimeoutError,
  Client,
  ResponseTooLargeError,
} from '../../src/index.js';
import { clientCredentials, type ClientCredentialsOptions } from '../../src/oauth/index.js';
import { createMockApi } from '../../src/testing/index.js';

const TOKEN_URL = 'https://auth.example.com/oauth/token';
const TOKEN_ANSWER = { access_token: 'token-1', token_type: 'Bearer', expires_in: 3600 };

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A fetch that answers each request with the next of `answers` and records what it was sent. */
function network(...answers: (() => Response | Promise<Response>)[]) {
  const sent: Request[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push(request);
    const answer = answers[Math.min(sent.length, answers.length) - 1]!;
    return answer();
  });
  return { fetch, sent };
}

const json =
  (body: unknown, status = 200) =>
  () =>
    Response.json(body, { status });
const refuseConnection = () => Promise.reject(new TypeError('fetch failed'));

function provider(fetch: typeof globalThis.fetch, options: Partial<ClientCredentialsOptions> = {}) {
  return clientCredentials({
    tokenUrl: TOKEN_URL,
    clientId: 'rc_0123456789abcdefABCD',
    clientSecret: 'a-client-secret',
    fetch,
    logLevel: 'off',
    ...options,
  });
}

/** Runs `work` to its end while the fake clock moves through every wait it sets. */
async function settle<T>(work: Promise<T>): Promise<T> {
  const outcome = work.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await vi.runAllTimersAsync();
  const result = await outcome;
  if ('error' in result) throw result.error;
  return result.value;
}

it('retries a 5xx and a connection error, then returns the token', async () => {
  const { fetch, sent } = network(
    json({ error: 'temporarily_unavailable' }, 503),
    refuseConnection,
    json(TOKEN_ANSWER),
  );
  expect(await settle(provider(fetch)())).toBe('token-1');
  expect(sent).toHaveLength(3);
});

it('a 5xx after the last retry is an OAuthError with its status', async () => {
  const { fetch, sent } = network(json({ error: 'server_error' }, 500));
  await expect(settle(provider(fetch, { maxRetries: 1 })())).rejects.toMatchObject({
    name: 'OAuthError',
    status: 500,
    code: 'server_error',
  });
  expect(sent).toHaveLength(2);
});

it('does not retry a refusal (4xx)', async () => {
  const { fetch, sent } = network(json({ error: 'invalid_client' }, 401));
  await expect(settle(provider(fetch)())).rejects.toMatchObject({ code: 'invalid_client' });
  expect(sent).toHaveLength(1);
});

it('a server that never answers is an ApiTimeoutError after the timeout of each attempt', async () => {
  const hang = (_input: RequestInfo | URL, init?: RequestInit) =>
    new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
    });
  const fetch = vi.fn(hang);
  const error = await settle(provider(fetch, { timeout: 5_000, maxRetries: 1 })()).catch(
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiTimeoutError);
  expect(error).toMatchObject({ method: 'POST', url: TOKEN_URL });
  expect(fetch).toHaveBeenCalledTimes(2);
});

it('a body that stalls after the headers times out too', async () => {
  const stalled = () =>
    new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('{')) }), {
      headers: { 'content-type': 'application/json' },
    });
  const { fetch } = network(stalled);
  await expect(settle(provider(fetch, { timeout: 1_000 })())).rejects.toBeInstanceOf(
    ApiTimeoutError,
  );
});

it('a body over maxResponseBytes is cancelled: ResponseTooLargeError', async () => {
  const { fetch } = network(json({ ...TOKEN_ANSWER, padding: 'x'.repeat(5_000) }));
  await expect(settle(provider(fetch, { maxResponseBytes: 4_096 })())).rejects.toBeInstanceOf(
    ResponseTooLargeError,
  );
});

it('a refused connection is an ApiConnectionError naming the token endpoint', async () => {
  const { fetch, sent } = network(refuseConnection);
  const error = await settle(provider(fetch)()).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ApiConnectionError);
  expect((error as Error).message).toBe(`Connection error: POST ${TOKEN_URL}: fetch failed`);
  expect(sent).toHaveLength(3);
});

it("sends only the grant: none of the Client's hooks, headers, pacing or Idempotency-Key", async () => {
  const { fetch, sent } = network(json(TOKEN_ANSWER));
  const beforeRequest = vi.fn();
  const api = createMockApi({ keys: [{ key: TOKEN_ANSWER.access_token }] });
  const client = new Client({
    apiKey: provider(fetch),
    baseUrl: api.baseUrl,
    fetch: api.fetch,
    headers: { 'x-team': 'sync-job' },
    hooks: { beforeRequest: [beforeRequest] },
  });
  const {
    data: [recipient],
  } = await settle(client.users.list({ limit: 1 }));
  await settle(client.recognitions.create({ recipient_id: recipient!.id, message: 'Thanks' }));
  await api.close();
  expect(sent).toHaveLength(1);
  const [request] = sent;
  expect([...request!.headers.keys()].sort()).toEqual([
    'accept',
    'authorization',
    'content-type',
    'user-agent',
  ]);
  expect(request!.headers.get('authorization')).toMatch(/^Basic /);
  expect(await request!.text()).toBe('grant_type=client_credentials');
  // The hooks saw the API calls only; the API saw the token.
  expect(beforeRequest).toHaveBeenCalledTimes(2);
  expect(api.requests.map((request) => request.path)).toEqual(['/v1/users', '/v1/recognitions']);
  for (const [context] of beforeRequest.mock.calls) {
    expect((context as { url: string }).url.startsWith(api.baseUrl)).toBe(true);
  }
});
