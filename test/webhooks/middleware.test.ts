/**
 * The receiver's adapters in the frameworks customers run them in, each a real server on
 * 127.0.0.1 at a free port: node:http, Express 4 and 5, Connect, Hono and a bare Fetch handler on
 * the Node server adapter. Deliveries are signed by the CLI's `trigger` and by the svix library.
 *
 * Time: 23 s of a full run on two shared cores, most of it the CLI's `trigger` started as a
 * process once per framework (2 to 4 s each under load): the signatures checked are the ones a
 * customer's own `trigger` run makes, not ones this process computes.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import connect from 'connect';
import express5 from 'express';
import express4 from 'express4';
import { Hono } from 'hono';
import { Webhook as Svix } from 'svix';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { trigger } from '../../src/cli/trigger.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/contract.js';
import { signWebhook } from '../../src/testing/webhook-signer.js';
import {
  createNodeMiddleware,
  createWebhookReceiver,
  createWebMiddleware,
  type NodeMiddlewareOptions,
  type WebhookEvent,
  type WebhookReceiver,
} from '../../src/webhooks/index.js';
import { recognitionCreated, SECRET } from './fixtures.js';

type Framework = (receiver: WebhookReceiver, options?: NodeMiddlewareOptions) => Server;

/** Each framework with the receiver on `/webhooks` for every method, as customers mount it. */
const FRAMEWORKS: Record<string, Framework> = {
  'node:http': (receiver, options) =>
    createServer(createNodeMiddleware(receiver, { path: '/webhooks', ...options })),
  'Express 5': (receiver, options) => {
    const app = express5();
    app.use('/webhooks', createNodeMiddleware(receiver, options));
    return createServer(app);
  },
  'Express 4': (receiver, options) => {
    const app = express4();
    app.use('/webhooks', createNodeMiddleware(receiver, options));
    return createServer(app);
  },
  Connect: (receiver, options) => {
    const app = connect();
    app.use('/webhooks', createNodeMiddleware(receiver, options));
    return createServer(app);
  },
  Hono: (receiver, options) => {
    const app = new Hono();
    const handler = createWebMiddleware(receiver, options);
    app.all('/webhooks', (c) => handler(c.req.raw));
    return createAdaptorServer({ fetch: app.fetch }) as Server;
  },
  // The bare Fetch handler, as Bun.serve and Deno.serve call it.
  'Fetch handler': (receiver, options) =>
    createAdaptorServer({
      fetch: createWebMiddleware(receiver, { path: '/webhooks', ...options }),
    }) as Server,
};

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(close));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** `body` signed by svix, a Standard Webhooks implementation nobody here wrote. */
function svixHeaders(body: string, id: string): Record<string, string> {
  const timestamp = new Date();
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': new Svix(SECRET).sign(id, timestamp, body),
  };
}

function eventBody(id: string, type = 'recognition.created'): string {
  return JSON.stringify({ ...recognitionCreated, id, type });
}

/** A POST of `body` signed by svix under `id`. */
function post(url: string, body: string, id: string, headers: Record<string, string> = {}) {
  return fetch(url, { method: 'POST', headers: { ...svixHeaders(body, id), ...headers }, body });
}

/** Runs `employee-recognition trigger` in this process; resolves to its exit code. */
async function runTrigger(type: string, url: string): Promise<number> {
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  return trigger.run([type, '--url', url, '--secret', SECRET]);
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe.each(Object.entries(FRAMEWORKS))('the receiver in %s', (_name, framework) => {
  let handled: WebhookEvent[];
  let receiver: WebhookReceiver;

  beforeEach(() => {
    handled = [];
    receiver = createWebhookReceiver({ secret: SECRET }).onAny((event) => void handled.push(event));
  });

  it("answers 204 to deliveries of every event type sent by the CLI's trigger", async () => {
    const url = await listen(framework(receiver));
    for (const type of WEBHOOK_EVENT_TYPES) expect(await runTrigger(type, url)).toBe(0);
    expect(handled.map((event) => event.type)).toEqual(WEBHOOK_EVENT_TYPES);
  });

  it('answers 204 to a delivery signed by svix and hands the handlers its event', async () => {
    const url = await listen(framework(receiver));
    const response = await post(url, eventBody('evt_svix'), 'evt_svix');
    expect(response.status).toBe(204);
    expect(handled).toEqual([{ ...recognitionCreated, id: 'evt_svix' }]);
  });

  it('answers 400 with an empty body to a forgery, without handling it', async () => {
    const url = await listen(framework(receiver));
    const headers = svixHeaders(eventBody('evt_1'), 'evt_1');
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: eventBody('evt_1').replace('"points":10', '"points":1000'),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('');
    expect(handled).toEqual([]);
  });

  it('answers 405 with Allow: POST to other methods', async () => {
    const url = await listen(framework(receiver));
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await fetch(url, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('answers 413 to a body over the cap, without handling it', async () => {
    const url = await listen(framework(receiver, { maxBodyBytes: 1000 }));
    const body = JSON.stringify({ ...recognitionCreated, padding: 'x'.repeat(1000) });
    const response = await post(url, body, 'evt_big');
    expect(response.status).toBe(413);
    expect(handled).toEqual([]);
    const fits = await post(url, eventBody('evt_small'), 'evt_small');
    expect(fits.status).toBe(204);
  });

  it('answers 500 when a handler fails, and 204 to the retry that succeeds', async () => {
    const onError = vi.fn();
    receiver.onError(onError).on('recognition.created', () => {
      if (onError.mock.calls.length === 0) throw new Error('database down');
    });
    const url = await listen(framework(receiver));
    expect((await post(url, eventBody('evt_1'), 'evt_1')).status).toBe(500);
    expect(onError).toHaveBeenCalledTimes(1);
    expect((await post(url, eventBody('evt_1'), 'evt_1')).status).toBe(204);
  });

  it('answers 409 to a copy during handling and 204 to a copy after, handling it once', async () => {
    const started = gate();
    const slow = gate();
    const handler = vi.fn(() => {
      started.open();
      return slow.opened;
    });
    receiver.on('recognition.created', handler);
    const url = await listen(framework(receiver));
    const first = post(url, eventBody('evt_1'), 'evt_1');
    await started.opened;
    expect((await post(url, eventBody('evt_1'), 'evt_1')).status).toBe(409);
    slow.open();
    expect((await first).status).toBe(204);
    expect((await post(url, eventBody('evt_1'), 'evt_1')).status).toBe(204);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('answers 202 before the handlers run when given waitUntil', async () => {
    const slow = gate();
    const kept: Promise<unknown>[] = [];
    receiver.on('recognition.created', () => slow.opened);
    const url = await listen(framework(receiver, { waitUntil: (promise) => kept.push(promise) }));
    expect((await post(url, eventBody('evt_1'), 'evt_1')).status).toBe(202);
    expect(handled).toHaveLength(1);
    slow.open();
    await Promise.all(kept);
  });
});

describe('the raw body in Express', () => {
  const logger = () => ({ debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() });

  describe.each([
    ['Express 4', express4 as unknown as typeof express5],
    ['Express 5', express5],
  ])('%s', (_name, express) => {
    it('answers 500, never invalid_signature, and says once what to change, after express.json()', async () => {
      const log = logger();
      const handler = vi.fn();
      const app = express();
      app.use(express.json());
      app.post(
        '/webhooks',
        createNodeMiddleware(createWebhookReceiver({ secret: SECRET, logger: log }).onAny(handler)),
      );
      const url = await listen(createServer(app));
      expect((await post(url, eventBody('evt_1'), 'evt_1')).status).toBe(500);
      expect((await post(url, eventBody('evt_2'), 'evt_2')).status).toBe(500);
      expect(handler).not.toHaveBeenCalled();
      expect(log.error).toHaveBeenCalledTimes(1);
      expect(log.error.mock.calls[0]![0]).toMatch(/before express\.json\(\).*express\.raw/);
    });

    it('reads the stream itself when express.json() let a delivery of another type pass', async () => {
      const app = express();
      app.use(express.json());
      const handler = vi.fn();
      app.post(
        '/webhooks',
        createNodeMiddleware(createWebhookReceiver({ secret: SECRET }).onAny(handler)),
      );
      const url = await listen(createServer(app));
      const response = await post(url, eventBody('evt_1'), 'evt_1', {
        'content-type': 'text/plain',
      });
      expect(response.status).toBe(204);
      expect(handler).toHaveBeenCalledTimes(1);
    });

    it.each([
      ['express.raw()', () => express.raw({ type: 'application/json' })],
      ['express.text()', () => express.text({ type: 'application/json' })],
      // The usual way to keep both: the JSON parser's verify hook saves the raw Buffer.
      [
        'req.rawBody from express.json({ verify })',
        () =>
          express.json({
            verify: (request, _response, buffer) => {
              (request as { rawBody?: Buffer }).rawBody = buffer;
            },
          }),
      ],
    ])('uses the body as %s buffered it', async (_parser, parser) => {
      const app = express();
      app.use(parser());
      const handler = vi.fn();
      app.post(
        '/webhooks',
        createNodeMiddleware(createWebhookReceiver({ secret: SECRET }).onAny(handler)),
      );
      const url = await listen(createServer(app));
      expect((await post(url, eventBody('evt_1'), 'evt_1')).status).toBe(204);
      expect(handler).toHaveBeenCalledWith(
        { ...recognitionCreated, id: 'evt_1' },
        expect.anything(),
      );
    });
  });
});

describe('the Node handler', () => {
  it('goes on to next() for other paths when given a path, and answers 404 without next', async () => {
    const receiver = createWebhookReceiver({ secret: SECRET });
    const app = express5();
    app.use(createNodeMiddleware(receiver, { path: '/webhooks' }));
    app.get('/health', (_request, response) => void response.send('ok'));
    const url = await listen(createServer(app));
    expect(await (await fetch(url.replace('/webhooks', '/health'))).text()).toBe('ok');
    const bare = await listen(createServer(createNodeMiddleware(receiver, { path: '/webhooks' })));
    expect((await fetch(bare.replace('/webhooks', '/other'), { method: 'POST' })).status).toBe(404);
    expect((await post(`${bare}?source=test`, eventBody('evt_q'), 'evt_q')).status).toBe(204);
  });

  it('joins a body that arrives in chunks into the bytes that were signed', async () => {
    const handler = vi.fn();
    const receiver = createWebhookReceiver({ secret: SECRET }).onAny(handler);
    const url = new URL(await listen(createServer(createNodeMiddleware(receiver))));
    const body = eventBody('evt_chunked');
    const headers = svixHeaders(body, 'evt_chunked');
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest(url, { method: 'POST', headers });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      request.on('error', reject);
      const bytes = Buffer.from(body);
      request.write(bytes.subarray(0, 10));
      request.write(bytes.subarray(10, 200));
      request.end(bytes.subarray(200));
    });
    expect(status).toBe(204);
    expect(handler).toHaveBeenCalledWith(
      { ...recognitionCreated, id: 'evt_chunked' },
      expect.anything(),
    );
  });

  it('answers 413 to a chunked body that grows past the cap', async () => {
    const receiver = createWebhookReceiver({ secret: SECRET });
    const url = new URL(
      await listen(createServer(createNodeMiddleware(receiver, { maxBodyBytes: 1000 }))),
    );
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest(url, {
        method: 'POST',
        headers: { 'transfer-encoding': 'chunked' },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      request.on('error', reject);
      request.write('x'.repeat(600));
      request.end('x'.repeat(600));
    });
    expect(status).toBe(413);
  });
});

describe('the Fetch handler', () => {
  const SIGNED_AT = new Date();
  async function request(body: BodyInit, init: RequestInit = {}) {
    const text = eventBody('evt_1');
    const headers = await signWebhook(text, SECRET, { id: 'evt_1', timestamp: SIGNED_AT });
    return new Request('https://worker.example/webhooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers, ...(init.headers as object) },
      body,
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
  }

  it("serves a Worker: the secret from env's binding, the handlers kept alive by ctx.waitUntil", async () => {
    const handler = vi.fn();
    const fetchHandler = createWebMiddleware(createWebhookReceiver().onAny(handler), {
      waitUntil: true,
    });
    const kept: Promise<unknown>[] = [];
    const ctx = { waitUntil: (promise: Promise<unknown>) => void kept.push(promise) };
    const response = await fetchHandler(
      await request(eventBody('evt_1')),
      { RECOGNITION_WEBHOOK_SECRET: SECRET },
      ctx,
    );
    expect(response.status).toBe(202);
    expect(kept).toHaveLength(1);
    await Promise.all(kept);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('handles before answering when waitUntil is true but the platform gives no ctx', async () => {
    const handler = vi.fn();
    const fetchHandler = createWebMiddleware(
      createWebhookReceiver({ secret: SECRET }).onAny(handler),
      {
        waitUntil: true,
      },
    );
    expect((await fetchHandler(await request(eventBody('evt_1')))).status).toBe(204);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('answers 413 past the default cap of 1 MiB, declared or streamed', async () => {
    const fetchHandler = createWebMiddleware(createWebhookReceiver({ secret: SECRET }));
    const big = new Uint8Array(1024 * 1024 + 1);
    expect((await fetchHandler(await request(big))).status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    expect((await fetchHandler(await request(stream))).status).toBe(413);
  });

  it('joins a streamed body into the bytes that were signed', async () => {
    const handler = vi.fn();
    const fetchHandler = createWebMiddleware(
      createWebhookReceiver({ secret: SECRET }).onAny(handler),
    );
    const bytes = new TextEncoder().encode(eventBody('evt_1'));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 100)
          controller.enqueue(bytes.slice(at, at + 100));
        controller.close();
      },
    });
    expect((await fetchHandler(await request(stream))).status).toBe(204);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('answers 500 to a request whose body the framework already read', async () => {
    const log = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const fetchHandler = createWebMiddleware(
      createWebhookReceiver({ secret: SECRET, logger: log }),
    );
    const used = await request(eventBody('evt_1'));
    await used.json();
    expect((await fetchHandler(used)).status).toBe(500);
    expect(log.error).toHaveBeenCalledTimes(1);
  });

  it('answers 404 to other paths when given a path', async () => {
    const fetchHandler = createWebMiddleware(createWebhookReceiver({ secret: SECRET }), {
      path: '/hooks',
    });
    expect((await fetchHandler(await request(eventBody('evt_1')))).status).toBe(404);
  });
});
