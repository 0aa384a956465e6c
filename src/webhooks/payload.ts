import { WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './events.js';

/** A delivery's raw body, exactly as received. */
export type WebhookPayload = string | Uint8Array | ArrayBuffer;

const decoder = new TextDecoder('utf-8', { fatal: true });

function invalidPayload(message: string): WebhookVerificationError {
  return new WebhookVerificationError('invalid_payload', message);
}

/** The body's bytes without copying (the signature covers exactly these), or its string. */
export function toBody(payload: unknown): string | Uint8Array {
  if (typeof payload === 'string') return payload;
  if (ArrayBuffer.isView(payload)) {
    return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  }
  if (payload instanceof ArrayBuffer) return new Uint8Array(payload);
  throw invalidPayload('The payload must be the raw body: a string, Uint8Array or ArrayBuffer');
}

/** Parses a verified body into an event: UTF-8 JSON, an object with a string `type`. */
export function parseEvent(body: string | Uint8Array): WebhookEvent {
  let event: unknown;
  try {
    event = JSON.parse(typeof body === 'string' ? body : decoder.decode(body));
  } catch {
    throw invalidPayload('The verified body is not UTF-8 JSON');
  }
  if (typeof (event as { type?: unknown } | null)?.type !== 'string') {
    throw invalidPayload('The verified body is not an event: it has no string type');
  }
  return event as WebhookEvent;
}
