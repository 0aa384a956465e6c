/**
 * The retry policy of src/core/retry.ts read directly at its edges: a local error of a retryable
 * status, a wait of exactly the cap, an answer without headers, the jitter's exact span. Each case
 * pins a line a mutation of it changed without a test failing (docs/mutation-testing.md).
 */
import { describe, expect, it, vi } from 'vitest';
import { RateLimitError, ApiError } from '../../src/core/errors.js';
import { MAX_WAIT_MS } from '../../src/internal/headers.js';
import { retryDelay, retryReason } from '../../src/core/retry.js';

describe('retryReason: the service said it, not the SDK', () => {
  it('never retries a local error, whatever its status: the SDK would only say it again', () => {
    expect(
      retryReason(new RateLimitError({ status: 429, message: 'x', local: true, retryAfter: 9 })),
    ).toBeUndefined();
    expect(retryReason(new ApiError({ status: 503, message: 'x', local: true }))).toBeUndefined();
    expect(retryReason(new ApiError({ status: 503, message: 'x', local: false }))).toBe(
      'status 503',
    );
  });
});

describe('retryDelay: the service’s word', () => {
  it('waits the cap itself, and flags only a longer wait', () => {
    const seconds = String(MAX_WAIT_MS / 1000);
    expect(retryDelay(1, new Headers({ 'retry-after': seconds }))).toEqual({
      ms: MAX_WAIT_MS,
      cause: 'Retry-After',
      tooLong: false,
    });
    expect(retryDelay(1, new Headers({ 'retry-after': `${seconds}.001` })).tooLong).toBe(true);
  });

  it('takes a spent window’s reset as the service’s word too', () => {
    const headers = new Headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '4' });
    expect(retryDelay(3, headers)).toEqual({ ms: 4000, cause: 'Retry-After', tooLong: false });
  });
});

describe('retryDelay: backoff', () => {
  it('backs off from 500 ms when there is no answer, hence no headers', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(retryDelay(1, undefined)).toEqual({ ms: 500, cause: undefined, tooLong: false });
    expect(retryDelay(2, undefined).ms).toBe(1000);
  });

  it('takes up to a quarter off, in proportion to the random draw', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    expect(retryDelay(1, undefined).ms).toBe(437.5);
    expect(retryDelay(9, undefined).ms).toBe(7000);
  });
});
