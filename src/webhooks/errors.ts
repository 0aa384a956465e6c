/** Why a delivery failed verification; stable across releases, for code to branch on. */
export type WebhookVerificationErrorReason =
  | 'missing_header'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'invalid_signature'
  | 'invalid_secret'
  | 'invalid_payload';

/**
 * A delivery that must not be trusted, or a secret that cannot verify anything. Answer the
 * delivery with 400; for `invalid_secret`, the receiver's own misconfiguration, with 500 so that
 * the service retries once it is fixed. The message never contains the secret.
 */
export class WebhookVerificationError extends Error {
  /** The failed check, for code to branch on. */
  readonly reason: WebhookVerificationErrorReason;

  /** @param reason - The failed check. @param message - A human-readable explanation. */
  constructor(reason: WebhookVerificationErrorReason, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}
