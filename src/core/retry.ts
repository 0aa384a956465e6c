import { MAX_WAIT_MS, retryAfterMs } from '../internal/headers.js';
import {
  ApiConnectionError,
  ApiError,
  ApiTimeoutError,
  type EmployeeRecognitionError,
  ResponseTooLargeError,
} from './errors.js';

/** Statuses worth another attempt: transient on the service's side, or a rate limit. */
const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
const INITIAL_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 8_000;

/**
 * Why a failed attempt is worth another, one reason per rule, or undefined when it is final.
 * Every method is retried: the core gives POST and PATCH an Idempotency-Key, and GET and DELETE
 * are idempotent by nature (contract §8).
 */
export function retryReason(error: EmployeeRecognitionError): string | undefined {
  if (error instanceof ApiError) {
    return !error.local && RETRYABLE_STATUSES.has(error.status)
      ? `status ${error.status}`
      : undefined;
  }
  // Checked before its base class: a body over the cap would be just as large the next time.
  if (error instanceof ResponseTooLargeError) return undefined;
  if (error instanceof ApiTimeoutError) return 'timeout';
  if (error instanceof ApiConnectionError) return 'connection error';
  // Our own errors (a failing apiKey function, a hook) and the caller's abort are final.
  return undefined;
}

/** How long to wait before retry number `retry` (from 1), and why. */
export interface RetryDelay {
  /** Milliseconds to wait. */
  ms: number;
  /** What set the wait: a header, or undefined for exponential backoff. */
  cause: string | undefined;
  /** True when the service asks for longer than the cap: the error goes back to the caller. */
  tooLong: boolean;
}

/**
 * The service's own wait where its headers give one (Retry-After, else the rate-limit reset), up
 * to {@link MAX_WAIT_MS}; exponential backoff with jitter where they give none or nothing usable.
 */
export function retryDelay(retry: number, headers: Headers | undefined): RetryDelay {
  const asked = headers && retryAfterMs(headers);
  if (asked !== undefined) {
    return { ms: asked, cause: 'Retry-After', tooLong: asked > MAX_WAIT_MS };
  }
  const backoff = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** (retry - 1), MAX_RETRY_DELAY_MS);
  // Up to a quarter less than the nominal delay, so clients that failed together spread out.
  return { ms: backoff * (1 - Math.random() * 0.25), cause: undefined, tooLong: false };
}
