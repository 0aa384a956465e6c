import { createMockApi, type MockApi } from '@employee-recognition/sdk/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call } from './support.js';

let api: MockApi;
let recipient: string;

beforeEach(() => {
  api = createMockApi({ recognitions: 20 });
  recipient = api.store.users.all()[1]!.id;
});
afterEach(() => api.close());

const auth = () => ({ authorization: `Bearer ${api.testKey}` });

describe('failNext', () => {
  it('fails the next N matching calls with the contract error body, then lets calls through', async () => {
    api.faults.failNext('GET /v1/recognitions', { times: 2, status: 503, retryAfter: 2 });
    for (let i = 0; i < 2; i++) {
      const reply = await call(api, 'GET', '/v1/recognitions?limit=1');
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual({ error: { code: 'unavailable', message: 'Injected fault.' } });
      expect(reply.headers.get('retry-after')).toBe('2');
      expect(reply.headers.get('x-request-id')).toMatch(/^req_/);
    }
    expect((await call(api, 'GET', '/v1/recognitions?limit=1')).status).toBe(200);
  });

  it('defaults to one 503 without Retry-After and matches only its method and path', async () => {
    api.faults.failNext('GET /v1/recognitions/:id');
    expect((await call(api, 'GET', '/v1/recognitions')).status).toBe(200);
    const { id } = api.store.recognitions.all()[0]!;
    expect((await call(api, 'DELETE', `/v1/recognitions/${id}`)).status).toBe(204);
    const reply = await call(api, 'GET', `/v1/recognitions/${api.store.recognitions.all()[0]!.id}`);
    expect(reply.status).toBe(503);
    expect(reply.headers.get('retry-after')).toBeNull();
    expect(
      (await call(api, 'GET', `/v1/recognitions/${api.store.recognitions.all()[0]!.id}`)).status,
    ).toBe(200);
  });

  it('sends a raw body such as a proxy’s HTML page, an HTTP-date Retry-After and extra headers', async () => {
    const html = '<html><body><h1>502 Bad Gateway</h1></body></html>';
    api.faults.failNext('/v1/users', {
      status: 502,
      body: html,
      retryAfter: 'Wed, 21 Oct 2026 07:28:00 GMT',
      headers: { server: 'nginx' },
    });
    const response = await api.fetch('/v1/users', { headers: auth() });
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('retry-after')).toBe('Wed, 21 Oct 2026 07:28:00 GMT');
    expect(response.headers.get('server')).toBe('nginx');
    expect(await response.text()).toBe(html);
  });

  it('sends truncated JSON, empty and custom JSON bodies', async () => {
    api.faults.failNext('GET /v1/teams', { status: 500, body: '{"error": {"code": "internal_' });
    api.faults.failNext('GET /v1/teams', { status: 500, body: '' });
    api.faults.failNext('GET /v1/teams', {
      status: 429,
      body: { error: { code: 'rate_limited', message: 'slow' } },
    });
    const texts = [];
    for (let i = 0; i < 3; i++)
      texts.push(await (await api.fetch('/v1/teams', { headers: auth() })).text());
    expect(texts).toEqual([
      '{"error": {"code": "internal_',
      '',
      '{"error":{"code":"rate_limited","message":"slow"}}',
    ]);
  });

  it('applies faults in the order armed, and clear disarms them', async () => {
    api.faults.failNext('* /v1/*', { status: 500 });
    api.faults.failNext('GET /v1/teams', { status: 503 });
    expect((await call(api, 'GET', '/v1/teams')).status).toBe(500);
    expect((await call(api, 'GET', '/v1/teams')).status).toBe(503);
    api.faults.failNext('GET /v1/teams', { times: 5 });
    api.faults.clear();
    expect((await call(api, 'GET', '/v1/teams')).status).toBe(200);
  });

  it('rejects malformed routes and counts', () => {
    expect(() => api.faults.failNext('recognitions')).toThrow(TypeError);
    expect(() => api.faults.failNext('GET /v1/a extra')).toThrow(TypeError);
    expect(() => api.faults.dropNext('/v1/teams', { times: 0 })).toThrow(RangeError);
  });
});

describe('delayNext', () => {
  it('holds the request, then answers normally', async () => {
    vi.useFakeTimers();
    try {
      api.faults.delayNext('GET /v1/teams', 5000);
      let settled = false;
      const pending = call(api, 'GET', '/v1/teams').then((reply) => {
        settled = true;
        return reply;
      });
      await vi.advanceTimersByTimeAsync(4999);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await pending).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('honours the abort signal and clears its timer', async () => {
    vi.useFakeTimers();
    try {
      api.faults.delayNext('GET /v1/teams', 60_000);
      const controller = new AbortController();
      const pending = api.fetch('/v1/teams', { headers: auth(), signal: controller.signal });
      await vi.advanceTimersByTimeAsync(10);
      expect(vi.getTimerCount()).toBe(1);
      controller.abort();
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is cancelled by close()', async () => {
    api.faults.delayNext('GET /v1/teams', 60_000);
    const pending = api.fetch('/v1/teams', { headers: auth() });
    await api.close();
    await expect(pending).rejects.toThrow('closed');
  });

  it('rejects at once for a signal aborted before the call', async () => {
    await expect(
      api.fetch('/v1/teams', { headers: auth(), signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(api.requests).toHaveLength(0);
  });
});

describe('dropNext and dropResponseNext', () => {
  it('dropNext: handle answers Response.error(), fetch rejects with a TypeError, nothing is done', async () => {
    api.faults.dropNext('POST /v1/recognitions', { times: 2 });
    const request = () =>
      new Request(`${api.baseUrl}/v1/recognitions`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: JSON.stringify({ recipient_id: recipient, message: 'hi' }),
      });
    expect((await api.handle(request())).type).toBe('error');
    await expect(api.fetch(request())).rejects.toThrow(TypeError);
    expect(api.store.recognitions.size).toBe(20);
    expect((await api.fetch(request())).status).toBe(201);
  });

  it('dropResponseNext: the work is done but the answer lost; a retry with the same key is replayed', async () => {
    api.faults.dropResponseNext('POST /v1/recognitions');
    const send = () =>
      api.fetch('/v1/recognitions', {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json', 'idempotency-key': 'retry-me' },
        body: JSON.stringify({ recipient_id: recipient, message: 'once only' }),
      });
    await expect(send()).rejects.toThrow(TypeError);
    expect(api.store.recognitions.size).toBe(21);
    const retry = await send();
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(api.store.recognitions.size).toBe(21);
    expect(api.store.recognitions.all().filter((r) => r.message === 'once only')).toHaveLength(1);
  });
});
