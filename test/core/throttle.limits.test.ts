/**
 * What the throttle tells a call it cannot serve in time, at the edge of each limit: a reset just
 * within the cap (60 s and the header's rounding second) waits, one second beyond fails at once
 * with a local RateLimitError; a deadline before the reset fails with an ApiTimeoutError. The
 * other throttle tests check the classes of these errors, not what they say (docs/mutation-testing.md).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiTimeoutError, RateLimitError } from '../../src/core/errors.js';
import { RESET_ROUNDING_MS, Throttle, timeoutError } from '../../src/core/throttle.js';
import { MAX_WAIT_MS } from '../../src/internal/headers.js';

// A whole second, as X-RateLimit-Reset counts.
const START = Date.UTC(2026, 10, 22);
const target = { method: 'GET', url: 'https://api.example/v1/users' };

/** A throttle whose window is spent and resets `resetInSeconds` from now. */
async function spentWindow(resetInSeconds: number): Promise<Throttle> {
  const throttle = new Throttle();
  await throttle.acquire({ target });
  throttle.update(
    new Headers({
      'x-ratelimit-limit': '10',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(START / 1000 + resetInSeconds),
    }),
  );
  return throttle;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Throttle: a reset beyond the cap', () => {
  it('waits for a reset of the cap and its rounding second, telling the call how long', async () => {
    const throttle = await spentWindow((MAX_WAIT_MS + RESET_ROUNDING_MS) / 1000);
    const onWait = vi.fn();
    const abort = new AbortController();
    const call = throttle.acquire({ target, signal: abort.signal, onWait });
    expect(onWait).toHaveBeenCalledWith(MAX_WAIT_MS + RESET_ROUNDING_MS, expect.any(String));
    abort.abort(new Error('done'));
    await expect(call).rejects.toThrow('done');
  });

  it('fails at once beyond it, with a local 429 that says when and why', async () => {
    const throttle = await spentWindow(62);
    // Half a second later: 61.5 s to wait, said as the whole seconds it takes.
    vi.setSystemTime(START + 500);
    const error = await throttle.acquire({ target }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({
      status: 429,
      local: true,
      retryAfter: 61_500,
      method: 'GET',
      url: target.url,
    });
    expect((error as Error).message).toBe(
      'The rate limit resets in 62 s, longer than the SDK waits (60 s) (429 rate_limited from GET https://api.example/v1/users)',
    );
  });
});

describe('Throttle: a deadline before the reset', () => {
  it('fails with an ApiTimeoutError naming the call and the reset', async () => {
    const throttle = await spentWindow(30);
    const error = await throttle
      .acquire({ target, deadline: START + 10_000 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect((error as Error).message).toBe(
      'GET https://api.example/v1/users would wait for the rate limit (the window resets in 30 s) beyond its timeout.',
    );
  });

  it('says nothing of a reset when the deadline has passed already', () => {
    expect(timeoutError(target, 0).message).toBe(
      'GET https://api.example/v1/users would wait for the rate limit beyond its timeout.',
    );
    expect(timeoutError(target, 1).message).toContain('(the window resets in 1 s)');
  });
});
