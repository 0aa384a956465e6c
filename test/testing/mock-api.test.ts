import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMockApi } from '@employee-recognition/sdk/testing';
import { http, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
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

describe('MSW handlers', () => {
  const api = createMockApi({ recognitions: 40 });
  const server = setupServer(...api.handlers);
  const base = api.baseUrl;
  const headers = { authorization: `Bearer ${api.testKey}` };

  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => api.reset());
  afterAll(async () => {
    server.close();
    await api.close();
  });

  it('serve the API at the base URL to plain fetch', async () => {
    const response = await fetch(`${base}/v1/recognitions?limit=5`, { headers });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(response.headers.get('x-ratelimit-limit')).toBe('100');
    const body = await response.json();
    expect(body.data).toHaveLength(5);
    expect(body.pagination.total_pages).toBe(8);
  });

  it('keep state across requests', async () => {
    const recipient = api.store.users.all()[1]!.id;
    const created = await fetch(`${base}/v1/recognitions`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ recipient_id: recipient, message: 'Through MSW' }),
    });
    expect(created.status).toBe(201);
    const { data } = await created.json();
    const fetched = await fetch(`${base}/v1/recognitions/${data.id}`, { headers });
    expect((await fetched.json()).data).toEqual(data);
    const deleted = await fetch(`${base}/v1/recognitions/${data.id}`, {
      method: 'DELETE',
      headers,
    });
    expect(deleted.status).toBe(204);
  });

  it('answer errors, 401 and 404, in the contract shape', async () => {
    const unauthorized = await fetch(`${base}/v1/teams`);
    expect(unauthorized.status).toBe(401);
    expect((await unauthorized.json()).error.code).toBe('unauthorized');
    const missing = await fetch(`${base}/v1/nope`, { headers });
    expect(missing.status).toBe(404);
  });

  it('turn a dropped connection into a rejected fetch', async () => {
    api.faults.dropNext('GET /v1/teams');
    await expect(fetch(`${base}/v1/teams`, { headers })).rejects.toThrow(TypeError);
    expect((await fetch(`${base}/v1/teams`, { headers })).status).toBe(200);
  });

  it('pass through a fault’s raw body', async () => {
    api.faults.failNext('GET /v1/users', { status: 502, body: '<h1>Bad Gateway</h1>' });
    const response = await fetch(`${base}/v1/users`, { headers });
    expect(response.status).toBe(502);
    expect(await response.text()).toBe('<h1>Bad Gateway</h1>');
  });

  it('serve the OpenAPI document beside the API', async () => {
    const response = await fetch(`${base}/openapi.json`);
    expect(response.status).toBe(200);
    expect((await response.json()).openapi).toMatch(/^3\.1\./);
  });

  it('leave other hosts to onUnhandledRequest', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(fetch('https://elsewhere.example/v1/teams')).rejects.toThrow();
  });

  it('let webhook deliveries reach a local receiver through passthrough', async () => {
    const received: string[] = [];
    const receiver = createServer((request, response) => {
      received.push(request.headers['webhook-id'] as string);
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    try {
      server.use(http.all(`${url}/*`, () => passthrough()));
      api.store.webhooks.insert({ url: `${url}/hook`, events: ['*'] });
      const event = await api.emit('team.created', { id: 't' });
      expect(received).toEqual([event.id]);
      expect(api.deliveries[0]).toMatchObject({ ok: true, status: 204 });
    } finally {
      server.resetHandlers();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
