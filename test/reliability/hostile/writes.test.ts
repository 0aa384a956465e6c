/**
 * No doubled or silently dropped write. A caller's Idempotency-Key, in any spelling or as
 * `idempotencyKey`, is the only key sent. A 3xx answer to POST, PATCH or DELETE is never followed
 * as another method or without its body: only a same-origin 307/308 is followed, with method,
 * body and key intact; anything else is an ApiError saying the outcome of the write is unknown.
 * No redirect to another origin carries the client's headers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, Client, type RequestOptions } from '@employee-recognition/sdk';
import {
  checkNoLeaks,
  closeAllServers,
  EMPTY_PAGE,
  expectTyped,
  headerValues,
  type HostileServer,
  json,
  RECOGNITION,
  rejection,
  type SeenRequest,
  startHostileServer,
} from '../../support/hostile-server.js';

const API_KEY = `rk_test_${'N0DoubledWrites'.repeat(2)}`;
const WEBHOOK = {
  id: '3f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
  url: 'https://hooks.example/recognition',
  events: ['*'],
  description: null,
  enabled: false,
  created_at: '2026-11-21T09:30:00Z',
};
const CREATE = {
  recipient_id: RECOGNITION.recipient.id,
  message: 'Thanks for the review',
  points: 5,
};

checkNoLeaks();
afterEach(closeAllServers);

/** Answers each write as the contract says: 201 for a create, 200 for an update, 204 for a delete. */
function answerWrite(request: SeenRequest, response: Parameters<typeof json>[0]) {
  if (request.method === 'POST') json(response, 201, { data: RECOGNITION });
  else if (request.method === 'PATCH') json(response, 200, { data: WEBHOOK });
  else if (request.method === 'DELETE') {
    response.writeHead(204);
    response.end();
  } else json(response, 200, EMPTY_PAGE);
}

function client(server: HostileServer, options: Record<string, unknown> = {}) {
  return new Client({ apiKey: API_KEY, baseUrl: server.url, maxRetries: 0, ...options });
}

/** The three writes of the contract, by method. */
const WRITES = {
  POST: (c: Client, options?: RequestOptions) => c.recognitions.create(CREATE, options),
  PATCH: (c: Client, options?: RequestOptions) =>
    c.webhooks.update(WEBHOOK.id, { enabled: false }, options),
  DELETE: (c: Client, options?: RequestOptions) => c.recognitions.delete(RECOGNITION.id, options),
};

describe("a caller's Idempotency-Key is the only one sent", () => {
  const spellings = ['Idempotency-Key', 'IDEMPOTENCY-KEY', 'idempotency-key', 'iDeMpOtEnCy-kEy'];
  for (const method of ['POST', 'PATCH'] as const) {
    for (const name of spellings) {
      it(`${method} with headers: { '${name}': 'order-42' }`, async () => {
        const server = await startHostileServer(answerWrite);
        await WRITES[method](client(server), { headers: { [name]: 'order-42' } });
        expect(server.requests).toHaveLength(1);
        expect(headerValues(server.requests[0]!, 'idempotency-key')).toEqual(['order-42']);
      });
    }

    it(`${method} with idempotencyKey: 'order-42'`, async () => {
      const server = await startHostileServer(answerWrite);
      await WRITES[method](client(server), { idempotencyKey: 'order-42' });
      expect(headerValues(server.requests[0]!, 'idempotency-key')).toEqual(['order-42']);
    });

    it(`${method} with both the option and a header: exactly one key`, async () => {
      const server = await startHostileServer(answerWrite);
      await WRITES[method](client(server), {
        idempotencyKey: 'order-42',
        headers: { 'IDEMPOTENCY-KEY': 'order-42' },
      });
      expect(headerValues(server.requests[0]!, 'idempotency-key')).toEqual(['order-42']);
    });

    it(`${method} retried after a 503: the same single key on every attempt`, async () => {
      const server = await startHostileServer((request, response, index) => {
        if (index === 0)
          json(
            response,
            503,
            { error: { code: 'unavailable', message: 'busy' } },
            { 'retry-after': '0' },
          );
        else answerWrite(request, response);
      });
      await WRITES[method](client(server, { maxRetries: 1 }), {
        headers: { 'Idempotency-Key': 'order-42' },
      });
      expect(server.requests).toHaveLength(2);
      for (const request of server.requests) {
        expect(headerValues(request, 'idempotency-key')).toEqual(['order-42']);
      }
    });
  }

  it('without a key of its own, a POST carries exactly one generated key', async () => {
    const server = await startHostileServer(answerWrite);
    await WRITES.POST(client(server));
    expect(headerValues(server.requests[0]!, 'idempotency-key')).toHaveLength(1);
    expect(headerValues(server.requests[0]!, 'idempotency-key')[0]).not.toContain(',');
  });
});

describe('a redirect answering a write is never followed as another method or without its body', () => {
  for (const method of ['POST', 'PATCH', 'DELETE'] as const) {
    for (const status of [301, 302, 303]) {
      it(`${status} to ${method}: ApiError 'unexpected_redirect', outcome unknown, nothing followed`, async () => {
        const server = await startHostileServer((request, response) => {
          if (request.url.startsWith('/v1/moved')) answerWrite(request, response);
          else {
            response.writeHead(status, { location: '/v1/moved' });
            response.end();
          }
        });
        const error = await rejection(WRITES[method](client(server)));
        expectTyped(error);
        expect(error).toBeInstanceOf(ApiError);
        expect(error).toMatchObject({ status, code: 'unexpected_redirect', method });
        expect((error as ApiError).message).toMatch(/unknown/i);
        expect(server.requests.map((request) => request.url)).not.toContain('/v1/moved');
        expect(server.requests.every((request) => request.method === method)).toBe(true);
      });
    }

    for (const status of [307, 308]) {
      it(`same-origin ${status} to ${method}: followed with method, body and key intact`, async () => {
        const server = await startHostileServer((request, response) => {
          if (request.url.startsWith('/v1/moved')) answerWrite(request, response);
          else {
            response.writeHead(status, { location: '/v1/moved' });
            response.end();
          }
        });
        await WRITES[method](client(server), { idempotencyKey: 'order-42' });
        expect(server.requests).toHaveLength(2);
        const [first, second] = server.requests as [SeenRequest, SeenRequest];
        expect(second.url).toBe('/v1/moved');
        expect(second.method).toBe(method);
        expect(second.body).toBe(first.body);
        if (method !== 'DELETE') {
          expect(JSON.parse(second.body)).toEqual(JSON.parse(first.body));
          expect(headerValues(second, 'idempotency-key')).toEqual(['order-42']);
        }
        expect(second.headers.authorization).toBe(`Bearer ${API_KEY}`);
      });

      it(`cross-origin ${status} to ${method}: refused, the other origin sees nothing`, async () => {
        const other = await startHostileServer(answerWrite);
        const server = await startHostileServer((_request, response) => {
          response.writeHead(status, { location: `${other.url}/v1/moved` });
          response.end();
        });
        const error = await rejection(WRITES[method](client(server)));
        expectTyped(error);
        expect(error).toMatchObject({ status, code: 'unexpected_redirect' });
        expect((error as ApiError).message).toMatch(/unknown/i);
        expect(other.requests).toHaveLength(0);
      });
    }
  }
});

describe('fetchOptions cannot undo the rules for writes', () => {
  it("redirect: 'follow', method and body in fetchOptions: a 302 to a create is still refused", async () => {
    const server = await startHostileServer((request, response) => {
      if (request.url.startsWith('/v1/moved')) answerWrite(request, response);
      else {
        response.writeHead(302, { location: '/v1/moved' });
        response.end();
      }
    });
    // The type leaves these out; a JavaScript caller can still pass them.
    const fetchOptions = { redirect: 'follow', method: 'GET', body: 'x' } as never;
    const error = await rejection(
      WRITES.POST(client(server, { fetchOptions }), { fetchOptions, idempotencyKey: 'order-42' }),
    );
    expect(error).toMatchObject({ code: 'unexpected_redirect' });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.method).toBe('POST');
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ message: CREATE.message });
    expect(headerValues(server.requests[0]!, 'idempotency-key')).toEqual(['order-42']);
  });
});

describe("a redirect to another origin carries none of the client's headers", () => {
  for (const status of [301, 302, 303, 307, 308]) {
    it(`GET answered ${status} to another origin: no Authorization, no custom header`, async () => {
      const other = await startHostileServer((request, response) => answerWrite(request, response));
      const server = await startHostileServer((_request, response) => {
        response.writeHead(status, { location: `${other.url}/v1/users` });
        response.end();
      });
      const page = await client(server, { headers: { 'X-Tenant': 'tenant-secret-1' } }).users.list(
        {},
        { headers: { 'X-Trace': 'trace-secret-2' } },
      );
      expect(page.data).toEqual([]);
      expect(server.requests[0]!.headers['x-tenant']).toBe('tenant-secret-1');
      expect(other.requests).toHaveLength(1);
      const seen = other.requests[0]!;
      expect(seen.headers.authorization).toBeUndefined();
      expect(seen.headers['x-tenant']).toBeUndefined();
      expect(seen.headers['x-trace']).toBeUndefined();
      expect(JSON.stringify(seen.rawHeaders)).not.toContain(API_KEY);
    });
  }

  it('a redirect away and back: no credential on the way back either', async () => {
    let home: HostileServer | undefined;
    const other = await startHostileServer((_request, response) => {
      response.writeHead(302, { location: `${home!.url}/v1/users?back=1` });
      response.end();
    });
    home = await startHostileServer((request, response) => {
      if (request.url.includes('back=1')) answerWrite(request, response);
      else {
        response.writeHead(302, { location: `${other.url}/v1/users` });
        response.end();
      }
    });
    await client(home, { headers: { 'X-Tenant': 'tenant-secret-1' } }).users.list();
    const back = home.requests.find((request) => request.url.includes('back=1'));
    expect(back).toBeDefined();
    expect(back!.headers.authorization).toBeUndefined();
    expect(back!.headers['x-tenant']).toBeUndefined();
  });

  it('a redirect loop ends after at most 5 redirects, typed', async () => {
    const server = await startHostileServer((_request, response) => {
      response.writeHead(302, { location: '/v1/users' });
      response.end();
    });
    const error = await rejection(client(server).users.list());
    expectTyped(error);
    expect(server.requests.length).toBeLessThanOrEqual(6);
  });

  it('a redirect to a non-HTTP scheme: typed, nothing followed', async () => {
    const server = await startHostileServer((_request, response) => {
      response.writeHead(302, { location: 'file:///etc/passwd' });
      response.end();
    });
    expectTyped(await rejection(client(server).users.list()));
    expect(server.requests).toHaveLength(1);
  });
});
