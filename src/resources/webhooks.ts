import * as z from 'zod/mini';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../contract.js';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request.js';
import { ApiResource, type DataResponse, dataSchema, pathId } from '../core/resource.js';
import { parseInput, rule } from '../core/validation.js';
import { openEnum, recordId, timestamp } from './shared.js';

/** Subscribes a webhook to every event type, present and future. */
type AllEvents = '*';

const webhookShape = {
  /** The webhook's id: a UUID, lower-case. */
  id: recordId,
  /** Where deliveries go: an https URL. */
  url: z.string(),
  /** The subscribed event types, or `["*"]` for all; may hold types added after this SDK. */
  events: z.array(openEnum<WebhookEventType | AllEvents>()),
  /** A note about the webhook, or null when it has none. */
  description: z.nullable(z.string()),
  /** Whether deliveries are being sent. */
  enabled: z.boolean(),
  /** When it was registered: ISO 8601, UTC, such as `2026-11-21T09:30:00Z`. */
  created_at: timestamp,
};

const webhookSchema = z.looseObject(webhookShape);
const webhookWithSecretSchema = z.looseObject({
  ...webhookShape,
  /** The signing secret (`whsec_…`) for verifying deliveries. Returned only by creation. */
  secret: z.string(),
});

const webhookResponse = dataSchema(webhookSchema);
const webhookListResponse = dataSchema(z.array(webhookSchema));
const webhookWithSecretResponse = dataSchema(webhookWithSecretSchema);

// The URL parser rather than z.url(): the same check, smaller in the bundle.
const urlParam = z
  .string()
  .check(rule((url) => (isHttpsUrl(url) ? undefined : 'must be an https URL')));

function isHttpsUrl(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

const EVENT_TYPES: readonly string[] = [...WEBHOOK_EVENT_TYPES, '*'];

// The checks guarantee the declared type: known types, or "*" alone. The input may be readonly,
// so a constant list (`as const`) can be passed as it is.
const eventsParam = z
  .array(
    z
      .unknown()
      .check(
        rule((event) =>
          EVENT_TYPES.includes(event as string)
            ? undefined
            : `must be a known event type or "*", not ${JSON.stringify(event)}`,
        ),
      ),
  )
  .check(
    rule((events) =>
      events.length === 0
        ? 'must have at least 1 item'
        : events.includes('*') && events.length > 1
          ? 'must be ["*"] alone or a list of event types without "*"'
          : undefined,
    ),
  ) as z.ZodMiniType<
  WebhookEventType[] | [AllEvents],
  readonly WebhookEventType[] | readonly [AllEvents]
>;

const createParamsSchema = z.strictObject({
  /** Where deliveries go: an https URL. */
  url: urlParam,
  /** The event types to deliver, at least one, or `["*"]` for all, present and future. */
  events: eventsParam,
  /** A note about the webhook, for people reading the list. */
  description: z.optional(z.string()),
});

const updateParamsSchema = z.strictObject({
  /** A new delivery address: an https URL. */
  url: z.optional(urlParam),
  /** The new event types to deliver, at least one, or `["*"]` for all, present and future. */
  events: z.optional(eventsParam),
  /** A new note about the webhook. */
  description: z.optional(z.string()),
  /** False pauses deliveries; true resumes them. */
  enabled: z.optional(z.boolean()),
});

/**
 * A registered endpoint that receives event deliveries. `events` lists the subscribed event
 * types, or is `["*"]` for all; it may hold types added later.
 */
export interface Webhook extends z.output<typeof webhookSchema> {}

/** A webhook as its creation returns it: with the signing `secret` (`whsec_…`), shown only then. */
export interface WebhookWithSecret extends z.output<typeof webhookWithSecretSchema> {}

/** The body of {@link Webhooks.create}: an https `url` and a non-empty `events` list or `["*"]`. */
export interface WebhookCreateParams extends z.input<typeof createParamsSchema> {}

/** The body of {@link Webhooks.update}: any subset of the create fields, plus `enabled`. */
export interface WebhookUpdateParams extends z.input<typeof updateParamsSchema> {}

/** Webhooks: the endpoints that receive event deliveries. */
export class Webhooks extends ApiResource {
  /** Lists every webhook: `GET /v1/webhooks`. Not paginated: one answer holds them all. */
  list(options?: RequestOptions): ApiPromise<DataResponse<Webhook[]>> {
    return this.request(
      () => ({ method: 'GET', path: '/v1/webhooks' }),
      webhookListResponse,
      options,
    );
  }

  /** Gets one webhook: `GET /v1/webhooks/{id}`. */
  get(id: string, options?: RequestOptions): ApiPromise<DataResponse<Webhook>> {
    return this.request(
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
    options?: RequestOptions,
  ): ApiPromise<DataResponse<WebhookWithSecret>> {
    return this.request(
      () => ({
        method: 'POST',
        path: '/v1/webhooks',
        body: parseInput(createParamsSchema, params),
      }),
      webhookWithSecretResponse,
      options,
    );
  }

  /** Changes a webhook's url, events, description or `enabled`: `PATCH /v1/webhooks/{id}`. */
  update(
    id: string,
    params: WebhookUpdateParams,
    options?: RequestOptions,
  ): ApiPromise<DataResponse<Webhook>> {
    return this.request(
      () => ({
        method: 'PATCH',
        path: `/v1/webhooks/${pathId(id)}`,
        body: parseInput(updateParamsSchema, params),
      }),
      webhookResponse,
      options,
    );
  }

  /** Deletes a webhook: `DELETE /v1/webhooks/{id}`. Resolves to nothing (204). */
  delete(id: string, options?: RequestOptions): ApiPromise<void> {
    return this.request(
      () => ({ method: 'DELETE', path: `/v1/webhooks/${pathId(id)}` }),
      null,
      options,
    );
  }
}
