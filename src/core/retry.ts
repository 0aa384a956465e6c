import { HTTPError, type RetryOptions, TimeoutError } from 'ky';
import { HEADER_RATE_LIMIT_RESET, HEADER_RETRY_AFTER } from '../contract.js';
import { EmployeeRecognitionError } from './errors.js';

/** Statuses worth another attempt: transient on the service's side, or a rate limit. */
const RETRYABLE_STATUSES = [408, 429, 500, 502, 503, 504];
/** A Retry-After longer than this is not waited on: the RateLimitError goes to the caller. */
const MAX_RETRY_AFTER_MS = 60_000;
const INITIAL_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 8_000;

/**
 * Milliseconds the service asks to wait, from Retry-After (delay-seconds or an HTTP-date), else
 * from X-RateLimit-Reset (Unix seconds). Undefined when neither says.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const retryAfter = headers.get(HEADER_RETRY_AFTER)?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Number(retryAfter) * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const reset = headers.get(HEADER_RATE_LIMIT_RESET)?.trim();
  if (reset && /^\d+$/.test(reset)) return Math.max(0, Number(reset) * 1000 - now);
  return undefined;
}

/**
 * ky's retry options for the SDK's policy. Every method is retried because the core gives POST
 * and PATCH an Idempotency-Key; ky handles Retry-After, backoff and the attempt count, and this
 * adds only what ky lacks: never retrying the SDK's own errors or a caller's abort, and handing a
 * too-long Retry-After straight back instead of capping the wait.
 */
export function retryOptions(limit: number): RetryOptions {
  return {
    limit,
    methods: ['get', 'delete', 'post', 'patch', 'put', 'head'],
    statusCodes: RETRYABLE_STATUSES,
    afterStatusCodes: [429, 503],
    delay: (attempt) => INITIAL_RETRY_DELAY_MS * 2 ** (attempt - 1),
    backoffLimit: MAX_RETRY_DELAY_MS,
    // Up to a quarter less than the nominal delay, so clients that failed together spread out.
    jitter: (delay) => delay * (1 - Math.random() * 0.25),
    retryOnTimeout: true,
    shouldRetry: ({ error }) => {
      if (error instanceof HTTPError) {
        const wait = retryAfterMs(error.response.headers);
        return wait !== undefined && wait > MAX_RETRY_AFTER_MS ? false : undefined;
      }
      if (error instanceof TimeoutError) return undefined;
      // Our own errors (a failing apiKey function) and aborts are final; anything else that fetch
      // throws is a connection failure.
      return error instanceof EmployeeRecognitionError || error.name === 'AbortError'
        ? false
        : undefined;
    },
  };
}
