import { createMockApi } from '@employee-recognition/sdk/testing';
import { describe, expect, it } from 'vitest';
import openapi from '../../openapi.json' with { type: 'json' };
import { call, createClock } from './support.js';

describe('createMockApi', () => {
  it('gives every response its own X-Request-Id', async () => {
    const api = createMockApi();
    api.faults.failNext('GET /v1/teams');
    const replies = [
      await call(api, 'GET', '/v1/teams'),
      await call(api, 'GET', '/v1/teams'),
      await call(api, 'GET', '/v1/teams', { key: null }),
      await call(api, 'GET', '/v1/unknown'),
      await call(api, 'POST', '/v1/recognitions', { body: '{' }),
    ];
    const ids = replies.map((reply) => reply.headers.get('x-request-id'));
    expect(ids).toEqual(['req_000001', 'req_000002', 'req_000003', 'req_000004', 'req_000005']);
  });

  it('fetch takes absolute URLs, relative paths and Request objects', async () => {
    const api = createMockApi({ baseUrl: 'https://mock.example/api' });
    const headers = { authorization: `Bearer ${api.testKey}` };
    expect((await api.fetch('https://mock.example/api/v1/teams', { headers })).status).toBe(200);
    expect((await api.fetch('/v1/teams', { headers })).status).toBe(200);
    expect(
      (await api.fetch(new URL('https://mock.example/api/v1/teams'), { headers })).status,
    ).toBe(200);
    expect(
      (await api.fetch(new Request('https://mock.example/api/v1/teams', { headers }))).status,
    ).toBe(200);
    expect(api.requests.map((request) => request.path)).toEqual(Array(4).fill('/v1/teams'));
  });

  it('reset restores the seeded state and forgets requests, faults, limits and keys', async () => {
    const clock = createClock();
    const api = createMockApi({ now: clock.read, keys: [{ key: 'k', rateLimit: 10 }] });
    const seeded = api.store.recognitions.all();
    const recipient = api.store.users.all()[1]!.id;
    const body = { recipient_id: recipient, message: 'hi' };
    await call(api, 'POST', '/v1/recognitions', { body, headers: { 'idempotency-key': 'once' } });
    for (let i = 0; i < 9; i++) await call(api, 'GET', '/v1/teams');
    api.faults.failNext('GET /v1/teams');
    await api.reset();
    expect(api.store.recognitions.all()).toEqual(seeded);
    expect(api.requests).toHaveLength(0);
    const reply = await call(api, 'GET', '/v1/teams');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-ratelimit-remaining')).toBe('9');
    const again = await call(api, 'POST', '/v1/recognitions', {
      body,
      headers: { 'idempotency-key': 'once' },
    });
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('GET /openapi.json', () => {
  it('serves the OpenAPI document without a credential, as JSON with a request id', async () => {
    const api = createMockApi();
    const response = await api.fetch('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-request-id')).toBe('req_000001');
    expect(await response.json()).toEqual(openapi);
    expect(api.requests).toMatchObject([{ method: 'GET', path: '/openapi.json' }]);
  });

  it('serves nothing else beside the API', async () => {
    const api = createMockApi();
    expect((await call(api, 'POST', '/openapi.json', { body: {} })).status).toBe(404);
    expect((await call(api, 'GET', '/openapi.yaml')).status).toBe(404);
  });
});
