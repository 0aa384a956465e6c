import { createMockApi, DEFAULT_REFERENCE_DATE } from '@employee-recognition/sdk/testing';
import { describe, expect, it } from 'vitest';
import { call, createClock } from './support.js';

describe('createMockApi', () => {
  it('defaults to the real service’s base URL and drops a trailing / or /v1', () => {
    expect(createMockApi().baseUrl).toBe('https://api.employee-recognition.example');
    expect(createMockApi({ baseUrl: 'http://localhost:9999/v1/' }).baseUrl).toBe(
      'http://localhost:9999',
    );
    expect(DEFAULT_REFERENCE_DATE).toBe('2026-11-21T09:30:00Z');
  });

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

  it('404 not_found for unknown routes and methods a route does not take', async () => {
    const api = createMockApi();
    for (const [method, path] of [
      ['GET', '/v1/nothing'],
      ['PUT', '/v1/recognitions'],
      ['POST', '/v1/users'],
      ['GET', '/v1/recognitions/a/b'],
      ['GET', '/v2/recognitions'],
      ['GET', '/v1/recognitions/'],
    ]) {
      const reply = await call(api, method!, path!);
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({
        error: { code: 'not_found', message: expect.stringContaining(path!) },
      });
    }
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

  it('records requests without the credential', async () => {
    const clock = createClock();
    const api = createMockApi({ now: clock.read });
    const recipient = api.store.users.all()[1]!.id;
    await call(api, 'POST', '/v1/recognitions?x=1', {
      body: { recipient_id: recipient, message: 'hi' },
      headers: { 'idempotency-key': 'abc' },
    });
    await call(api, 'POST', '/v1/recognitions', { body: 'not json' });
    await call(api, 'GET', '/v1/teams', { key: null, headers: { authorization: api.testKey } });
    expect(api.requests[0]).toEqual({
      id: 'req_000001',
      method: 'POST',
      path: '/v1/recognitions',
      query: { x: '1' },
      headers: {
        authorization: 'Bearer [redacted]',
        'content-type': 'application/json',
        'idempotency-key': 'abc',
      },
      body: { recipient_id: recipient, message: 'hi' },
      time: clock.now,
    });
    expect(api.requests[1]!.body).toBe('not json');
    expect(api.requests[2]!.headers.authorization).toBe('[redacted]');
    expect(JSON.stringify(api.requests)).not.toContain(api.testKey);
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
