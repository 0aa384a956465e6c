/**
 * syncWebhooks and rotateWebhookSecret against the kit's mock over real HTTP: the SDK's own
 * client lists, creates, updates and deletes; the mock delivers real events to a real node:http
 * receiver that verifies them with the secret sync returned.
 *
 * Time: 19 s of a full run on two shared cores, spread over 56 tests of 0.2 to 1.3 s: each is
 * real HTTP to a fresh mock and receiver (no state shared between tests), none waits on a clock.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, type ClientOptions } from '@employee-recognition/sdk';
import { type MockServer, startMockServer } from '@employee-recognition/sdk/testing';
import { createHash } from 'node:crypto';
import { InvalidResponseError } from '@employee-recognition/sdk';
import {
  createNodeMiddleware,
  createWebhookReceiver,
  rotateWebhookSecret,
  syncWebhooks,
  WebhookSyncError,
} from '@employee-recognition/sdk/webhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listedWebhook } from './fixtures.js';

let server: MockServer;
let writes: string[];
/** Called as the mock starts each delivery attempt, a retry included. */
let attemptStarted = () => {};

beforeEach(async () => {
  server = await startMockServer({
    recognitions: 10,
    webhookRetryDelaysMs: [20, 20, 20],
    webhookFetch: (url, init) => {
      attemptStarted();
      return fetch(url, init);
    },
  });
  writes = [];
});

/**
 * Waits, attempt by attempt, until the mock's deliveries satisfy `done`: each retry is awaited
 * as it starts and to its end, so no pause on this machine's clock decides whether it came.
 */
async function deliveriesUntil(done: () => boolean): Promise<void> {
  await server.api.flushDeliveries();
  while (!done()) {
    await new Promise<void>((resolve) => (attemptStarted = resolve));
    await server.api.flushDeliveries();
  }
}
afterEach(async () => {
  await server.close();
});

/** A client of the mock whose every write (any method but GET) is counted by an afterResponse hook. */
function client(options: ClientOptions = {}): Client {
  return new Client({
    apiKey: server.api.testKey,
    baseUrl: server.url,
    ...options,
    hooks: {
      afterResponse: [
        ({ method, path }) => {
          if (method !== 'GET') writes.push(`${method} ${path}`);
        },
      ],
    },
  });
}

const URL_ = 'http://127.0.0.1:9/webhooks';
const noop = () => {};
/** A webhook for URL_ as the service lists it. */
const listed = listedWebhook(URL_);

/** The mock's webhooks for `url`, as the service holds them. */
const webhooksAt = (url: string) =>
  server.api.store.webhooks.all().filter((webhook) => webhook.url === url);

describe('syncWebhooks', () => {
  it('creates the subscription, writes nothing the second time, and changes only events for a new handler', async () => {
    const receiver = createWebhookReceiver().on('recognition.created', noop);
    const first = await syncWebhooks(client(), receiver, { url: URL_ });
    expect(first.plan).toEqual([
      {
        operation: 'create',
        reason: 'missing',
        params: { url: URL_, events: ['recognition.created'] },
      },
    ]);
    expect(first.done).toEqual(first.plan);
    expect(first.secret).toMatch(/^whsec_/);
    expect(first.webhook).toMatchObject({
      url: URL_,
      events: ['recognition.created'],
      enabled: true,
    });
    expect(first.webhook).not.toHaveProperty('secret');
    expect(writes).toEqual(['POST /v1/webhooks']);

    writes = [];
    const second = await syncWebhooks(client(), receiver, { url: URL_ });
    expect(second).toMatchObject({ plan: [], done: [], webhook: { id: first.webhook!.id } });
    expect(second.secret).toBeUndefined();
    expect(writes).toEqual([]);

    receiver.on('team', noop);
    const third = await syncWebhooks(client(), receiver, { url: URL_ });
    const events = [
      'recognition.created',
      'team.created',
      'team.updated',
      'team.deleted',
      'team.member_added',
      'team.member_removed',
    ];
    expect(third.plan).toEqual([
      { operation: 'update', webhookId: first.webhook!.id, params: { events } },
    ]);
    expect(writes).toEqual([`PATCH /v1/webhooks/${first.webhook!.id}`]);
    expect(third.webhook).toMatchObject({ id: first.webhook!.id, events });
    expect(third.secret).toBeUndefined();
    expect(webhooksAt(URL_)).toHaveLength(1);
  });

  it('subscribes an onAny receiver to ["*"] and a group to its types', async () => {
    const any = await syncWebhooks(client(), createWebhookReceiver().onAny(noop), {
      url: 'http://127.0.0.1:9/any',
    });
    expect(any.webhook?.events).toEqual(['*']);
    const group = await syncWebhooks(client(), createWebhookReceiver().on('budget', noop), {
      url: 'http://127.0.0.1:9/budgets',
    });
    expect(group.webhook?.events).toEqual(['budget.created', 'budget.updated', 'budget.depleted']);
  });

  it('delivers recognition.created from recognitions.create to a node:http receiver verifying with the secret sync returned', async () => {
    const handled: string[] = [];
    let secret = '';
    const receiver = createWebhookReceiver({ secret: () => secret }).on(
      'recognition.created',
      (event) => void handled.push(event.data.message),
    );
    const app = await listen(createNodeMiddleware(receiver, { path: '/webhooks' }));
    try {
      const result = await syncWebhooks(client(), receiver, { url: app.url });
      secret = result.secret!;
      await client().recognitions.create({
        recipient_id: colleagues()[0]!.id,
        message: 'Thanks for the sync!',
      });
      await server.api.flushDeliveries();
      expect(handled).toEqual(['Thanks for the sync!']);
      expect(server.api.deliveries).toMatchObject([
        { eventType: 'recognition.created', webhookId: result.webhook!.id, status: 204, ok: true },
      ]);
    } finally {
      await app.close();
    }
  });

  it('recovers the same webhook and secret after the create answer was lost, with no second webhook', async () => {
    const receiver = createWebhookReceiver().on('recognition', noop);
    server.api.faults.dropResponseNext('POST /v1/webhooks');
    const lost = await syncWebhooks(client({ maxRetries: 0 }), receiver, { url: URL_ }).catch(
      (error: unknown) => error,
    );
    expect(lost).toBeInstanceOf(WebhookSyncError);
    expect(lost).toMatchObject({ reason: 'write_failed', done: [] });
    expect((lost as Error).message).toContain('recoverSecret');
    const [created] = webhooksAt(URL_);
    expect(created).toBeDefined();

    // A plain rerun sees the webhook in step: it writes nothing and has no secret to give.
    expect(await syncWebhooks(client(), receiver, { url: URL_ })).toMatchObject({ plan: [] });

    const recovered = await syncWebhooks(client(), receiver, { url: URL_, recoverSecret: true });
    expect(recovered.plan).toEqual([{ operation: 'recover_secret', webhookId: created!.id }]);
    expect(recovered.webhook?.id).toBe(created!.id);
    expect(recovered.secret).toBe(created!.secret);
    expect(webhooksAt(URL_)).toHaveLength(1);
  });

  it("gets the secret within one run when the SDK's own retry replays the lost create", async () => {
    server.api.faults.dropResponseNext('POST /v1/webhooks');
    const result = await syncWebhooks(client(), createWebhookReceiver().onAny(noop), { url: URL_ });
    const [only, ...others] = webhooksAt(URL_);
    expect(others).toEqual([]);
    expect(result.secret).toBe(only!.secret);
  });

  it('sends the create with a key derived from what it creates, showing nothing of the URL', async () => {
    const url = 'http://127.0.0.1:9/webhooks?token=hush-hush';
    await syncWebhooks(client(), createWebhookReceiver().onAny(noop), { url });
    const create = server.api.requests.find((request) => request.method === 'POST');
    const key = create?.headers['idempotency-key'];
    // A SHA-256 of the create's body, so nothing of the URL (or its token) shows.
    const digest = createHash('sha256')
      .update(JSON.stringify([{ url, events: ['*'] }]))
      .digest('hex');
    expect(key).toBe(`webhook-sync-${digest}`);
    // The same subscription elsewhere (say, after the first was deleted) derives the same key.
    server.api.store.webhooks.delete(webhooksAt(url)[0]!.id);
    await syncWebhooks(client(), createWebhookReceiver().onAny(noop), { url });
    const creates = server.api.requests.filter((request) => request.method === 'POST');
    expect(creates.map((request) => request.headers['idempotency-key'])).toEqual([
      key,
      key,
      expect.not.stringMatching(key!),
    ]);
  });

  it('creates a new webhook, not the replay of one deleted since, under the same key', async () => {
    const receiver = createWebhookReceiver().onAny(noop);
    const first = await syncWebhooks(client(), receiver, { url: URL_ });
    await client().webhooks.delete(first.webhook!.id);
    const second = await syncWebhooks(client(), receiver, { url: URL_ });
    const [now] = webhooksAt(URL_);
    expect(second.webhook?.id).toBe(now!.id);
    expect(second.webhook?.id).not.toBe(first.webhook!.id);
    expect(second.secret).toBe(now!.secret);
  });

  it('plans without writing on a dry run', async () => {
    const receiver = createWebhookReceiver().on('user', noop);
    writes = [];
    const plan = await syncWebhooks(client(), receiver, { url: URL_, dryRun: true });
    expect(plan).toMatchObject({ done: [], webhook: undefined, plan: [{ operation: 'create' }] });
    expect(writes).toEqual([]);
    expect(webhooksAt(URL_)).toEqual([]);
  });

  it('enables a disabled subscription again, or keeps it paused with enabled: false', async () => {
    const receiver = createWebhookReceiver().onAny(noop);
    const { webhook } = await syncWebhooks(client(), receiver, { url: URL_ });
    await client().webhooks.update(webhook!.id, { enabled: false });
    const enabled = await syncWebhooks(client(), receiver, { url: URL_ });
    expect(enabled.plan).toEqual([
      { operation: 'update', webhookId: webhook!.id, params: { enabled: true } },
    ]);
    expect(webhooksAt(URL_)[0]?.enabled).toBe(true);
    const paused = await syncWebhooks(client(), receiver, { url: URL_, enabled: false });
    expect(paused.plan).toEqual([
      { operation: 'update', webhookId: webhook!.id, params: { enabled: false } },
    ]);
    expect(webhooksAt(URL_)[0]?.enabled).toBe(false);
  });

  it('keeps the description in step only when one is given', async () => {
    const receiver = createWebhookReceiver().onAny(noop);
    await syncWebhooks(client(), receiver, { url: URL_, description: 'Payroll' });
    expect(webhooksAt(URL_)[0]?.description).toBe('Payroll');
    expect((await syncWebhooks(client(), receiver, { url: URL_ })).plan).toEqual([]);
    const renamed = await syncWebhooks(client(), receiver, { url: URL_, description: 'Pay' });
    expect(renamed.plan).toMatchObject([{ operation: 'update', params: { description: 'Pay' } }]);
  });

  it('treats two webhooks for the URL as a rotation in progress and keeps both in step', async () => {
    const receiver = createWebhookReceiver().on('recognition.created', noop);
    await syncWebhooks(client(), receiver, { url: URL_ });
    const started = await rotateWebhookSecret(client(), { url: URL_, step: 'start' });
    receiver.on('recognition.deleted', noop);
    const result = await syncWebhooks(client(), receiver, { url: URL_ });
    expect(result.rotation).toMatchObject({
      previous: { id: started.previous!.id },
      current: { id: started.current!.id },
    });
    expect(result.webhook?.id).toBe(started.current!.id);
    expect(result.plan.map((step) => step.operation)).toEqual(['update', 'update']);
    for (const webhook of webhooksAt(URL_)) {
      expect(webhook.events).toEqual(['recognition.created', 'recognition.deleted']);
    }
  });

  it('stops, writing nothing, when three webhooks serve the URL', async () => {
    for (let i = 0; i < 3; i++) await client().webhooks.create({ url: URL_, events: ['*'] });
    writes = [];
    const error = await syncWebhooks(client(), createWebhookReceiver().onAny(noop), {
      url: URL_,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WebhookSyncError);
    expect(error).toMatchObject({ reason: 'ambiguous' });
    expect(writes).toEqual([]);
  });

  it('names at most five webhooks when thousands serve the URL, escaping what it shows', async () => {
    const many = Array.from({ length: 2000 }, (_, index) => ({
      ...listed,
      id: index === 0 ? 'wh_\u001b[2J\r\nforged line' : `wh_${index}`,
    }));
    server.api.faults.failNext('GET /v1/webhooks', { status: 200, body: { data: many } });
    const error = await syncWebhooks(client(), createWebhookReceiver().onAny(noop), {
      url: URL_,
    }).catch((caught: unknown) => caught as Error);
    expect(error).toMatchObject({ reason: 'ambiguous' });
    const { message } = error as Error;
    expect(message).toContain(
      '2000 webhooks serve http://127.0.0.1:9/webhooks (wh_\\u001b[2J\\u000d\\u000aforged line, wh_1, wh_2, wh_3, wh_4 and 1995 more)',
    );
    expect(message.length).toBeLessThan(400);
  });

  describe.each([
    ['events', 5],
    ['events', { 0: 'recognition.created' }],
    ['events', true],
    ['events', null],
    ['events', 'recognition.created'],
    ['events', ['recognition.created', 7]],
    ['enabled', 'yes'],
    ['id', ''],
    ['url', 5],
    ['description', ['Payroll']],
    ['created_at', 1764115200],
  ])('a listed webhook whose %s is %j', (field, value) => {
    const listing = () =>
      server.api.faults.failNext('GET /v1/webhooks', {
        status: 200,
        body: { data: [{ ...listed, [field]: value }] },
      });
    // An empty id is a string, as the list's schema requires (42 would fail there, before the
    // sync reads it): only the sync's own check refuses it, and it names no webhook.
    const expected = `The service listed ${field === 'id' ? 'a webhook' : `webhook ${listed.id}`} (data.0) whose ${field} `;

    it.each([
      [
        'syncWebhooks',
        () => syncWebhooks(client(), createWebhookReceiver().onAny(noop), { url: URL_ }),
      ],
      ['rotate start', () => rotateWebhookSecret(client(), { url: URL_, step: 'start' })],
      ['rotate finish', () => rotateWebhookSecret(client(), { url: URL_, step: 'finish' })],
    ] as const)(
      'fails %s with an InvalidResponseError naming it and the field, writing nothing',
      async (_name, call) => {
        listing();
        const error = await call().catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(InvalidResponseError);
        expect(error).toMatchObject({
          status: 200,
          issues: [{ path: `data.0.${field}` }],
          message: expect.stringContaining(expected),
        });
        expect(writes).toEqual([]);
        expect(server.api.store.webhooks.all()).toEqual([]);
      },
    );
  });

  it('fails on a record that is not an object, and ignores the odd fields of webhooks for other URLs', async () => {
    server.api.faults.failNext('GET /v1/webhooks', {
      status: 200,
      body: { data: [null] },
    });
    await expect(
      syncWebhooks(client(), createWebhookReceiver().onAny(noop), { url: URL_ }),
    ).rejects.toMatchObject({ name: 'InvalidResponseError', issues: [{ path: 'data.0' }] });
    server.api.faults.failNext('GET /v1/webhooks', {
      status: 200,
      body: { data: [{ ...listed, url: 'https://other.example/hooks', events: 5 }] },
    });
    const result = await syncWebhooks(client(), createWebhookReceiver().onAny(noop), {
      url: URL_,
      dryRun: true,
    });
    expect(result.plan).toMatchObject([{ operation: 'create' }]);
  });

  it('leaves a typed error after a failed write, and the next run finishes the plan', async () => {
    const receiver = createWebhookReceiver().on('recognition.created', noop);
    const { webhook } = await syncWebhooks(client(), receiver, { url: URL_ });
    receiver.on('user', noop);
    server.api.faults.failNext('PATCH /v1/webhooks/:id', { status: 500 });
    const error = await syncWebhooks(client({ maxRetries: 0 }), receiver, { url: URL_ }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(WebhookSyncError);
    expect(error).toMatchObject({
      reason: 'write_failed',
      done: [],
      plan: [{ operation: 'update' }],
    });
    expect((error as Error).cause).toMatchObject({ status: 500 });
    const rerun = await syncWebhooks(client(), receiver, { url: URL_ });
    expect(rerun.done).toHaveLength(1);
    expect(rerun.webhook?.id).toBe(webhook!.id);
    expect((await syncWebhooks(client(), receiver, { url: URL_ })).plan).toEqual([]);
  });

  it('says how to get the secret back when a write fails after the create succeeded', async () => {
    const receiver = createWebhookReceiver().on('user', noop);
    server.api.faults.failNext('PATCH /v1/webhooks/:id', { status: 503 });
    const error = (await syncWebhooks(client({ maxRetries: 0 }), receiver, {
      url: URL_,
      enabled: false,
    }).catch((caught: unknown) => caught)) as WebhookSyncError;
    const [created] = webhooksAt(URL_);
    expect(error).toBeInstanceOf(WebhookSyncError);
    expect(error).toMatchObject({ reason: 'write_failed', done: [{ operation: 'create' }] });
    expect(error.message).toContain(
      `Webhook ${created!.id} was created, but the run stopped before returning its secret, and a plain rerun will not show it: within 24 h, run again with the same options and recoverSecret: true (employee-recognition webhooks sync --url 'http://127.0.0.1:9/webhooks' --events 'user.created,user.updated,user.deactivated' --recover-secret --secret-file <path>), and the create replays it.`,
    );
    expect(error.message).not.toContain('every write is safe to repeat');
    expect(error.message).not.toContain('whsec_');
    // As the message says: the same options and recoverSecret give the secret, and pause it.
    const recovered = await syncWebhooks(client(), receiver, {
      url: URL_,
      enabled: false,
      recoverSecret: true,
    });
    expect(recovered).toMatchObject({ secret: created!.secret, webhook: { enabled: false } });
    expect(webhooksAt(URL_)).toHaveLength(1);
  });

  it('leaves a URL that may hold a token out of the recovery command', async () => {
    server.api.faults.failNext('PATCH /v1/webhooks/:id', { status: 503 });
    const error = (await syncWebhooks(
      client({ maxRetries: 0 }),
      createWebhookReceiver().onAny(noop),
      { url: `${URL_}?token=hush-hush`, enabled: false },
    ).catch((caught: unknown) => caught)) as Error;
    expect(error.message).toContain("sync --url <url> --events '*' --recover-secret");
    expect(error.message).not.toContain('hush');
  });

  it('refuses a receiver without handlers and a URL that is not one, before sending anything', async () => {
    await expect(
      syncWebhooks(client(), createWebhookReceiver(), { url: URL_ }),
    ).rejects.toMatchObject({
      name: 'ConfigurationError',
      option: 'receiver',
    });
    await expect(
      syncWebhooks(client(), createWebhookReceiver().onAny(noop), { url: 'webhooks' }),
    ).rejects.toMatchObject({ name: 'ConfigurationError', option: 'url' });
    expect(server.api.requests).toEqual([]);
  });

  it('recovers the secret of a webhook paused since its create, and keeps it paused', async () => {
    const receiver = createWebhookReceiver().on('user', noop);
    const { webhook, secret } = await syncWebhooks(client(), receiver, { url: URL_ });
    await client().webhooks.update(webhook!.id, { enabled: false });
    const recovered = await syncWebhooks(client(), receiver, {
      url: URL_,
      enabled: false,
      recoverSecret: true,
    });
    expect(recovered).toMatchObject({ secret, webhook: { id: webhook!.id, enabled: false } });
    expect(webhooksAt(URL_)).toHaveLength(1);
  });

  it('says the secret cannot be recovered once the subscription changed since its create', async () => {
    const receiver = createWebhookReceiver().on('user', noop);
    await syncWebhooks(client(), receiver, { url: URL_ });
    receiver.on('team', noop);
    writes = [];
    await expect(
      syncWebhooks(client(), receiver, { url: URL_, recoverSecret: true }),
    ).rejects.toMatchObject({ reason: 'secret_unrecoverable' });
    expect(writes).toEqual([]);
  });
});

describe('rotateWebhookSecret', () => {
  it('rotates while deliveries keep flowing: the new webhook’s refused copies retried, none lost, none handled twice', async () => {
    const handled = new Map<string, number>();
    let secrets: string[] = [];
    const receiver = createWebhookReceiver({ secret: () => secrets }).on(
      'recognition.created',
      (event) => void handled.set(event.data.id, (handled.get(event.data.id) ?? 0) + 1),
    );
    const app = await listen(createNodeMiddleware(receiver, { path: '/webhooks' }));
    const created: string[] = [];
    const users = colleagues();
    const recognize = async () => {
      const { data } = await client().recognitions.create({
        recipient_id: users[created.length % users.length]!.id,
        message: `Thanks #${created.length}`,
      });
      created.push(data.id);
    };
    try {
      const synced = await syncWebhooks(client(), receiver, { url: app.url });
      secrets = [synced.secret!];
      await recognize();

      const started = await rotateWebhookSecret(client(), { url: app.url, step: 'start' });
      expect(started.previous?.id).toBe(synced.webhook!.id);
      expect(started.secret).toMatch(/^whsec_/);
      expect(started.secret).not.toBe(synced.secret);
      // Before the receiver has the new secret, the new webhook's copies are refused: their
      // first attempts end before the receiver learns it (the retries wait 20 ms).
      await recognize();
      await server.api.flushDeliveries();
      const fresh = started.current!.id;
      const refused = server.api.deliveries.filter((each) => each.webhookId === fresh);
      expect(refused).toMatchObject([{ attempt: 1, ok: false, status: 400 }]);
      secrets = [started.secret!, synced.secret!];
      await recognize();
      await recognize();
      // The overlap's copies are delivered before the old secret goes: one still on its way
      // then (a busy machine) would be refused, and its webhook deleted before a retry.
      await server.api.flushDeliveries();
      // Sync sees the overlap as a rotation, not as a URL served twice.
      expect((await syncWebhooks(client(), receiver, { url: app.url })).rotation).toBeDefined();

      const finished = await rotateWebhookSecret(client(), { url: app.url, step: 'finish' });
      expect(finished.plan).toEqual([{ operation: 'delete', webhookId: synced.webhook!.id }]);
      secrets = [started.secret!];
      await recognize();
      await recognize();
      // The refused copy is retried, and accepted now that the receiver serves the new secret.
      const copies = () =>
        server.api.deliveries.filter(
          (each) => each.eventId === refused[0]!.eventId && each.webhookId === fresh,
        );
      await deliveriesUntil(() => copies().some((each) => each.ok));
      expect(copies()).toMatchObject([
        { attempt: 1, ok: false },
        { attempt: 2, ok: true },
      ]);
      // Every delivery that was refused was retried until accepted: none is left behind.
      const last = new Map<string, boolean>();
      for (const each of server.api.deliveries)
        last.set(`${each.eventId} ${each.webhookId}`, each.ok);
      expect([...last.values()].every(Boolean)).toBe(true);

      expect([...handled.keys()].sort()).toEqual([...created].sort());
      expect([...handled.values()].every((count) => count === 1)).toBe(true);
      // Both webhooks carried the overlap's events, each under one webhook-id.
      const webhooksByEvent = new Map<string, Set<string>>();
      for (const { eventId, webhookId } of server.api.deliveries) {
        webhooksByEvent.set(eventId, (webhooksByEvent.get(eventId) ?? new Set()).add(webhookId));
      }
      const doubled = [...webhooksByEvent.values()].filter((webhooks) => webhooks.size === 2);
      expect(doubled).toHaveLength(3);
      expect(webhooksAt(app.url).map((webhook) => webhook.id)).toEqual([started.current!.id]);
    } finally {
      await app.close();
    }
  });

  it('gives the same new secret when start runs again, and finish twice deletes once', async () => {
    const receiver = createWebhookReceiver().onAny(noop);
    await syncWebhooks(client(), receiver, { url: URL_ });
    server.api.faults.dropResponseNext('POST /v1/webhooks');
    await expect(
      rotateWebhookSecret(client({ maxRetries: 0 }), { url: URL_, step: 'start' }),
    ).rejects.toMatchObject({ reason: 'write_failed' });
    const [, created] = webhooksAt(URL_);
    const again = await rotateWebhookSecret(client(), { url: URL_, step: 'start' });
    expect(again.plan).toEqual([{ operation: 'recover_secret', webhookId: created!.id }]);
    expect(again.secret).toBe(created!.secret);
    expect(webhooksAt(URL_)).toHaveLength(2);

    await rotateWebhookSecret(client(), { url: URL_, step: 'finish' });
    writes = [];
    const twice = await rotateWebhookSecret(client(), { url: URL_, step: 'finish' });
    expect(twice).toMatchObject({ plan: [], previous: undefined, current: { id: created!.id } });
    expect(writes).toEqual([]);
  });

  it('has nothing to rotate without a webhook for the URL', async () => {
    await expect(rotateWebhookSecret(client(), { url: URL_, step: 'start' })).rejects.toMatchObject(
      { name: 'WebhookSyncError', reason: 'no_webhook' },
    );
  });
});

/** Active users other than the test key's owner (the store's first user), who can be recognised. */
function colleagues() {
  const [owner, ...others] = server.api.store.users.all();
  return others.filter((user) => user.status === 'active' && user.id !== owner!.id);
}

/** A node:http app on 127.0.0.1 serving `handler` at /webhooks. */
async function listen(handler: Parameters<typeof createServer>[1]) {
  const app: Server = createServer(handler);
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(app.address() as AddressInfo).port}/webhooks`,
    close: () =>
      new Promise<void>((resolve) => {
        app.closeAllConnections();
        app.close(() => resolve());
      }),
  };
}
