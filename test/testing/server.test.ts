import { AsyncResource, createHook, executionAsyncId } from 'node:async_hooks';
import { request as httpRequest } from 'node:http';
import { type MockServer, startMockServer } from '@employee-recognition/sdk/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

let server: MockServer;
let headers: Record<string, string>;

beforeAll(async () => {
  server = await startMockServer({ recognitions: 50 });
  headers = { authorization: `Bearer ${server.api.testKey}` };
});
afterAll(() => server.close());

describe('startMockServer', () => {
  it('listens on 127.0.0.1 on a free port, with the mock’s base URL set to it', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.api.baseUrl).toBe(server.url);
  });

  it('serves the API over real HTTP, with CORS', async () => {
    const response = await fetch(`${server.url}/v1/recognitions?limit=3`, { headers });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(response.headers.get('x-ratelimit-remaining')).not.toBeNull();
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toMatch(
      /x-request-id.*x-ratelimit-remaining.*retry-after.*idempotent-replayed/i,
    );
    expect((await response.json()).data).toHaveLength(3);
  });

  it('serves the OpenAPI document without a credential', async () => {
    const response = await fetch(`${server.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect((await response.json()).paths['/v1/recognitions']).toBeDefined();
  });

  it('passes bodies, methods and headers through', async () => {
    const recipient = server.api.store.users.all()[1]!.id;
    const send = () =>
      fetch(`${server.url}/v1/recognitions`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': 'over-http' },
        body: JSON.stringify({ recipient_id: recipient, message: 'Über HTTP ✓' }),
      });
    const created = await send();
    expect(created.status).toBe(201);
    const { data } = await created.json();
    expect(data.message).toBe('Über HTTP ✓');
    expect((await send()).headers.get('idempotent-replayed')).toBe('true');
    const deleted = await fetch(`${server.url}/v1/recognitions/${data.id}`, {
      method: 'DELETE',
      headers,
    });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect(deleted.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers a CORS preflight with 204', async () => {
    const response = await fetch(`${server.url}/v1/recognitions`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, idempotency-key',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('PATCH');
    expect(response.headers.get('access-control-allow-headers')).toMatch(
      /authorization.*content-type.*idempotency-key/i,
    );
  });

  it('destroys the socket for a dropped connection, so fetch rejects, and a lost answer too', async () => {
    server.api.faults.dropNext('GET /v1/teams');
    await expect(fetch(`${server.url}/v1/teams`, { headers })).rejects.toThrow(TypeError);
    const before = server.api.store.recognitions.size;
    const recipient = server.api.store.users.all()[1]!.id;
    server.api.faults.dropResponseNext('POST /v1/recognitions');
    await expect(
      fetch(`${server.url}/v1/recognitions`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ recipient_id: recipient, message: 'lost answer' }),
      }),
    ).rejects.toThrow(TypeError);
    expect(server.api.store.recognitions.size).toBe(before + 1);
    expect((await fetch(`${server.url}/v1/teams`, { headers })).status).toBe(200);
  });

  it('sends a fault’s HTML body as is', async () => {
    server.api.faults.failNext('GET /v1/users', {
      status: 503,
      body: '<html>Maintenance</html>',
      retryAfter: 120,
    });
    const response = await fetch(`${server.url}/v1/users`, { headers });
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('retry-after')).toBe('120');
    expect(await response.text()).toBe('<html>Maintenance</html>');
  });

  it('aborts a delayed request when the client goes away', async () => {
    server.api.faults.delayNext('GET /v1/rewards', 60_000);
    const controller = new AbortController();
    const arrived = whenHandled(server);
    const pending = fetch(`${server.url}/v1/rewards`, { headers, signal: controller.signal });
    await arrived; // the mock holds the request, so the abort reaches a delay in progress
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect((await fetch(`${server.url}/v1/rewards`, { headers })).status).toBe(200);
  });
});

describe('close', () => {
  it('closes idle and open connections and stops listening', async () => {
    const other = await startMockServer();
    const auth = { authorization: `Bearer ${other.api.testKey}` };
    // A kept-alive idle connection, and one held open by a delay.
    expect((await fetch(`${other.url}/v1/teams`, { headers: auth })).status).toBe(200);
    other.api.faults.delayNext('GET /v1/teams', 60_000);
    const arrived = whenHandled(other);
    const held = new Promise<string>((resolve) => {
      httpRequest(`${other.url}/v1/teams`, { headers: auth }, () => resolve('answered'))
        .on('error', (error) => resolve(error.message))
        .end();
    });
    // Closed only once the mock holds the request: closed before, the connection would be
    // refused or reset instead of hung up.
    await arrived;
    await other.close();
    expect(await held).toBe('socket hang up');
    await expect(fetch(`${other.url}/v1/teams`, { headers: auth })).rejects.toThrow(TypeError);
  });

  it('leaves no server, socket or timer handle behind', async () => {
    // Counts only the handles opened on behalf of this test (its async descendants), so the
    // sockets and timers of other tests, opening and closing meanwhile, cannot blur the count.
    const handles = trackHandles();
    const other = await handles.run(() =>
      startMockServer({
        webhookRetryDelaysMs: [60_000],
        webhookFetch: async () => new Response(null, { status: 500 }),
      }),
    );
    await handles.run(async () => {
      other.api.store.webhooks.insert({ events: ['*'] });
      await other.api.emit('user.created', {}); // fails, so a retry is scheduled
      other.api.faults.delayNext('GET /v1/teams', 60_000);
      const arrived = whenHandled(other);
      const held = httpRequest(`${other.url}/v1/teams`, { agent: false });
      held.on('error', () => {}).end();
      await arrived;
    });
    expect(new Set(handles.open())).toEqual(new Set(['TCPSERVERWRAP', 'TCPWRAP', 'Timeout']));
    await other.close();
    // Waits for the handles' own destroy events, not for a time: on a loaded machine Node may
    // report a cleared timer's end more than a second later (vi.waitFor's default once failed
    // here in a full run beside other work). A handle left open fails by the test's timeout.
    await handles.closed();
    expect(handles.open()).toEqual([]);
    handles.stop();
  });

  it('reports a port in use', async () => {
    const port = Number(new URL(server.url).port);
    await expect(startMockServer({ port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

// Resolves when the mock behind `server` starts on its next request.
function whenHandled(server: MockServer): Promise<void> {
  return new Promise((resolve) => {
    const handle = server.api.handle;
    vi.spyOn(server.api, 'handle').mockImplementationOnce((request) => {
      resolve();
      return handle(request);
    });
  });
}

// The servers, sockets and timers created by what `run` runs, and by what that starts in turn.
function trackHandles() {
  const root = new AsyncResource('handle-tracking');
  const descendants = new Set([root.asyncId()]);
  const open = new Map<number, string>();
  let whenClosed: (() => void) | undefined;
  const hook = createHook({
    // By the context that creates a resource, not by its trigger: a promise awaited outside
    // `run` is triggered by one inside, yet what follows the await is not the server's doing.
    init(id, type) {
      if (!descendants.has(executionAsyncId())) return;
      descendants.add(id);
      if (type === 'TCPSERVERWRAP' || type === 'TCPWRAP' || type === 'Timeout') open.set(id, type);
    },
    destroy(id) {
      if (open.delete(id) && open.size === 0) whenClosed?.();
    },
  }).enable();
  return {
    run: <T>(work: () => T): T => root.runInAsyncScope(work),
    open: () => [...open.values()],
    /** Resolves once every handle tracked has been destroyed. */
    closed: () =>
      open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (whenClosed = resolve)),
    stop: () => hook.disable(),
  };
}

describe('startMockServer with a dialect', () => {
  it('speaks it over HTTP, its headers exposed to browser pages, and the SDK pages and paces by them', async () => {
    const { Client } = await import('@employee-recognition/sdk');
    const dialected = await startMockServer({
      recognitions: 50,
      dialect: { pagination: 'link', rateLimitHeaders: 'ratelimit-structured', errors: 'problem' },
    });
    try {
      const response = await fetch(`${dialected.url}/v1/recognitions?limit=20`, {
        headers: { authorization: `Bearer ${dialected.api.testKey}` },
      });
      expect(response.headers.get('link')).toMatch(/rel="next"$/);
      expect(response.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/);
      expect(response.headers.get('access-control-expose-headers')).toMatch(
        /ratelimit-policy.*link.*date/,
      );
      const client = new Client({ baseUrl: dialected.url, apiKey: dialected.api.testKey });
      const all = await client.recognitions.list({ limit: 20 }).toArray({ limit: 100 });
      expect(all).toHaveLength(50);
      const { rateLimit } = await client.teams.list().withResponse();
      expect(rateLimit).toMatchObject({ family: 'ratelimit-structured', limit: 100 });
    } finally {
      await dialected.close();
    }
  });

  it('refuses a dialect it does not know, leaving nothing listening on the port', async () => {
    const { closedPort } = await import('../support/http-server.js');
    const port = Number(new URL(await closedPort()).port);
    await expect(startMockServer({ port, dialect: { errors: 'xml' as never } })).rejects.toThrow(
      /dialect\.errors must be one of/,
    );
    const again = await startMockServer({ port });
    await again.close();
  });
});
