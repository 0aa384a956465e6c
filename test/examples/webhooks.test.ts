/**
 * Every receiver in examples/webhooks, run: the Node ones as real servers on 127.0.0.1 receiving
 * the CLI's `trigger`, the Fetch ones called as their platform calls them. They share one
 * receiver (examples/webhooks/receiver.ts), so each delivery has an id of its own.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import bunDeno from '../../examples/webhooks/bun-deno.js';
import worker from '../../examples/webhooks/cloudflare-worker.js';
import { app as expressApp } from '../../examples/webhooks/express.js';
import hono from '../../examples/webhooks/hono.js';
import { POST } from '../../examples/webhooks/nextjs-route.js';
import { server as nodeServer } from '../../examples/webhooks/node-http.js';
import { action } from '../../examples/webhooks/remix-action.js';
import { trigger } from '../../src/cli/trigger.js';
import { ENV_WEBHOOK_SECRET } from '../../src/contract.js';
import { signWebhook } from '../../src/testing/webhook-signer.js';
import { recognitionCreated, SECRET } from '../webhooks/fixtures.js';

let log: ReturnType<typeof vi.spyOn>;
let nextId = 0;
beforeEach(() => {
  vi.stubEnv(ENV_WEBHOOK_SECRET, SECRET);
  log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
});

/** A signed delivery of recognition.created under a fresh id, as a Request to `url`. */
async function delivery(url = 'https://app.example/webhooks', secret = SECRET, tamper = false) {
  const id = `evt_example_${++nextId}`;
  const body = JSON.stringify({ ...recognitionCreated, id });
  const headers = await signWebhook(body, secret, { id });
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: tamper ? body.replace('"points":10', '"points":1000') : body,
  });
}

const handledLine = expect.stringContaining('Ada recognised Grace');

describe.each([
  ['node:http', () => nodeServer],
  ['Express', async () => (await import('node:http')).createServer(expressApp)],
])('the %s example', (_name, serve) => {
  let server: Server;
  let url: string;

  beforeEach(async () => {
    server = await serve();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("handles a delivery from the CLI's trigger", async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    expect(await trigger.run(['recognition.created', '--url', url, '--secret', SECRET])).toBe(0);
    expect(log).toHaveBeenCalledWith(expect.stringContaining(' recognised '));
  });

  it('answers 400 to a tampered delivery, without handling it', async () => {
    const response = await fetch(await delivery(url, SECRET, true));
    expect(response.status).toBe(400);
    expect(log).not.toHaveBeenCalled();
  });
});

describe('the Express example', () => {
  it('keeps express.json() for the rest of the API', async () => {
    const { createServer } = await import('node:http');
    const server = createServer(expressApp);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/api/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      expect(await response.json()).toEqual({ a: 1 });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe.each([
  ['Next.js route', (request: Request) => POST(request)],
  ['Remix action', (request: Request) => action({ request })],
  ['Bun and Deno module', (request: Request) => bunDeno.fetch(request)],
  ['Hono app', (request: Request) => hono.fetch(request)],
])('the %s example', (_name, handle) => {
  it('answers 204 to a signed delivery and handles it', async () => {
    const response = await handle(await delivery());
    expect(response.status).toBe(204);
    expect(log).toHaveBeenCalledWith(handledLine);
  });

  it('answers 400 to a tampered delivery', async () => {
    expect((await handle(await delivery(undefined, SECRET, true))).status).toBe(400);
  });

  it(`answers 500 while ${ENV_WEBHOOK_SECRET} is unset, so deliveries are retried once it is`, async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubEnv(ENV_WEBHOOK_SECRET, '');
    expect((await handle(await delivery())).status).toBe(500);
  });
});

describe('the Cloudflare Worker example', () => {
  it('verifies with the env binding and handles the event after answering, in ctx.waitUntil', async () => {
    vi.stubEnv(ENV_WEBHOOK_SECRET, '');
    const kept: Promise<unknown>[] = [];
    const ctx = { waitUntil: (promise: Promise<unknown>) => void kept.push(promise) };
    const response = await worker.fetch(await delivery(), { [ENV_WEBHOOK_SECRET]: SECRET }, ctx);
    expect(response.status).toBe(202);
    await Promise.all(kept);
    expect(log).toHaveBeenCalledWith(handledLine);
  });

  it('answers 400 to a delivery signed with another secret', async () => {
    const other = 'whsec_c2Vjb25kIHNlY3JldCwgZm9yIHJvdGF0aW9uIHRlc3Rz';
    const response = await worker.fetch(await delivery(undefined, other), {
      [ENV_WEBHOOK_SECRET]: SECRET,
    });
    expect(response.status).toBe(400);
  });
});

describe('the shared receiver', () => {
  it('reports a failing handler through onError and answers 500', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    log.mockImplementationOnce(() => {
      throw new Error('database down');
    });
    expect((await POST(await delivery())).status).toBe(500);
    expect(error).toHaveBeenCalledWith(
      expect.stringMatching(/^Webhook evt_example_\d+ failed:/),
      expect.any(Error),
    );
  });
});
