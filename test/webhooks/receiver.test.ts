import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/core/config.js';
import { ENV_WEBHOOK_SECRET, WEBHOOK_RETRY_SCHEDULE_SECONDS } from '../../src/contract.js';
import { signWebhook } from '../../src/testing/webhook-signer.js';
import {
  MemoryDedupeStore,
  createWebhookReceiver,
  type Recognition,
  type TeamMemberEventData,
  type User,
  type WebhookDedupeStore,
  type WebhookEvent,
  WebhookHandlerError,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from '../../src/webhooks/index.js';
import { DEFAULT_RETENTION_SECONDS } from '../../src/webhooks/receiver.js';
import { BODY, NOW, NOW_MS, OTHER_SECRET, recognitionCreated, SECRET } from './fixtures.js';

const quietLogger = () => ({ debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() });
let logger: ReturnType<typeof quietLogger>;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW_MS });
  logger = quietLogger();
});
afterEach(() => {
  vi.useRealTimers();
});

function receiverWith(options: WebhookReceiverOptions = {}): WebhookReceiver {
  return createWebhookReceiver({ secret: SECRET, logger, ...options });
}

/** A signed delivery of an event of `type` under `id` (the webhook-id and event id), at now. */
async function delivery(type = 'recognition.created', id = recognitionCreated.id, data?: unknown) {
  const body = JSON.stringify({
    ...recognitionCreated,
    id,
    type,
    data: data ?? recognitionCreated.data,
  });
  const headers = await signWebhook(body, SECRET, { id, timestamp: new Date() });
  return [body, headers] as const;
}

/** A promise and the function that settles it, for handlers a test holds open. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('routing', () => {
  it('runs the handlers of a type, of its group and of any type, in the order they were registered', async () => {
    const ran: string[] = [];
    const receiver = receiverWith()
      .onAny(() => void ran.push('any'))
      .on('recognition.created', () => void ran.push('type'))
      .on('recognition', () => void ran.push('group'))
      .on(['user.created', 'recognition.created'], () => void ran.push('list'))
      .on('recognition.deleted', () => void ran.push('other type'))
      .on('user', () => void ran.push('other group'));

    const receipt = await receiver.receive(...(await delivery()));

    expect(receipt).toMatchObject({ outcome: 'handled', status: 204 });
    expect(ran).toEqual(['any', 'type', 'group', 'list']);
  });

  it('waits for each handler before starting the next', async () => {
    const ran: string[] = [];
    const started = gate();
    const first = gate();
    const receiver = receiverWith()
      .on('recognition.created', async () => {
        started.open();
        await first.opened;
        ran.push('first');
      })
      .on('recognition.created', () => void ran.push('second'));
    const receipt = receiver.receive(...(await delivery()));
    await started.opened;
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual([]);
    first.open();
    await receipt;
    expect(ran).toEqual(['first', 'second']);
  });

  it('hands each handler the verified event and the context of the delivery', async () => {
    const handler = vi.fn();
    const receiver = createWebhookReceiver<{ region: string }>({ secret: SECRET, logger }).on(
      'recognition.created',
      handler,
    );
    const [body, headers] = await delivery();
    await receiver.receive(body, headers, {
      url: 'https://app.example/hooks',
      env: { region: 'eu' },
    });
    expect(handler).toHaveBeenCalledWith(recognitionCreated, {
      headers,
      url: 'https://app.example/hooks',
      env: { region: 'eu' },
    });
  });

  it('answers 2xx to a type newer than this SDK, which only onAny handlers receive', async () => {
    const any = vi.fn();
    const group = vi.fn();
    const receiver = receiverWith().on('recognition', group).onAny(any);
    const receipt = await receiver.receive(...(await delivery('recognition.pinned', 'evt_new')));
    expect(receipt).toMatchObject({ outcome: 'handled', status: 204 });
    expect(any).toHaveBeenCalledWith(
      expect.objectContaining({ type: 'recognition.pinned' }),
      expect.anything(),
    );
    expect(group).not.toHaveBeenCalled();
  });

  it('answers 204 to an event no handler subscribed to', async () => {
    const receiver = receiverWith().on('budget.depleted', vi.fn());
    expect(await receiver.receive(...(await delivery()))).toMatchObject({ status: 204 });
  });

  it('types each handler by what it subscribed to', () => {
    const receiver = receiverWith();
    receiver.on('recognition.created', (event) => {
      expectTypeOf(event.type).toEqualTypeOf<'recognition.created'>();
      expectTypeOf(event.data).toEqualTypeOf<Recognition>();
    });
    receiver.on('team', (event) => {
      if (event.type === 'team.member_added') {
        expectTypeOf(event.data).toEqualTypeOf<TeamMemberEventData>();
      }
    });
    receiver.on(['user.created', 'user.deactivated'], (event) => {
      expectTypeOf(event.type).toEqualTypeOf<'user.created' | 'user.deactivated'>();
      expectTypeOf(event.data).toEqualTypeOf<User>();
    });
    receiver.onAny((event) => expectTypeOf(event).toEqualTypeOf<WebhookEvent>());
    // @ts-expect-error: no such event type
    expect(() => receiver.on('recognition.create', () => {})).toThrow(ConfigurationError);
  });

  it('refuses names that are no event type or group, and handlers that are no functions', () => {
    const receiver = receiverWith();
    expect(() => receiver.on('recognition.create' as never, () => {})).toThrow(/onAny/);
    expect(() => receiver.on([], () => {})).toThrow(ConfigurationError);
    expect(() => receiver.on('user', 'handler' as never)).toThrow(ConfigurationError);
    expect(() => receiver.onError(undefined as never)).toThrow(ConfigurationError);
  });
});

describe('a handler that fails', () => {
  it('fails the delivery with 500 after the other handlers ran, and goes to onError', async () => {
    const ran: string[] = [];
    const onError = vi.fn();
    const database = new Error('database down');
    const receiver = receiverWith()
      .on('recognition.created', () => {
        throw database;
      })
      .onAny(() => void ran.push('second'))
      .on('recognition', async () => Promise.reject(new TypeError('bad field')))
      .onError(onError);

    const receipt = await receiver.receive(...(await delivery()));

    expect(receipt).toMatchObject({ outcome: 'failed', status: 500 });
    expect(ran).toEqual(['second']);
    const [error, context] = onError.mock.calls[0]!;
    expect(error).toBeInstanceOf(WebhookHandlerError);
    expect(error).toMatchObject({
      event: recognitionCreated,
      errors: [database, expect.any(TypeError)],
      cause: database,
      message: `2 handlers of recognition.created ${recognitionCreated.id} failed: Error: database down`,
    });
    expect(context.url).toBeUndefined();
    if (receipt.outcome === 'failed') expect(receipt.error).toBe(error);
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('is logged when no onError handler is registered', async () => {
    const receiver = receiverWith().on('recognition.created', () => {
      throw new Error('database down');
    });
    await receiver.receive(...(await delivery()));
    expect(logger.error).toHaveBeenCalledWith(
      expect.stringContaining('A handler of recognition.created'),
    );
  });

  it('is logged with the failure of an onError handler that fails too', async () => {
    const receiver = receiverWith()
      .on('recognition.created', () => {
        throw new Error('database down');
      })
      .onError(() => {
        throw new Error('pager down');
      });
    expect(await receiver.receive(...(await delivery()))).toMatchObject({ status: 500 });
    expect(logger.error).toHaveBeenCalledWith(expect.stringMatching(/pager down.*database down/));
  });

  it('releases the id, so the retry runs the handlers again', async () => {
    const handler = vi.fn().mockRejectedValueOnce(new Error('flaky')).mockResolvedValue(undefined);
    const receiver = receiverWith()
      .on('recognition.created', handler)
      .onError(() => {});
    expect(await receiver.receive(...(await delivery()))).toMatchObject({ status: 500 });
    expect(await receiver.receive(...(await delivery()))).toMatchObject({ outcome: 'handled' });
    expect(await receiver.receive(...(await delivery()))).toMatchObject({ outcome: 'duplicate' });
    expect(handler).toHaveBeenCalledTimes(2);
  });
});

describe('verification', () => {
  it('answers 400 to a forgery without running a handler', async () => {
    const handler = vi.fn();
    const receiver = receiverWith().onAny(handler);
    const [, headers] = await delivery();
    const receipt = await receiver.receive(BODY.replace('"points":10', '"points":1000'), headers);
    expect(receipt).toMatchObject({ outcome: 'rejected', status: 400 });
    if (receipt.outcome === 'rejected') expect(receipt.error.reason).toBe('invalid_signature');
    expect(handler).not.toHaveBeenCalled();
  });

  it('answers 400 to a replay older than the tolerance', async () => {
    const receiver = receiverWith({ tolerance: 60 });
    const headers = await signWebhook(BODY, SECRET, { id: 'evt_old', timestamp: NOW - 61 });
    expect(await receiver.receive(BODY, headers)).toMatchObject({ status: 400 });
  });

  it(`verifies with ${ENV_WEBHOOK_SECRET} by default, and answers 500 (logged once) without it`, async () => {
    const receiver = createWebhookReceiver({ logger });
    vi.stubEnv(ENV_WEBHOOK_SECRET, '');
    expect(await receiver.receive(...(await delivery()))).toMatchObject({ status: 500 });
    expect(await receiver.receive(...(await delivery()))).toMatchObject({ status: 500 });
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.error.mock.calls[0]![0]).toMatch(ENV_WEBHOOK_SECRET);
    vi.stubEnv(ENV_WEBHOOK_SECRET, SECRET);
    expect(await receiver.receive(...(await delivery()))).toMatchObject({ status: 204 });
  });

  it(`prefers a Worker's ${ENV_WEBHOOK_SECRET} binding to the environment variable`, async () => {
    vi.stubEnv(ENV_WEBHOOK_SECRET, OTHER_SECRET);
    const receiver = createWebhookReceiver({ logger });
    const [body, headers] = await delivery();
    const env = { [ENV_WEBHOOK_SECRET]: SECRET };
    expect(await receiver.receive(body, headers, { env })).toMatchObject({ status: 204 });
  });

  it('takes the secret from a function of the delivery, awaited, called for each one', async () => {
    const secret = vi.fn(async ({ env }: { env: { KEY: string } | undefined }) => env!.KEY);
    const receiver = createWebhookReceiver({ secret, logger });
    const [body, headers] = await delivery();
    const receipt = await receiver.receive(body, headers, { env: { KEY: SECRET }, url: '/hooks' });
    expect(receipt.status).toBe(204);
    expect(secret).toHaveBeenCalledWith({ headers, url: '/hooks', env: { KEY: SECRET } });
    const other = await receiver.receive(...(await delivery('user.created', 'evt_2')), {
      env: { KEY: OTHER_SECRET },
    });
    expect(other).toMatchObject({ status: 400 });
  });

  it('answers 500 when the secret function fails or gives nothing, without leaking what it threw', async () => {
    const failing = createWebhookReceiver({
      logger,
      secret: () => Promise.reject(new Error('vault sealed')),
    });
    const empty = createWebhookReceiver({ logger, secret: () => undefined });
    const receipts = [
      await failing.receive(...(await delivery())),
      await empty.receive(...(await delivery())),
    ];
    for (const receipt of receipts) {
      expect(receipt).toMatchObject({ outcome: 'rejected', status: 500 });
      if (receipt.outcome === 'rejected') expect(receipt.error.reason).toBe('invalid_secret');
    }
    expect(logger.error.mock.calls.map(([line]) => line as string)).toEqual([
      expect.stringContaining('vault sealed'),
      expect.stringContaining('returned no secret'),
    ]);
  });

  it('refuses a malformed secret, tolerance or dedupe setting at creation, naming the option', () => {
    for (const [options, option] of [
      [{ secret: 'not-a-secret' }, 'secret'],
      [{ secret: [] }, 'secret'],
      [{ secret: [SECRET, 42] }, 'secret'],
      [{ tolerance: -1 }, 'tolerance'],
      [{ tolerance: Number.NaN }, 'tolerance'],
      [{ dedupe: { leaseSeconds: 0 } }, 'dedupe.leaseSeconds'],
      [{ dedupe: { retentionSeconds: Infinity } }, 'dedupe.retentionSeconds'],
      [{ dedupe: { store: {} } }, 'dedupe.store'],
    ] as const) {
      const error = (() => {
        try {
          createWebhookReceiver(options as WebhookReceiverOptions);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error).toMatchObject({ option });
    }
  });

  it('accepts every option as explicitly undefined', async () => {
    const receiver = createWebhookReceiver({
      secret: undefined,
      tolerance: undefined,
      dedupe: undefined,
      logger: undefined,
      logLevel: undefined,
    });
    vi.stubEnv(ENV_WEBHOOK_SECRET, SECRET);
    const [body, headers] = await delivery();
    const receipt = await receiver.receive(body, headers, {
      url: undefined,
      env: undefined,
      waitUntil: undefined,
    });
    expect(receipt.status).toBe(204);
  });

  it('answers 500 to a parsed body and says once how to keep it raw, never invalid_signature', async () => {
    const receiver = receiverWith();
    const [, headers] = await delivery();
    for (const parsed of [recognitionCreated, undefined, null]) {
      const receipt = await receiver.receive(parsed as never, headers);
      expect(receipt).toMatchObject({ outcome: 'rejected', status: 500 });
      if (receipt.outcome === 'rejected') expect(receipt.error.reason).toBe('invalid_payload');
    }
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.error.mock.calls[0]![0]).toMatch(/express\.json\(\)/);
  });
});

describe('de-duplication', () => {
  it('answers 204 to a copy of a handled event without running the handlers again', async () => {
    const handler = vi.fn();
    const receiver = receiverWith().onAny(handler);
    expect(await receiver.receive(...(await delivery()))).toMatchObject({ outcome: 'handled' });
    // A retry carries the same webhook-id with a fresh timestamp and signature.
    vi.setSystemTime(NOW_MS + 60_000);
    expect(await receiver.receive(...(await delivery()))).toMatchObject({
      outcome: 'duplicate',
      status: 204,
    });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('answers 409 to a copy that arrives while the first is still being handled', async () => {
    const started = gate();
    const slow = gate();
    const handler = vi.fn(() => {
      started.open();
      return slow.opened;
    });
    const receiver = receiverWith().onAny(handler);
    const first = receiver.receive(...(await delivery()));
    await started.opened;
    expect(await receiver.receive(...(await delivery()))).toMatchObject({
      outcome: 'in_progress',
      status: 409,
    });
    slow.open();
    expect(await first).toMatchObject({ outcome: 'handled' });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('handles a copy again once the lease of a holder that never finished has run out', async () => {
    // Two receivers share a store, as two processes share Redis; the first never finishes.
    const store = new MemoryDedupeStore();
    const started = gate();
    const stuck = receiverWith({ dedupe: { store, leaseSeconds: 60 } }).onAny(() => {
      started.open();
      return new Promise(() => {});
    });
    const handler = vi.fn();
    const healthy = receiverWith({ dedupe: { store, leaseSeconds: 60 } }).onAny(handler);
    void stuck.receive(...(await delivery()));
    await started.opened;
    expect(await healthy.receive(...(await delivery()))).toMatchObject({ status: 409 });
    vi.setSystemTime(NOW_MS + 59_000);
    expect(await healthy.receive(...(await delivery()))).toMatchObject({ status: 409 });
    vi.setSystemTime(NOW_MS + 60_000);
    expect(await healthy.receive(...(await delivery()))).toMatchObject({ outcome: 'handled' });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('remembers a handled id for 28 hours by default, past the last retry', async () => {
    const handler = vi.fn();
    const receiver = receiverWith().onAny(handler);
    await receiver.receive(...(await delivery()));
    vi.setSystemTime(NOW_MS + 28 * 3600_000 - 1000);
    expect(await receiver.receive(...(await delivery()))).toMatchObject({ outcome: 'duplicate' });
    vi.setSystemTime(NOW_MS + 28 * 3600_000);
    expect(await receiver.receive(...(await delivery()))).toMatchObject({ outcome: 'handled' });
    expect(handler).toHaveBeenCalledTimes(2);
    const lastRetry = WEBHOOK_RETRY_SCHEDULE_SECONDS.reduce((sum, each) => sum + each, 0);
    expect(DEFAULT_RETENTION_SECONDS).toBeGreaterThan(lastRetry);
  });

  it('handles every copy with dedupe: false', async () => {
    const handler = vi.fn();
    const receiver = receiverWith({ dedupe: false }).onAny(handler);
    await receiver.receive(...(await delivery()));
    expect(await receiver.receive(...(await delivery()))).toMatchObject({ outcome: 'handled' });
    expect(handler).toHaveBeenCalledTimes(2);
  });

  it('de-duplicates by webhook-id, after verification: a forged copy claims nothing', async () => {
    const handler = vi.fn();
    const receiver = receiverWith().onAny(handler);
    const [body, headers] = await delivery();
    expect(
      await receiver.receive(body, { ...headers, 'webhook-signature': 'v1,AAAA' }),
    ).toMatchObject({ status: 400 });
    expect(await receiver.receive(body, headers)).toMatchObject({ outcome: 'handled' });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('handles the event when the store fails (at least once, never lost) and logs that once', async () => {
    const broken: WebhookDedupeStore = {
      claim: () => Promise.reject(new Error('ECONNREFUSED')),
      complete: () => Promise.reject(new Error('ECONNREFUSED')),
      release: () => Promise.reject(new Error('ECONNREFUSED')),
    };
    const handler = vi.fn();
    const receiver = receiverWith({ dedupe: broken }).onAny(handler);
    expect(await receiver.receive(...(await delivery()))).toMatchObject({ outcome: 'handled' });
    expect(await receiver.receive(...(await delivery()))).toMatchObject({ outcome: 'handled' });
    expect(handler).toHaveBeenCalledTimes(2);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]![0]).toMatch(/ECONNREFUSED.*handled twice/);
  });
});

describe('a de-duplication store that misbehaves', () => {
  it('is given 5 s to answer, then the event is handled as one not seen', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], now: NOW_MS });
    const hanging: WebhookDedupeStore = {
      claim: () => new Promise(() => {}),
      complete: () => new Promise(() => {}),
      release: () => new Promise(() => {}),
    };
    const handler = vi.fn();
    const receiver = receiverWith({ dedupe: hanging }).onAny(handler);
    const receipt = receiver.receive(...(await delivery()));
    await vi.advanceTimersByTimeAsync(4999);
    expect(handler).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(handler).toHaveBeenCalledTimes(1);
    // Then complete does not answer either.
    await vi.advanceTimersByTimeAsync(5000);
    expect(await receipt).toMatchObject({ outcome: 'handled' });
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]![0]).toMatch(/no answer within 5000 ms/);
  });

  it('that throws instead of rejecting counts as failed too', async () => {
    const throwing = {
      claim() {
        throw new Error('not connected');
      },
      complete() {
        throw new Error('not connected');
      },
      release() {
        throw new Error('not connected');
      },
    } as unknown as WebhookDedupeStore;
    const handler = vi.fn();
    const receiver = receiverWith({ dedupe: throwing }).onAny(handler);
    expect(await receiver.receive(...(await delivery()))).toMatchObject({ outcome: 'handled' });
    expect(handler).toHaveBeenCalledTimes(1);
  });
});

describe('waitUntil', () => {
  it('answers 202 on verification and runs the handlers after, kept alive by waitUntil', async () => {
    const slow = gate();
    const ran = vi.fn();
    const receiver = receiverWith().onAny(async () => {
      await slow.opened;
      ran();
    });
    const kept: Promise<unknown>[] = [];
    const receipt = await receiver.receive(...(await delivery()), {
      waitUntil: (promise) => kept.push(promise),
    });
    expect(receipt).toMatchObject({ outcome: 'accepted', status: 202 });
    expect(ran).not.toHaveBeenCalled();
    slow.open();
    await Promise.all(kept);
    expect(ran).toHaveBeenCalledTimes(1);
    // Handled: a later copy is a duplicate.
    expect(await receiver.receive(...(await delivery()))).toMatchObject({ outcome: 'duplicate' });
  });

  it('handles before answering when waitUntil throws, as outside a request', async () => {
    const handler = vi.fn();
    const receiver = receiverWith().onAny(handler);
    const waitUntil = () => {
      throw new Error('waitUntil called outside a request');
    };
    expect(await receiver.receive(...(await delivery()), { waitUntil })).toMatchObject({
      outcome: 'handled',
      status: 204,
    });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('reports a failure after the answer to onError, and releases the id for the retry', async () => {
    const onError = vi.fn();
    const handler = vi.fn().mockRejectedValueOnce(new Error('late failure'));
    const receiver = receiverWith().onAny(handler).onError(onError);
    const kept: Promise<unknown>[] = [];
    const waitUntil = (promise: Promise<unknown>) => void kept.push(promise);
    expect(await receiver.receive(...(await delivery()), { waitUntil })).toMatchObject({
      status: 202,
    });
    await Promise.all(kept);
    expect(onError).toHaveBeenCalledWith(expect.any(WebhookHandlerError), expect.anything());
    expect(await receiver.receive(...(await delivery()), { waitUntil })).toMatchObject({
      status: 202,
    });
    await Promise.all(kept);
    expect(handler).toHaveBeenCalledTimes(2);
  });
});
