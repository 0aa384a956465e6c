import * as z from 'zod/mini';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../contract.js';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/config.js';
import { ApiResource, type DataResponse, dataSchema, pathId } from '../core/resource.js';
import { openEnum, parseInput, rule } from '../core/validation.js';
import { isLoopbackHost } from '../internal/loopback.js';
import { boolean, recordId, timestamp } from './shared.js';

/**
 * A registered endpoint that receives event deliveries. Every field is the contract's
 * assumption: the service description does not show the webhook record (docs/assumptions.md).
 *
 * Fields the service adds later stay on the object at run time but are not part of this type; to
 * read one, name it in a cast: `(webhook as Webhook & { failures?: number }).failures`.
 */
export interface Webhook {
  /** The webhook's id: a UUID, lower-case. */
  id: string;
  /** Where deliveries go: an https URL (http only on a loopback host, for local receivers). */
  url: string;
  /**
   * The subscribed event types, such as `recognition.created`, or `["*"]` for all, present and
   * future. May hold types added after this SDK version.
   */
  events: (WebhookEventType | '*' | (string & {}))[];
  /** A note about the webhook, or null when it has none. */
  description: string | null;
  /** Whether deliveries are being sent. */
  enabled: boolean;
  /** When it was registered: an ISO 8601 UTC timestamp string, such as `2026-11-21T09:30:00Z`. */
  created_at: string;
}

/** A webhook as its creation returns it: with the signing secret, which no other call shows. */
export interface WebhookWithSecret extends Webhook {
  /** The signing secret, `whsec_` then base64: store it to verify deliveries. */
  secret: string;
}

const webhookShape = {
  id: recordId,
  url: z.string(),
  events: z.array(openEnum([...WEBHOOK_EVENT_TYPES, '*'])),
  description: z.nullable(z.string()),
  enabled: boolean,
  created_at: timestamp,
};

/** The schema of {@link Webhook}; loose, so fields added later are kept. */
export const webhookSchema = z.looseObject(webhookShape);

/** The schema of {@link WebhookWithSecret}; loose, so fields added later are kept. */
export const webhookWithSecretSchema = z.looseObject({ ...webhookShape, secret: z.string() });

const webhookResponse = dataSchema(webhookSchema);
const webhookListResponse = dataSchema(z.array(webhookSchema));
const webhookWithSecretResponse = dataSchema(webhookWithSecretSchema);

// The URL parser rather than z.url(): the same check, smaller in the bundle. A receiver may listen
// without TLS on a loopback host (contract §4): a developer's machine.
const urlParam = z.string().check(
  rule((text) => {
    const url = URL.canParse(text) ? new URL(text) : undefined;
    if (url?.protocol === 'https:') return undefined;
    const loopback = url !== undefined && isLoopbackHost(url.hostname);
    return url?.protocol === 'http:' && loopback
      ? undefined
      : 'must be an https URL (http only on localhost, 127.0.0.0/8 or [::1])';
  }),
);

/**
 * What the service accepts as `events` in every version (contract §4): a non-empty list of event
 * types, or `["*"]` alone. Types are not limited to the 18 this SDK knows, so a type the service
 * adds later can be subscribed to; the service rejects a type it does not have.
 */
const eventsParam = z
  .array(
    z.string().check(rule((event) => (event === '' ? 'must not be an empty string' : undefined))),
  )
  .check(
    rule((events) =>
      events.length === 0
        ? 'must have at least 1 item'
        : events.includes('*') && events.length > 1
          ? 'must be ["*"] alone or a list of event types without "*"'
          : undefined,
    ),
  ) as z.ZodMiniType<string[], readonly EventTypeParam[]>;

/** An event type to subscribe to: one this SDK knows, one added later, or `*` (all). */
export type EventTypeParam = WebhookEventType | '*' | (string & {});

/** The body of {@link Webhooks.create}. */
export interface WebhookCreateParams {
  /**
   * Where deliveries go: an https URL. An http URL is accepted only on a loopback host
   * (`localhost`, 127.0.0.0/8, `[::1]`), for a receiver on the developer's machine.
   */
  url: string;
  /** The event types to deliver, at least one, or `["*"]` for all, present and future. */
  events: readonly EventTypeParam[];
  /** A note about the webhook, for people reading the list; null or absent for none. */
  description?: string | null | undefined;
}

/** The schema of {@link WebhookCreateParams}: the body of `POST /v1/webhooks`. */
export const webhookCreateParamsSchema = z.strictObject({
  url: urlParam,
  events: eventsParam,
  description: z.optional(z.nullable(z.string())),
});

/** The body of {@link Webhooks.update}: any subset of the create fields, plus `enabled`. */
export interface WebhookUpdateParams {
  /** A new delivery address: https, or http on a loopback host. */
  url?: string | undefined;
  /** The new event types to deliver, at least one, or `["*"]` for all, present and future. */
  events?: readonly EventTypeParam[] | undefined;
  /** A new note about the webhook; null removes it. */
  description?: string | null | undefined;
  /** False pauses deliveries; true resumes them. */
  enabled?: boolean | undefined;
}

/** The schema of {@link WebhookUpdateParams}: the body of `PATCH /v1/webhooks/{id}`. */
export const webhookUpdateParamsSchema = z.strictObject({
  url: z.optional(urlParam),
  events: z.optional(eventsParam),
  description: z.optional(z.nullable(z.string())),
  enabled: z.optional(boolean),
});

/** Webhooks: the endpoints that receive event deliveries. */
export class Webhooks extends ApiResource {
  /** Lists every webhook: `GET /v1/webhooks`. Not paginated: one answer holds them all. */
  list(options?: RequestOptions | null): ApiPromise<DataResponse<Webhook[]>> {
    return this.request(
      'webhooks.list',
      () => ({ method: 'GET', path: '/v1/webhooks' }),
      webhookListResponse,
      options,
    );
  }

  /** Gets one webhook: `GET /v1/webhooks/{id}`. */
  get(id: string, options?: RequestOptions | null): ApiPromise<DataResponse<Webhook>> {
    return this.request(
      'webhooks.get',
      () => ({ method: 'GET', path: `/v1/webhooks/${pathId(id)}` }),
      webhookResponse,
      options,
    );
  }

  /**
   * Registers a webhook: `POST /v1/webhooks`. The answer carries the signing `secret`, which no
   * other call returns: store it. Sent with an Idempotency-Key, so a retry never registers twice.
   */
  create(
    params: WebhookCreateParams,
    options?: RequestOptions | null,
  ): ApiPromise<DataResponse<WebhookWithSecret>> {
    return this.request(
      'webhooks.create',
      () => ({
        method: 'POST',
        path: '/v1/webhooks',
        body: parseInput(webhookCreateParamsSchema, params),
      }),
      webhookWithSecretResponse,
      options,
    );
  }

  /** Changes a webhook's url, events, description or `enabled`: `PATCH /v1/webhooks/{id}`. */
  update(
    id: string,
    params: WebhookUpdateParams,
    options?: RequestOptions | null,
  ): ApiPromise<DataResponse<Webhook>> {
    return this.request(
      'webhooks.update',
      () => ({
        method: 'PATCH',
        path: `/v1/webhooks/${pathId(id)}`,
        body: parseInput(webhookUpdateParamsSchema, params),
      }),
      webhookResponse,
      options,
    );
  }

  /** Deletes a webhook: `DELETE /v1/webhooks/{id}`. Resolves to nothing (204). */
  delete(id: string, options?: RequestOptions | null): ApiPromise<void> {
    return this.request(
      'webhooks.delete',
      () => ({ method: 'DELETE', path: `/v1/webhooks/${pathId(id)}` }),
      null,
      options,
    );
  }
}
