import { EmployeeRecognitionError } from '../core/errors.js';
import type { WebhookEvent } from './events.js';

/** Why a delivery failed verification; stable across releases, for code to branch on. */
export type WebhookVerificationErrorReason =
  | 'missing_header' // webhook-id, webhook-timestamp or webhook-signature is absent or empty
  | 'invalid_timestamp' // webhook-timestamp is not Unix seconds in digits
  | 'timestamp_too_old' // more than the tolerance in the past: a replay, or a clock far behind
  | 'timestamp_too_new' // more than the tolerance in the future
  | 'invalid_signature' // no v1 entry matches the body under any of the secrets
  | 'invalid_secret' // no secret, or one that is not whsec_ then non-empty base64
  | 'invalid_payload'; // not a raw body, or the verified body is not an event

/**
 * A delivery that must not be trusted, or a secret that cannot verify anything. Answer the
 * delivery with 400; for `invalid_secret`, the receiver's own misconfiguration, with 500 so that
 * the service retries once it is fixed. The message never contains the secret.
 */
export class WebhookVerificationError extends EmployeeRecognitionError {
  override name = 'WebhookVerificationError';
  /** The failed check, for code to branch on. */
  readonly reason: WebhookVerificationErrorReason;

  /** @param reason - The failed check. @param message - A human-readable explanation. */
  constructor(reason: WebhookVerificationErrorReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * Handlers of a verified event failed: `errors` holds what each failing handler threw, in the
 * order they ran (the first is also the `cause`). The delivery is answered 500, so the service
 * retries it; `onError` handlers receive this error.
 */
export class WebhookHandlerError extends EmployeeRecognitionError {
  override name = 'WebhookHandlerError';
  /** The event whose handlers failed. */
  readonly event: WebhookEvent;
  /** What each failing handler threw, in the order the handlers ran. */
  readonly errors: readonly unknown[];

  /** @param event - The event handled. @param errors - What the failing handlers threw. */
  constructor(event: WebhookEvent, errors: readonly unknown[]) {
    const [first] = errors;
    const why = first instanceof Error ? `${first.name}: ${first.message}` : String(first);
    const count = errors.length === 1 ? 'A handler' : `${errors.length} handlers`;
    super(`${count} of ${String(event.type)} ${event.id} failed: ${why}`, { cause: first });
    this.event = event;
    this.errors = errors;
  }
}
