import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Throttle } from '../../src/core/throttle.js';
import { getUsers, TEST_BASE_URL, testTransport } from '../support/core.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

/** A fixed-window limiter like the service's: `limit` requests per `windowMs`, 429 past it. */
function limitedService(limit: number, windowMs: number) {
  const counts = { ok: 0, limited: 0 };
  let windowStart = Date.now();
  let used = 0;
  server.use(
    http.get(`${TEST_BASE_URL}/v1/users`, () => {
      const now = Date.now();
      if (now - windowStart >= windowMs) {
        windowStart = now - ((now - windowStart) % windowMs);
        used = 0;
      }
      const reset = String(Math.ceil((windowStart + windowMs) / 1000));
      const headers = { 'x-ratelimit-limit': String(limit), 'x-ratelimit-reset': reset };
      if (used >= limit) {
        counts.limited++;
        const retryAfter = String(Math.ceil((windowStart + windowMs - now) / 1000));
        return HttpResponse.json(
          { error: { code: 'rate_limited', message: 'slow down' } },
          {
            status: 429,
            headers: { ...headers, 'x-ratelimit-remaining': '0', 'retry-after': retryAfter },
          },
        );
      }
      used++;
      counts.ok++;
      return HttpResponse.json(
        { data: [] },
        { headers: { ...headers, 'x-ratelimit-remaining': String(limit - used) } },
      );
    }),
  );
  return counts;
}

async function burst(size: number, rateLimit: 'auto' | 'off') {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.UTC(2026, 10, 22) });
  const transport = testTransport({ rateLimit, maxRetries: 5 });
  const calls = Array.from({ length: size }, () =>
    transport({ method: 'GET', path: '/v1/users' }).then(
      () => 'ok',
      () => 'failed',
    ),
  );
  await vi.runAllTimersAsync();
  return Promise.all(calls);
}

describe("rateLimit: 'auto'", () => {
  it('spaces a burst over the windows so that no request meets a 429', async () => {
    const counts = limitedService(10, 1000);
    const outcomes = await burst(35, 'auto');
    expect(outcomes.every((outcome) => outcome === 'ok')).toBe(true);
    expect(counts).toEqual({ ok: 35, limited: 0 });
  });

  it('is needed: the same burst without it meets 429s', async () => {
    const counts = limitedService(10, 1000);
    await burst(35, 'off');
    expect(counts.limited).toBeGreaterThan(0);
  });

  it('lets a waiting request go when its caller aborts it', async () => {
    const throttle = new Throttle();
    await throttle.acquire(undefined);
    const controller = new AbortController();
    const waiting = throttle.acquire(controller.signal);
    controller.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
  });

  it('sends a lone request without waiting', async () => {
    limitedService(10, 1000);
    await expect(getUsers({ rateLimit: 'auto' })).resolves.toMatchObject({ body: { data: [] } });
  });
});
