import { WebhookVerificationError } from './errors.js';

const DIGITS = /^\d+$/;

/**
 * Rejects a `webhook-timestamp` that is not Unix seconds in digits, or lies more than `tolerance`
 * seconds from `now` (Unix seconds) either way: replay protection.
 */
export function checkTimestamp(header: string, now: number, tolerance: number): void {
  if (!DIGITS.test(header)) {
    throw new WebhookVerificationError(
      'invalid_timestamp',
      'The webhook-timestamp header is not Unix seconds in digits',
    );
  }
  const age = now - Number(header);
  if (age > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_too_old',
      `The webhook-timestamp is more than ${tolerance} seconds in the past`,
    );
  }
  if (-age > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_too_new',
      `The webhook-timestamp is more than ${tolerance} seconds in the future`,
    );
  }
}
