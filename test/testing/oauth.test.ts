/**
 * The kit's authorization server: RFC 8414 metadata, the client-credentials token endpoint with
 * RFC 6749 §5.2 errors, and a mock API that accepts the tokens it issued, with their scopes, until
 * they expire or are revoked.
 */
import { createMockApi, type MockApi } from '@employee-recognition/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/contract.js';
import { call, createClock } from './support.js';

const CLIENT = { clientId: 'rc_ReadOnlyClient000001', clientSecret: 'read-only-secret' };

let api: MockApi;
afterEach(() => api.close());

/** A token request to the mock's token endpoint: Basic by default, or the form body. */
async function requestToken(
  mock: MockApi,
  form: Record<string, string>,
  client: { clientId: string; clientSecret: string } | 'post' | null = mock.oauth.testClient,
) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const body = new URLSearchParams(form);
  if (client === 'post') {
    body.set('client_id', mock.oauth.testClient.clientId);
    body.set('client_secret', mock.oauth.testClient.clientSecret);
  } else if (client !== null) {
    headers.authorization = `Basic ${btoa(`${client.clientId}:${client.clientSecret}`)}`;
  }
  const response = await mock.fetch(mock.oauth.tokenUrl, { method: 'POST', headers, body });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe('metadata and the default client', () => {
  it('serves RFC 8414 metadata naming the token endpoint, below the mock by default', async () => {
    api = createMockApi({ baseUrl: 'https://api.example.com' });
    expect(api.oauth.issuer).toBe('https://api.example.com');
    const response = await api.fetch(
      'https://api.example.com/.well-known/oauth-authorization-server',
    );
    expect(await response.json()).toEqual({
      issuer: 'https://api.example.com',
      token_endpoint: 'https://api.example.com/oauth/token',
      authorization_endpoint: 'https://api.example.com/oauth/authorize',
      scopes_supported: [...SCOPES],
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    });
  });

  it('has a test client with every scope, the same for the same seed', () => {
    api = createMockApi();
    expect(api.oauth.testClient.clientId).toMatch(/^rc_[A-Za-z0-9]{24}$/);
    expect(createMockApi().oauth.testClient).toEqual(api.oauth.testClient);
    expect(createMockApi({ seed: 2 }).oauth.testClient).not.toEqual(api.oauth.testClient);
  });

  it('serves an issuer of its own, with a path', async () => {
    api = createMockApi({ oauth: { issuer: 'https://auth.example.com/tenant-1' } });
    const metadata = await api.fetch(
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant-1',
    );
    expect(await metadata.json()).toMatchObject({
      issuer: 'https://auth.example.com/tenant-1',
      token_endpoint: 'https://auth.example.com/tenant-1/oauth/token',
    });
  });
});

describe('the token endpoint', () => {
  it('issues a bearer token with every scope of the client, never to be cached', async () => {
    api = createMockApi();
    const { status, headers, body } = await requestToken(api, { grant_type: 'client_credentials' });
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('no-store');
    expect(body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9]{48}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: SCOPES.join(' '),
    });
    expect(api.oauth.tokens).toHaveLength(1);
  });

  it('takes client_secret_post, and the request log keeps no secret', async () => {
    api = createMockApi();
    const { status } = await requestToken(
      api,
      { grant_type: 'client_credentials', scope: 'users:read' },
      'post',
    );
    expect(status).toBe(200);
    expect(JSON.stringify(api.requests)).not.toContain(api.oauth.testClient.clientSecret);
  });

  it.each([
    ['a wrong secret', { grant_type: 'client_credentials' }, 'wrong', 401, 'invalid_client'],
    ['no client authentication', { grant_type: 'client_credentials' }, null, 401, 'invalid_client'],
    ['no grant_type', {}, undefined, 400, 'invalid_request'],
    ['another grant', { grant_type: 'password' }, undefined, 400, 'unsupported_grant_type'],
    [
      'a scope it does not have',
      { grant_type: 'client_credentials', scope: 'users:read admin' },
      undefined,
      400,
      'invalid_scope',
    ],
  ] as const)('refuses %s with RFC 6749 §5.2 JSON', async (_case, form, secret, status, error) => {
    api = createMockApi();
    const client = secret === 'wrong' ? { ...api.oauth.testClient, clientSecret: 'wrong' } : secret;
    const reply = await requestToken(api, form, client);
    expect(reply.status).toBe(status);
    expect(reply.body).toEqual({ error, error_description: expect.any(String) });
    expect(reply.headers.has('www-authenticate')).toBe(secret === 'wrong');
  });

  it('grants only the scopes a client may carry', async () => {
    api = createMockApi({ oauth: { clients: [{ ...CLIENT, scopes: ['users:read'] }] } });
    const { body } = await requestToken(api, { grant_type: 'client_credentials' }, CLIENT);
    expect(body.scope).toBe('users:read');
  });
});

describe('the API and the tokens', () => {
  it('accepts an issued token with its scopes: 403 outside them', async () => {
    api = createMockApi();
    const { body } = await requestToken(api, {
      grant_type: 'client_credentials',
      scope: 'users:read',
    });
    expect((await call(api, 'GET', '/v1/users', { key: body.access_token })).status).toBe(200);
    const refused = await call(api, 'GET', '/v1/teams', { key: body.access_token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('teams:read');
  });

  it('refuses a token once it expires, and a revoked one, with 401', async () => {
    const clock = createClock();
    api = createMockApi({ now: clock.read, oauth: { tokenLifetimeSeconds: 60 } });
    const { body } = await requestToken(api, { grant_type: 'client_credentials' });
    clock.advance(59_999);
    expect((await call(api, 'GET', '/v1/users', { key: body.access_token })).status).toBe(200);
    clock.advance(1);
    expect((await call(api, 'GET', '/v1/users', { key: body.access_token })).status).toBe(401);

    const second = (await requestToken(api, { grant_type: 'client_credentials' })).body;
    api.oauth.revoke(second.access_token);
    expect((await call(api, 'GET', '/v1/users', { key: second.access_token })).status).toBe(401);
    expect(api.oauth.tokens.map((token) => token.revoked)).toEqual([false, true]);
  });

  it('scopes rate limits and Idempotency-Keys by the client, so a refreshed token keeps them', async () => {
    api = createMockApi({ oauth: { clients: [{ ...CLIENT, rateLimit: 10 }] } });
    const first = (await requestToken(api, { grant_type: 'client_credentials' }, CLIENT)).body;
    const second = (await requestToken(api, { grant_type: 'client_credentials' }, CLIENT)).body;
    const users = await call(api, 'GET', '/v1/users', { key: first.access_token });
    const create = (key: string) =>
      call(api, 'POST', '/v1/recognitions', {
        key,
        headers: { 'idempotency-key': 'retry-1' },
        body: { recipient_id: users.body.data[1].id, message: 'Thanks' },
      });
    const created = await create(first.access_token);
    const replayed = await create(second.access_token);
    expect(replayed.body.data.id).toBe(created.body.data.id);
    expect(replayed.headers.get('x-ratelimit-remaining')).toBe('7');
  });

  it('forgets its tokens on reset', async () => {
    api = createMockApi();
    const { body } = await requestToken(api, { grant_type: 'client_credentials' });
    await api.reset();
    expect(api.oauth.tokens).toEqual([]);
    expect((await call(api, 'GET', '/v1/users', { key: body.access_token })).status).toBe(401);
  });

  it('refuses options that cannot work', () => {
    expect(() => createMockApi({ oauth: { clients: [] } })).toThrow(TypeError);
    expect(() => createMockApi({ oauth: { clients: [{ ...CLIENT, clientId: 'nope' }] } })).toThrow(
      /rc_/,
    );
    expect(() => createMockApi({ oauth: { tokenLifetimeSeconds: 0 } })).toThrow(RangeError);
  });
});
