import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMockApi,
  type MockApi,
  type MockApiOptions,
} from '@employee-recognition/sdk/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, createClock } from './support.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1 that answers with the queued statuses, then 200. */
async function startReceiver() {
  const received: Received[] = [];
  const statuses: number[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    statuses,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The contract §9 signature, computed here so the test does not rely on the SDK's verifier. */
function expectedSignature(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let api: MockApi;
let clock: ReturnType<typeof createClock>;

beforeEach(async () => {
  receiver = await startReceiver();
  clock = createClock();
});
afterEach(async () => {
  await api.close();
  await receiver.close();
});

const mock = (options: MockApiOptions = {}) => {
  api = createMockApi({
    now: clock.read,
    recognitions: 20,
    webhookRetryDelaysMs: [20, 20],
    ...options,
  });
  return api;
};
const subscribe = async (events: string[], url = receiver.url) => {
  const reply = await call(api, 'POST', '/v1/webhooks', { body: { url, events } });
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string; secret: string };
};

describe('deliveries of API events', () => {
  it('POST /v1/recognitions delivers a signed recognition.created', async () => {
    mock();
    const { secret } = await subscribe(['recognition.created']);
    const recipient = api.store.users.all()[1]!.id;
    const created = await call(api, 'POST', '/v1/recognitions', {
      body: { recipient_id: recipient, message: 'Hi' },
    });
    await api.flushDeliveries();

    expect(receiver.received).toHaveLength(1);
    const [{ headers, body }] = receiver.received as [Received];
    const event = JSON.parse(body);
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_[A-Za-z0-9]{24}$/),
      type: 'recognition.created',
      created_at: '2026-11-21T12:00:00Z',
      data: created.body.data,
    });
    expect(headers['content-type']).toBe('application/json');
    expect(headers['webhook-id']).toBe(event.id);
    expect(headers['webhook-timestamp']).toBe(String(clock.now / 1000));
    expect(headers['webhook-signature']).toBe(
      expectedSignature(secret, event.id, headers['webhook-timestamp'] as string, body),
    );
    expect(api.deliveries).toEqual([
      {
        eventId: event.id,
        eventType: 'recognition.created',
        webhookId: expect.any(String),
        url: receiver.url,
        attempt: 1,
        status: 200,
        ok: true,
        time: clock.now,
      },
    ]);
  });

  it('DELETE /v1/recognitions/{id} delivers recognition.deleted with the removed record', async () => {
    mock();
    await subscribe(['recognition.deleted']);
    const recognition = api.store.recognitions.all()[0]!;
    expect((await call(api, 'DELETE', `/v1/recognitions/${recognition.id}`)).status).toBe(204);
    await api.flushDeliveries();
    expect(receiver.received.map((each) => JSON.parse(each.body))).toEqual([
      expect.objectContaining({ type: 'recognition.deleted', data: recognition }),
    ]);
  });

  it('respects subscriptions and enabled, and does not deliver replays again', async () => {
    mock();
    const all = await subscribe(['*']);
    await subscribe(['recognition.deleted']);
    const disabled = await subscribe(['recognition.created']);
    await call(api, 'PATCH', `/v1/webhooks/${disabled.id}`, { body: { enabled: false } });
    const recipient = api.store.users.all()[1]!.id;
    const send = () =>
      call(api, 'POST', '/v1/recognitions', {
        body: { recipient_id: recipient, message: 'Hi' },
        headers: { 'idempotency-key': 'k' },
      });
    await send();
    await send();
    await api.flushDeliveries();
    expect(api.deliveries.map((attempt) => attempt.webhookId)).toEqual([all.id]);
  });
});

describe('retries', () => {
  /**
   * A receiver as a fetch, under fake timers: a retry is a timer the test fires, and "no more
   * attempts" is none after hours on that clock, not a pause long enough on this machine's.
   * Timers are not counted: the platform's fetch keeps one of its own while sockets close.
   */
  function fakeReceiver(statuses: number[]) {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const sent: { headers: Record<string, string>; body: string }[] = [];
    const webhookFetch = vi.fn(async (_url: string, init: RequestInit) => {
      sent.push({ headers: init.headers as Record<string, string>, body: init.body as string });
      return new Response(null, { status: statuses.shift() ?? 200 });
    });
    /** Lets `ms` pass, and waits for any attempt that started to end. */
    const pass = async (ms: number) => {
      await vi.advanceTimersByTimeAsync(ms);
      await api.flushDeliveries();
    };
    /** The next attempt comes `ms` after the last one ended, not a millisecond earlier. */
    const retry = async (ms: number) => {
      const before = sent.length;
      await pass(ms - 1);
      expect(sent).toHaveLength(before);
      await pass(1);
      expect(sent).toHaveLength(before + 1);
    };
    /** Two hours, each attempt they start run to its end, and nothing more is sent. */
    const noMoreAttempts = async () => {
      const before = sent.length;
      await pass(3_600_000);
      await pass(3_600_000);
      expect(sent).toHaveLength(before);
    };
    return { sent, webhookFetch, retry, noMoreAttempts };
  }

  it('retries a failed delivery on the schedule with the same event id, until it succeeds', async () => {
    const { sent, webhookFetch, retry, noMoreAttempts } = fakeReceiver([500, 503]);
    try {
      mock({ webhookFetch, webhookRetryDelaysMs: [10, 20, 30] });
      const { secret } = await subscribe(['*']);
      await api.emit('user.created', { id: 'u1' });
      await retry(10);
      await retry(20);
      // Delivered: the third delay is not used.
      await noMoreAttempts();
      expect(api.deliveries.map((each) => [each.attempt, each.status, each.ok])).toEqual([
        [1, 500, false],
        [2, 503, false],
        [3, 200, true],
      ]);
      const ids = new Set(sent.map((each) => each.headers['webhook-id']));
      expect(ids.size).toBe(1);
      for (const { headers, body } of sent) {
        expect(headers['webhook-signature']).toBe(
          expectedSignature(secret, headers['webhook-id']!, headers['webhook-timestamp']!, body),
        );
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up after 1 + the number of delays', async () => {
    const { webhookFetch, retry, noMoreAttempts } = fakeReceiver([500, 500, 500, 500]);
    try {
      mock({ webhookFetch, webhookRetryDelaysMs: [5, 5] });
      await subscribe(['*']);
      await api.emit('budget.depleted', {});
      await retry(5);
      await retry(5);
      await noMoreAttempts();
      expect(api.deliveries.map((each) => each.attempt)).toEqual([1, 2, 3]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts a network error and a timeout as failures', async () => {
    // The refused connection gets a timeout no loaded machine reaches, so it fails as refused.
    mock({ webhookTimeoutMs: 60_000, webhookRetryDelaysMs: [] });
    const closed = await startReceiver();
    await closed.close();
    await subscribe(['*'], closed.url);
    await api.emit('team.created', {});
    const refused = api.deliveries;
    await api.close();

    mock({ webhookTimeoutMs: 50, webhookRetryDelaysMs: [] });
    const hanging = createServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    await subscribe(['*'], `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`);
    await api.emit('team.created', {});
    hanging.closeAllConnections();
    hanging.close();
    const deliveries = [...refused, ...api.deliveries];
    expect(deliveries).toHaveLength(2);
    expect(deliveries.every((each) => !each.ok && each.status === undefined)).toBe(true);
    expect(deliveries.map((each) => each.error)).toEqual([
      expect.stringContaining('fetch failed'),
      expect.stringContaining('No answer within 50 ms'),
    ]);
  });

  it('stops retrying for a webhook deleted or disabled meanwhile', async () => {
    vi.useFakeTimers();
    try {
      const webhookFetch = vi.fn(async () => new Response(null, { status: 500 }));
      mock({ webhookFetch, webhookRetryDelaysMs: [30] });
      const first = await subscribe(['*']);
      const second = await subscribe(['*']);
      await api.emit('reward.redeemed', {});
      expect(vi.getTimerCount()).toBe(2); // one retry each
      await call(api, 'DELETE', `/v1/webhooks/${first.id}`);
      await call(api, 'PATCH', `/v1/webhooks/${second.id}`, { body: { enabled: false } });
      await vi.advanceTimersByTimeAsync(30);
      await api.flushDeliveries();
      expect(webhookFetch).toHaveBeenCalledTimes(2);
      expect(api.deliveries).toHaveLength(2);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('uses the contract schedule by default and leaves no timer after close()', async () => {
    vi.useFakeTimers();
    try {
      const webhookFetch = vi.fn(async () => new Response(null, { status: 500 }));
      mock({ webhookFetch, webhookRetryDelaysMs: undefined });
      api.store.webhooks.insert({ url: 'https://example.com/hook', events: ['*'] });
      await api.emit('user.updated', {});
      expect(webhookFetch).toHaveBeenCalledTimes(1);
      expect(vi.getTimerCount()).toBe(1);
      await vi.advanceTimersByTimeAsync(4_999);
      expect(webhookFetch).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      // Signing runs on Web Crypto, outside the fake timers: the retry's attempt is waited for
      // to its end, not polled for on this machine's clock.
      await api.flushDeliveries();
      expect(webhookFetch).toHaveBeenCalledTimes(2);
      expect(vi.getTimerCount()).toBe(1);
      await vi.advanceTimersByTimeAsync(300_000);
      await api.flushDeliveries();
      expect(webhookFetch).toHaveBeenCalledTimes(3);
      expect(vi.getTimerCount()).toBe(1);
      await api.close();
      expect(vi.getTimerCount()).toBe(0);
      await vi.advanceTimersByTimeAsync(24 * 3_600_000);
      expect(webhookFetch).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('emit', () => {
  it('delivers any event type to subscribers and resolves after the first attempts', async () => {
    mock();
    await subscribe(['team.member_added']);
    await subscribe(['*']);
    await subscribe(['user.created']);
    const data = { team: { id: 't' }, user: { id: 'u' } };
    const event = await api.emit('team.member_added', data);
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'team.member_added',
      created_at: '2026-11-21T12:00:00Z',
      data,
    });
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received.map((each) => JSON.parse(each.body))).toEqual([event, event]);
    expect(api.deliveries).toHaveLength(2);
  });

  it('resolves at once with no subscribers, and records an attempt with a bad secret as failed', async () => {
    mock();
    expect((await api.emit('reward.deleted', {})).type).toBe('reward.deleted');
    api.store.webhooks.insert({ url: receiver.url, secret: 'not-a-secret' });
    await api.emit('reward.deleted', {});
    expect(receiver.received).toHaveLength(0);
    expect(api.deliveries[0]!.error).toContain('TypeError');
  });
});
