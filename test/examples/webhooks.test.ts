import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import worker from '../../examples/webhooks/cloudflare-worker.js';
import { createWebhookApp } from '../../examples/webhooks/express.js';
import { POST } from '../../examples/webhooks/nextjs-route.js';
import { createWebhookServer, type ReceiverOptions } from '../../examples/webhooks/node-http.js';
import { ENV_WEBHOOK_SECRET } from '../../src/contract.js';
import type { WebhookHeaders } from '../../src/testing/webhook-signer.js';
import {
  BODY,
  NOW_MS,
  OTHER_SECRET,
  recognitionCreated,
  SECRET,
  sign,
} from '../webhooks/fixtures.js';

const json = { 'content-type': 'application/json' };
const tampered = BODY.replace('"points":10', '"points":1000');

let log: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW_MS });
  log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
});

async function listen(server: Server): Promise<string> {
  if (!server.listening) {
    await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  }
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

describe.each([
  ['node:http', createWebhookServer],
  ['Express', (options: ReceiverOptions) => createServer(createWebhookApp(options))],
] as const)('the %s receiver', (_name, create) => {
  let server: Server;
  let onEvent: Mock<ReceiverOptions['onEvent']>;

  async function post(body: string, headers: WebhookHeaders) {
    const url = await listen(server);
    return fetch(url, { method: 'POST', headers: { ...json, ...headers }, body });
  }

  beforeEach(() => {
    onEvent = vi.fn(async () => undefined);
    server = create({ secret: SECRET, onEvent });
  });
  afterEach(() => close(server));

  it('answers 204 to a signed delivery and hands over the verified event', async () => {
    const response = await post(BODY, await sign());
    expect(response.status).toBe(204);
    expect(onEvent).toHaveBeenCalledWith(recognitionCreated);
  });

  it(`verifies with ${ENV_WEBHOOK_SECRET} when created without a secret`, async () => {
    vi.stubEnv(ENV_WEBHOOK_SECRET, SECRET);
    await close(server);
    server = create({ onEvent });
    const response = await post(BODY, await sign());
    expect(response.status).toBe(204);
    expect(onEvent).toHaveBeenCalledWith(recognitionCreated);
  });

  it('answers 400 with the reason to a tampered delivery, without handling it', async () => {
    const response = await post(tampered, await sign());
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_signature' });
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('answers 500 when handling a genuine event fails, so the service retries it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    onEvent.mockRejectedValueOnce(new Error('database down'));
    const response = await post(BODY, await sign());
    expect(response.status).toBe(500);
  });
});

describe('the Express receiver', () => {
  it('needs the JSON content type for express.raw to keep the body, else invalid_payload', async () => {
    const server = createServer(createWebhookApp({ secret: SECRET, onEvent: async () => {} }));
    try {
      const response = await fetch(await listen(server), {
        method: 'POST',
        headers: { 'content-type': 'text/plain', ...(await sign()) },
        body: BODY,
      });
      expect(await response.json()).toEqual({ error: 'invalid_payload' });
    } finally {
      await close(server);
    }
  });
});

describe('the Next.js route', () => {
  const request = async (body: string, secret = SECRET) =>
    new Request('https://app.example/api/webhooks', {
      method: 'POST',
      headers: { ...json, ...(await sign(BODY, secret)) },
      body,
    });

  it('answers 204 to a signed delivery and handles the narrowed event', async () => {
    vi.stubEnv(ENV_WEBHOOK_SECRET, SECRET);
    const response = await POST(await request(BODY));
    expect(response.status).toBe(204);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('Ada recognised Grace'));
  });

  it('answers 400 with the reason to a tampered delivery', async () => {
    vi.stubEnv(ENV_WEBHOOK_SECRET, SECRET);
    const response = await POST(await request(tampered));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_signature' });
  });

  it('answers 500 while its secret is missing, so deliveries are retried once it is set', async () => {
    vi.stubEnv(ENV_WEBHOOK_SECRET, '');
    const response = await POST(await request(BODY));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'invalid_secret' });
  });
});

describe('the Cloudflare Worker', () => {
  const request = async (body: string, headers: WebhookHeaders) =>
    new Request('https://worker.example/webhooks', {
      method: 'POST',
      headers: { ...json, ...headers },
      body,
    });

  it('answers 204 to a signed delivery and handles the event', async () => {
    const response = await worker.fetch(await request(BODY, await sign()), {
      RECOGNITION_WEBHOOK_SECRET: SECRET,
    });
    expect(response.status).toBe(204);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('Ada recognised Grace'));
  });

  it('accepts a delivery carrying one signature per secret during a rotation', async () => {
    const headers = await sign(BODY, [OTHER_SECRET, SECRET]);
    const response = await worker.fetch(await request(BODY, headers), {
      RECOGNITION_WEBHOOK_SECRET: OTHER_SECRET,
    });
    expect(response.status).toBe(204);
  });

  it('answers 400 with the reason to a delivery signed with another secret', async () => {
    const response = await worker.fetch(await request(BODY, await sign(BODY, OTHER_SECRET)), {
      RECOGNITION_WEBHOOK_SECRET: SECRET,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_signature' });
  });
});
