import type { WebhookEventType } from '../contract.js';
import { later } from '../internal/timers.js';
import type { Random } from './random.js';
import type { MockWebhook } from './records.js';
import type { Store } from './store.js';
import { toTimestamp } from './time.js';
import { signWebhook } from './webhook-signer.js';

/** An event as a delivery's body holds it (contract §9). */
export interface MockWebhookEvent {
  /** `evt_…`, the same on every attempt; also the `webhook-id` header. */
  id: string;
  /** The event type, such as `recognition.created`. */
  type: string;
  /** When the event happened, by the mock's clock: ISO 8601, UTC. */
  created_at: string;
  /** The record the event is about (for team member events, `{ team, user }`). */
  data: unknown;
}

/** One attempt to deliver an event to one webhook. */
export interface DeliveryAttempt {
  /** The delivered event's `id` (`evt_…`), the same on every attempt. */
  eventId: string;
  /** The delivered event's `type`, such as `recognition.created`. */
  eventType: string;
  /** The id of the webhook delivered to. */
  webhookId: string;
  /** Where the attempt was sent: the webhook's `url` at the time. */
  url: string;
  /** 1 for the first attempt, up to 1 + the number of retry delays. */
  attempt: number;
  /** The receiver's status, when it answered. */
  status?: number;
  /** Why no answer came: a network error or the timeout. */
  error?: string;
  /** Whether the receiver answered 2xx. */
  ok: boolean;
  /** The mock's clock when the attempt started, in ms. */
  time: number;
}

/** A fetch that deliveries go through. */
export type WebhookFetch = (url: string, init: RequestInit) => Promise<Response>;

/** What deliveries need. */
export interface DispatcherOptions {
  store: Store;
  fetch: WebhookFetch;
  now: () => number;
  random: Random;
  /** The wait before each retry; its length + 1 is the number of attempts. */
  retryDelaysMs: readonly number[];
  timeoutMs: number;
}

// Whether a webhook wants events of `type` now.
function subscribes(webhook: MockWebhook, type: string): boolean {
  return (
    webhook.enabled &&
    (webhook.events.includes('*') || webhook.events.includes(type as WebhookEventType))
  );
}

/**
 * Delivers events to subscribed webhooks by POST, signed per Standard Webhooks, retrying after
 * each failure (a non-2xx answer, a network error or the timeout) until the delays run out.
 * A webhook deleted or disabled in the meantime gets no further attempts.
 */
export function createWebhookDispatcher(options: DispatcherOptions) {
  const attempts: DeliveryAttempt[] = [];
  const retries = new Set<ReturnType<typeof setTimeout>>();
  const inFlight = new Set<Promise<void>>();
  // Aborted to cancel everything in flight; replaced by reset, not by close.
  let lifetime = new AbortController();

  const track = (promise: Promise<void>): Promise<void> => {
    inFlight.add(promise);
    return promise.finally(() => inFlight.delete(promise));
  };

  const post = async (
    webhook: MockWebhook,
    event: MockWebhookEvent,
    body: string,
    time: number,
  ) => {
    // Not AbortSignal.timeout: its timer cannot be cleared, and would outlive the attempt.
    const timeout = new AbortController();
    const timer = later(
      () => timeout.abort(new Error(`No answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    try {
      const headers = await signWebhook(body, webhook.secret, {
        id: event.id,
        timestamp: new Date(time),
      });
      const response = await options.fetch(webhook.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        signal: AbortSignal.any([lifetime.signal, timeout.signal]),
      });
      await response.body?.cancel();
      return response.status;
    } finally {
      clearTimeout(timer);
    }
  };

  const attempt = async (
    webhookId: string,
    event: MockWebhookEvent,
    body: string,
    number: number,
  ): Promise<void> => {
    const webhook = options.store.webhooks.find(webhookId);
    if (!webhook || !subscribes(webhook, event.type) || lifetime.signal.aborted) return;
    const time = options.now();
    const record: DeliveryAttempt = {
      eventId: event.id,
      eventType: event.type,
      webhookId,
      url: webhook.url,
      attempt: number,
      ok: false,
      time,
    };
    try {
      record.status = await post(webhook, event, body, time);
      record.ok = record.status >= 200 && record.status < 300;
    } catch (error) {
      record.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    attempts.push(record);
    const delay = options.retryDelaysMs[number - 1];
    if (record.ok || delay === undefined || lifetime.signal.aborted) return;
    const timer = later(() => {
      retries.delete(timer);
      void track(attempt(webhookId, event, body, number + 1));
    }, delay);
    unref(timer);
    retries.add(timer);
  };

  const flush = async (): Promise<void> => {
    while (inFlight.size) await Promise.all(inFlight);
  };

  // Cancels scheduled retries and aborts attempts in flight.
  const stop = async (): Promise<void> => {
    lifetime.abort(new Error('The mock API stopped delivering'));
    for (const timer of retries) clearTimeout(timer);
    retries.clear();
    await flush();
  };

  return {
    /** Every attempt so far, oldest first. */
    attempts,
    /** Delivers an event to its subscribers; resolves when each first attempt has finished. */
    async dispatch(type: string, data: unknown): Promise<MockWebhookEvent> {
      const event: MockWebhookEvent = {
        id: `evt_${options.random.alphanumeric(24)}`,
        type,
        created_at: toTimestamp(options.now()),
        data,
      };
      const body = JSON.stringify(event);
      const subscribers = options.store.webhooks
        .rows()
        .filter((row) => subscribes(row.record, type));
      await Promise.all(subscribers.map((row) => track(attempt(row.record.id, event, body, 1))));
      return event;
    },
    /** Resolves when no attempt is in flight; scheduled retries are not waited for. */
    flush,
    /** Cancels all delivery work and forgets past attempts; later events are delivered again. */
    async reset(): Promise<void> {
      await stop();
      attempts.length = 0;
      lifetime = new AbortController();
    },
    /** Cancels all delivery work for good. */
    close: stop,
  };
}

// Keeps a timer from holding a Node process open; browsers' numeric timers have nothing to do.
function unref(timer: ReturnType<typeof setTimeout>): void {
  (timer as { unref?: () => void }).unref?.();
}
