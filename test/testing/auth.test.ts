import { createMockApi, type MockApi } from '@employee-recognition/sdk/testing';
import { describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/contract.js';
import { call } from './support.js';

const ROUTES = [
  ['GET', '/v1/recognitions', 'recognitions:read'],
  ['GET', '/v1/recognitions/ID', 'recognitions:read'],
  ['POST', '/v1/recognitions', 'recognitions:write'],
  ['DELETE', '/v1/recognitions/ID', 'recognitions:write'],
  ['GET', '/v1/users', 'users:read'],
  ['GET', '/v1/users/ID', 'users:read'],
  ['GET', '/v1/rewards', 'rewards:read'],
  ['GET', '/v1/rewards/ID', 'rewards:read'],
  ['GET', '/v1/teams', 'teams:read'],
  ['GET', '/v1/teams/ID', 'teams:read'],
  ['GET', '/v1/webhooks', 'webhooks:read'],
  ['GET', '/v1/webhooks/ID', 'webhooks:read'],
  ['POST', '/v1/webhooks', 'webhooks:write'],
  ['PATCH', '/v1/webhooks/ID', 'webhooks:write'],
  ['DELETE', '/v1/webhooks/ID', 'webhooks:write'],
  ['GET', '/v1/budgets', 'budgets:read'],
  ['GET', '/v1/budgets/ID', 'budgets:read'],
  ['GET', '/v1/analytics/summary', 'analytics:read'],
] as const;
const SOME_ID = '00000000-0000-4000-8000-000000000000';

describe('the default key', () => {
  it('is an rk_test_ key with 32 alphanumerics, the same for the same seed', () => {
    const api = createMockApi();
    expect(api.testKey).toMatch(/^rk_test_[A-Za-z0-9]{32}$/);
    expect(createMockApi().testKey).toBe(api.testKey);
    expect(createMockApi({ seed: 2 }).testKey).not.toBe(api.testKey);
  });
});

describe('401 unauthorized', () => {
  const api = createMockApi();
  it.each([
    ['no Authorization header', null, undefined],
    ['an unknown key', 'rk_test_000000000000000000000000000000', undefined],
    ['another scheme', null, 'Basic dXNlcjpwYXNz'],
    ['a bare credential', null, 'KEY'],
    ['an empty bearer', null, 'Bearer '],
  ])('for %s', async (_name, key, authorization) => {
    const headers: Record<string, string> = {};
    if (authorization) headers.authorization = authorization.replace('KEY', api.testKey);
    const reply = await call(api, 'GET', '/v1/recognitions', { key, headers });
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    expect(reply.body.error.message).not.toContain(api.testKey);
    expect(reply.headers.get('x-request-id')).toMatch(/^req_\d{6}$/);
    expect(reply.headers.get('x-ratelimit-limit')).toBe('100');
  });

  it('accepts the scheme in any case', async () => {
    const reply = await call(api, 'GET', '/v1/teams', {
      key: null,
      headers: { authorization: `bearer ${api.testKey}` },
    });
    expect(reply.status).toBe(200);
  });
});

describe('scopes', () => {
  it.each(ROUTES)(
    '403 insufficient_scope naming the scope for %s %s',
    async (method, path, scope) => {
      const api: MockApi = createMockApi({
        keys: [{ key: 'limited', scopes: SCOPES.filter((each) => each !== scope) }],
      });
      const reply = await call(api, method, path.replace('ID', SOME_ID), {
        body: method === 'POST' || method === 'PATCH' ? {} : undefined,
      });
      expect(reply.status).toBe(403);
      expect(reply.body.error.code).toBe('insufficient_scope');
      expect(reply.body.error.message).toContain(scope);
    },
  );

  it.each(ROUTES)('%s %s passes with only its scope', async (method, path, scope) => {
    const api = createMockApi({ keys: [{ key: 'narrow', scopes: [scope] }] });
    const reply = await call(api, method, path.replace('ID', SOME_ID), {
      body: method === 'POST' || method === 'PATCH' ? {} : undefined,
    });
    expect([200, 404, 422]).toContain(reply.status);
  });

  it('accepts any registered credential, such as an OAuth token', async () => {
    const api = createMockApi({
      keys: [{ key: 'eyJhbGciOiJIUzI1NiJ9.e30.sig', scopes: ['teams:read'] }],
    });
    expect(api.testKey).toBe('eyJhbGciOiJIUzI1NiJ9.e30.sig');
    expect((await call(api, 'GET', '/v1/teams')).status).toBe(200);
  });
});
