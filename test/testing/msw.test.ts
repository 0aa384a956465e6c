import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as testing from '@employee-recognition/sdk/testing';
import { createHandlers, createMockApi } from '@employee-recognition/sdk/testing/msw';
import { http, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as mswEntry from '../../src/testing/msw.js';

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

describe('the /testing/msw entry', () => {
  it('offers everything /testing does, so moving to it changes only the import path', () => {
    for (const name of Object.keys(testing)) {
      expect(mswEntry, name).toHaveProperty(name);
      if (name !== 'createMockApi')
        expect(mswEntry[name as keyof typeof mswEntry]).toBe(testing[name as keyof typeof testing]);
    }
  });

  it('createMockApi gives the mock of /testing with its handlers, one object', async () => {
    const api = createMockApi({ seed: 7, recognitions: 3 });
    // The API, its OpenAPI document, and the mock authorization server's metadata and token endpoint.
    expect(api.handlers).toHaveLength(4);
    expect(api.store.recognitions.size).toBe(3);
    const response = await api.fetch('/v1/teams', {
      headers: { authorization: `Bearer ${api.testKey}` },
    });
    expect(response.status).toBe(200);
    await api.close();
  });

  it('createHandlers serves a mock made by /testing, such as the api of startMockServer', async () => {
    const api = testing.createMockApi({ baseUrl: 'https://other.example/api' });
    const server = setupServer(...createHandlers(api));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const response = await fetch('https://other.example/api/v1/users?limit=2', {
        headers: { authorization: `Bearer ${api.testKey}` },
      });
      expect(response.status).toBe(200);
      expect((await response.json()).data).toHaveLength(2);
      expect(api.requests).toMatchObject([{ method: 'GET', path: '/v1/users' }]);
    } finally {
      server.close();
      await api.close();
    }
  });

  it('the handlers serve the mock authorization server: a client-credentials token the API accepts', async () => {
    const api = createMockApi({ seed: 3 });
    const server = setupServer(...api.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const { clientId, clientSecret } = api.oauth.testClient;
      const token = await fetch(api.oauth.tokenUrl, {
        method: 'POST',
        headers: {
          authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      });
      expect(token.status).toBe(200);
      const { access_token: accessToken } = (await token.json()) as { access_token: string };
      const teams = await fetch(`${api.baseUrl}/v1/teams`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(teams.status).toBe(200);
    } finally {
      server.close();
      await api.close();
    }
  });
});
