/**
 * The Client authenticated by clientCredentials(): against the kit's token endpoint and mock API
 * (over real HTTP and in process), and against oauth2-mock-server. The "Done when": 1,000
 * calls over two token lifetimes make exactly the token requests those lifetimes need.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiTimeoutError,
  ApiUserAbortError,
  Client,
  EmployeeRecognitionError,
} from '../../src/index.js';
import { clientCredentials, OAuthError } from '../../src/oauth/index.js';
import { createMockApi, type MockServer, startMockServer } from '../../src/testing/index.js';
import { startTestServer, type TestServer } from '../support/http-server.js';
import { type OAuthTestServer, startOAuthServer } from '../support/oauth-server.js';

const START = Date.parse('2026-11-24T09:00:00Z');
const HOUR = 3_600_000;

let server: MockServer | undefined;
let auth: OAuthTestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  await auth?.close();
  server = auth = undefined;
});

/** The OAuthError a failed call carries, whether the Client passes it on or wraps it. */
function oauthErrorOf(error: unknown): OAuthError | undefined {
  if (error instanceof OAuthError) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause instanceof OAuthError ? cause : undefined;
}

it('lists and creates over real HTTP with a token from the kit’s token endpoint', async () => {
  server = await startMockServer({ recognitions: 5 });
  const { api, url } = server;
  const client = new Client({
    apiKey: clientCredentials({ issuer: url, ...api.oauth.testClient, logLevel: 'off' }),
    baseUrl: url,
  });
  const users = await client.users.list({ limit: 2 });
  const { data } = await client.recognitions.create({
    recipient_id: users.data[1]!.id,
    message: 'Thanks for the OAuth work',
  });
  expect(data.message).toBe('Thanks for the OAuth work');
  expect(api.oauth.tokens).toHaveLength(1);
  expect(api.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
    'GET /.well-known/oauth-authorization-server',
    'POST /oauth/token',
    'GET /v1/users',
    'POST /v1/recognitions',
  ]);
});

it('a revoked token: one refresh, and the call succeeds', async () => {
  const api = createMockApi();
  const apiKey = clientCredentials({
    issuer: api.oauth.issuer,
    ...api.oauth.testClient,
    fetch: api.fetch,
  });
  const client = new Client({ apiKey, baseUrl: api.baseUrl, fetch: api.fetch });
  await client.users.list();
  api.oauth.revoke(api.oauth.tokens[0]!.accessToken);
  await client.users.list();
  expect(api.oauth.tokens).toHaveLength(2);
  expect(api.requests.filter((request) => request.path === '/v1/users')).toHaveLength(3);
  await api.close();
});

it('50 concurrent calls refused with one revoked token: one refresh, and every call succeeds', async () => {
  const oauthClient = { clientId: 'rc_ConcurrentClient00001', clientSecret: 'concurrent-secret' };
  const api = createMockApi({ oauth: { clients: [{ ...oauthClient, rateLimit: 1000 }] } });
  const apiKey = clientCredentials({ issuer: api.oauth.issuer, ...oauthClient, fetch: api.fetch });
  // All at once, not paced over the rate-limit window.
  const client = new Client({ apiKey, baseUrl: api.baseUrl, fetch: api.fetch, rateLimit: 'off' });
  await client.users.list();
  api.oauth.revoke(api.oauth.tokens[0]!.accessToken);
  // 50: the refused requests count against the mock's allowance for unauthenticated callers (100).
  const pages = await Promise.all(Array.from({ length: 50 }, () => client.users.list()));
  expect(pages).toHaveLength(50);
  expect(api.oauth.tokens).toHaveLength(2);
  await api.close();
});

it('a 401 that arrives after the refresh takes the new token: the SDK names the refused one', async () => {
  const api = createMockApi();
  const apiKey = clientCredentials({
    issuer: api.oauth.issuer,
    ...api.oauth.testClient,
    fetch: api.fetch,
  });
  // The first 401 waits at the gate until another call has refreshed the token and succeeded.
  let gate: Promise<void> | undefined;
  let open = () => {};
  const apiFetch: typeof fetch = async (input, init) => {
    const response = await api.fetch(input, init);
    const wait = response.status === 401 ? gate : undefined;
    if (wait) {
      gate = undefined;
      await wait;
    }
    return response;
  };
  const client = new Client({ apiKey, baseUrl: api.baseUrl, fetch: apiFetch });
  await client.users.list();
  api.oauth.revoke(api.oauth.tokens[0]!.accessToken);
  gate = new Promise((resolve) => (open = resolve));
  const late = client.users.list();
  await client.users.list();
  expect(api.oauth.tokens).toHaveLength(2);
  open();
  await late;
  expect(api.oauth.tokens).toHaveLength(2);
  await api.close();
});

it('a wrong secret fails the call with an OAuthError naming invalid_client', async () => {
  const api = createMockApi();
  const client = new Client({
    apiKey: clientCredentials({
      issuer: api.oauth.issuer,
      clientId: api.oauth.testClient.clientId,
      clientSecret: 'not-the-secret',
      fetch: api.fetch,
    }),
    baseUrl: api.baseUrl,
    fetch: api.fetch,
  });
  const error = await client.users.list().catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(EmployeeRecognitionError);
  expect(oauthErrorOf(error)).toMatchObject({ status: 401, code: 'invalid_client' });
  expect(api.requests.filter((request) => request.path === '/v1/users')).toHaveLength(0);
  await api.close();
});

describe('1,000 calls over two token lifetimes', () => {
  // Only the clock is fake; the calls are spread evenly over two hours.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(START);
  });
  const CALLS = 1_000;
  const at = (call: number) => START + (call * 2 * HOUR) / CALLS;
  // A token is replaced 60 s before it expires: at 59 min after it was fetched. Over two hours
  // that is the first call, the first at or after 59 min, and the first at or after 118 min.
  const EXPECTED_TOKEN_REQUESTS = 3;

  it("against the kit's token endpoint and mock API: every call accepted", async () => {
    const api = createMockApi({ now: () => Date.now() });
    const apiKey = clientCredentials({
      issuer: api.oauth.issuer,
      ...api.oauth.testClient,
      fetch: api.fetch,
    });
    const client = new Client({ apiKey, baseUrl: api.baseUrl, fetch: api.fetch });
    for (let call = 0; call < CALLS; call++) {
      vi.setSystemTime(at(call));
      await client.users.list({ limit: 1 });
    }
    expect(api.oauth.tokens.map((token) => token.issuedAt)).toEqual([
      at(0),
      at(Math.ceil((59 * 60_000 * CALLS) / (2 * HOUR))),
      at(Math.ceil((118 * 60_000 * CALLS) / (2 * HOUR))),
    ]);
    expect(api.oauth.tokens).toHaveLength(EXPECTED_TOKEN_REQUESTS);
    expect(api.requests.filter((request) => request.path === '/v1/users')).toHaveLength(CALLS);
    await api.close();
  });

  it('against oauth2-mock-server: each call sends a token the server issued and has not expired', async () => {
    auth = await startOAuthServer();
    const issued = new Map<string, number>();
    auth.shape((answer) => {
      if (typeof answer.body === 'object') {
        issued.set(
          String(answer.body.access_token),
          Date.now() + Number(answer.body.expires_in) * 1000,
        );
      }
    });
    const sent: string[] = [];
    const apiFetch = async (_input: RequestInfo | URL, init?: RequestInit) => {
      const token = new Headers(init?.headers).get('authorization')!.replace('Bearer ', '');
      sent.push(token);
      const valid = (issued.get(token) ?? 0) > Date.now();
      return Response.json(
        valid ? { data: [], pagination: { page: 1, total_pages: 1, next_cursor: null } } : {},
        { status: valid ? 200 : 401 },
      );
    };
    const client = new Client({
      apiKey: clientCredentials({
        issuer: auth.issuer,
        clientId: 'rc_DoneWhenClient000001',
        clientSecret: 'done-when-secret',
      }),
      baseUrl: 'https://api.example.com',
      fetch: apiFetch,
    });
    for (let call = 0; call < CALLS; call++) {
      vi.setSystemTime(at(call));
      await client.users.list();
    }
    expect(sent).toHaveLength(CALLS);
    expect(auth.tokenRequests).toHaveLength(EXPECTED_TOKEN_REQUESTS);
    expect(new Set(sent).size).toBe(EXPECTED_TOKEN_REQUESTS);
  });
});

describe('a token endpoint that hangs', () => {
  let tokenServer: TestServer | undefined;
  afterEach(async () => {
    await tokenServer?.close();
    tokenServer = undefined;
  });

  /**
   * A client whose tokens come from `server`, and whose API is its fetch: every answer a
   * 200, each Authorization header kept in `sent`.
   */
  function clientOfTokenServer(server: TestServer) {
    const sent: (string | null)[] = [];
    const fetch = async (_url: RequestInfo | URL, init?: RequestInit) => {
      sent.push(new Headers(init?.headers).get('authorization'));
      return Response.json({
        data: [],
        pagination: { page: 1, total_pages: 0, next_cursor: null },
      });
    };
    const apiKey = clientCredentials({
      tokenUrl: `${server.url}/oauth/token`,
      clientId: 'rc_0123456789abcdefABCD',
      clientSecret: 'cs_test-secret',
      logLevel: 'off',
    });
    return { client: new Client({ apiKey, baseUrl: 'http://api.test', fetch }), sent };
  }

  it('fails the call within its timeout, after one token request, nothing sent to the API', async () => {
    tokenServer = await startTestServer(() => {});
    const { client, sent } = clientOfTokenServer(tokenServer);
    // The token request's own timeout (30 s) and retries (2) would take 90 s: the call's ends it.
    const error = await client.users.list({}, { timeout: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect((error as Error).message).toContain('waiting for its credential');
    // The token request left before the call's timeout, but on a busy machine the server may
    // read it only after the timeout has fired: wait for it rather than assume it is there.
    await vi.waitFor(() => expect(tokenServer!.requests).toHaveLength(1));
    expect(sent).toEqual([]);
  });

  it('lets the token request a call left finish, and caches its token for the next call', async () => {
    let answer: (() => void) | undefined;
    tokenServer = await startTestServer((_request, response) => {
      answer = () =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            access_token: 'late-token-1',
            token_type: 'Bearer',
            expires_in: 3600,
          }),
        );
    });
    const { client, sent } = clientOfTokenServer(tokenServer);
    const controller = new AbortController();
    const left = client.users.list({}, { signal: controller.signal }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(answer).toBeDefined());
    controller.abort();
    expect(await left).toBeInstanceOf(ApiUserAbortError);
    // The token request the call left was not cancelled: the next call gets its token.
    answer!();
    await client.users.list();
    expect(sent).toEqual(['Bearer late-token-1']);
    expect(tokenServer.requests).toHaveLength(1);
  });
});
