import { WEBHOOK_EVENT_TYPES } from '../../contract.js';
import type { ErrorDetail } from '../../internal/wire.js';
import { findOr404, getOperation, listAllOperation, type Operation } from '../operation.js';
import type { MockWebhook } from '../records.js';
import { toTimestamp } from '../time.js';
import { assertValid, parseBody } from '../validation.js';
import { generateWebhookSecret } from '../webhook-signer.js';

// Receivers on the developer's machine listen without TLS, so loopback hosts may use http
// (contract §4): localhost, 127.0.0.0/8 and [::1], as the URL parser writes them.
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;
const EVENT_TYPES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);

// The webhook as the API shows it: everything but the secret.
function presentWebhook({ secret: _secret, ...webhook }: MockWebhook) {
  return webhook;
}

/** GET /v1/webhooks: every webhook, not paginated. */
export const listWebhooks = listAllOperation((store) => store.webhooks, presentWebhook);

/** GET /v1/webhooks/{id} */
export const getWebhook = getOperation((store) => store.webhooks, 'webhook', presentWebhook);

/** POST /v1/webhooks: the only answer that shows the new webhook's secret. */
export const createWebhook: Operation = ({ store, body, now }) => {
  const input = parseBody(body, ['url', 'events', 'description']);
  const details: ErrorDetail[] = [];
  if (input.url === undefined) details.push({ field: 'url', message: 'is required' });
  if (input.events === undefined) details.push({ field: 'events', message: 'is required' });
  const fields = checkFields(input, details);
  assertValid(422, 'The webhook is not valid.', details);
  const webhook = store.webhooks.insert({
    description: null,
    ...fields,
    enabled: true,
    created_at: toTimestamp(now),
    secret: generateWebhookSecret(),
  });
  return { status: 201, body: { data: { ...presentWebhook(webhook), secret: webhook.secret } } };
};

/** PATCH /v1/webhooks/{id}: any subset of url, events, description and enabled. */
export const updateWebhook: Operation = ({ store, params, body }) => {
  const webhook = findOr404(store.webhooks, params.id, 'webhook');
  const input = parseBody(body, ['url', 'events', 'description', 'enabled']);
  const details: ErrorDetail[] = [];
  const fields = checkFields(input, details);
  if (input.enabled !== undefined && typeof input.enabled !== 'boolean') {
    details.push({ field: 'enabled', message: 'must be a boolean' });
  }
  assertValid(422, 'The webhook is not valid.', details);
  const patch =
    input.enabled === undefined ? fields : { ...fields, enabled: input.enabled as boolean };
  return { status: 200, body: { data: presentWebhook(store.webhooks.update(webhook.id, patch)!) } };
};

/** DELETE /v1/webhooks/{id} */
export const deleteWebhook: Operation = ({ store, params }) => {
  store.webhooks.delete(findOr404(store.webhooks, params.id, 'webhook').id);
  return { status: 204 };
};

// Checks the fields present in `input`; required-ness is the caller's.
function checkFields(input: Record<string, unknown>, details: ErrorDetail[]) {
  const fields: Partial<Pick<MockWebhook, 'url' | 'events' | 'description'>> = {};
  const { url, events, description } = input;
  if (url !== undefined) {
    if (isWebhookUrl(url)) fields.url = url;
    else {
      details.push({
        field: 'url',
        message: 'must be an https URL (http only on localhost, 127.0.0.0/8 or [::1])',
      });
    }
  }
  if (events !== undefined) {
    const problem = checkEvents(events);
    if (problem) details.push({ field: 'events', message: problem });
    else fields.events = [...new Set(events as MockWebhook['events'])];
  }
  if (description !== undefined) {
    if (description === null || typeof description === 'string') fields.description = description;
    else details.push({ field: 'description', message: 'must be a string or null' });
  }
  return fields;
}

function isWebhookUrl(value: unknown): value is string {
  if (typeof value !== 'string' || !URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname))
  );
}

function checkEvents(events: unknown): string | undefined {
  if (!Array.isArray(events) || events.length === 0) {
    return 'must be a non-empty array of event types, or ["*"]';
  }
  if (events.includes('*')) return events.length === 1 ? undefined : '"*" must be the only entry';
  const unknown = events.filter((type) => typeof type !== 'string' || !EVENT_TYPES.has(type));
  return unknown.length
    ? `has unknown event types: ${unknown.map((type) => JSON.stringify(type)).join(', ')}`
    : undefined;
}
