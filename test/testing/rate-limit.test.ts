import { createMockApi } from '@employee-recognition/sdk/testing';
import { describe, expect, it } from 'vitest';
import { call, createClock } from './support.js';

describe('rate limits', () => {
  it('allows the tier per window, then 429 rate_limited with Retry-After until the window ends', async () => {
    const clock = createClock(Date.parse('2026-11-21T12:00:00.250Z'));
    const api = createMockApi({
      now: clock.read,
      rateLimitWindowMs: 1000,
      keys: [{ key: 'slow', rateLimit: 10 }],
    });
    for (let i = 1; i <= 10; i++) {
      const reply = await call(api, 'GET', '/v1/teams');
      expect(reply.status).toBe(200);
      expect(reply.headers.get('x-ratelimit-limit')).toBe('10');
      expect(reply.headers.get('x-ratelimit-remaining')).toBe(String(10 - i));
      expect(reply.headers.get('x-ratelimit-reset')).toBe(
        String(Math.ceil((clock.now + 1000) / 1000)),
      );
      expect(reply.headers.get('retry-after')).toBeNull();
    }
    clock.advance(400);
    const limited = await call(api, 'GET', '/v1/teams');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('x-request-id')).toMatch(/^req_/);
    clock.advance(599);
    expect((await call(api, 'GET', '/v1/teams')).status).toBe(429);
    clock.advance(1);
    const fresh = await call(api, 'GET', '/v1/teams');
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('x-ratelimit-remaining')).toBe('9');
  });

  it('rounds Retry-After up to whole seconds of the default one-minute window', async () => {
    const clock = createClock();
    const api = createMockApi({ now: clock.read, keys: [{ key: 'k', rateLimit: 10 }] });
    for (let i = 0; i < 10; i++) await call(api, 'GET', '/v1/teams');
    clock.advance(30_500);
    const limited = await call(api, 'GET', '/v1/teams');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
  });

  it('counts each key on its own, by its tier; the default key has 100', async () => {
    const clock = createClock();
    const api = createMockApi({
      now: clock.read,
      keys: [
        { key: 'a', rateLimit: 10 },
        { key: 'b', rateLimit: 1000 },
      ],
    });
    for (let i = 0; i < 10; i++) await call(api, 'GET', '/v1/teams', { key: 'a' });
    expect((await call(api, 'GET', '/v1/teams', { key: 'a' })).status).toBe(429);
    const other = await call(api, 'GET', '/v1/teams', { key: 'b' });
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(other.headers.get('x-ratelimit-remaining')).toBe('999');
    const standard = createMockApi({ now: clock.read });
    expect((await call(standard, 'GET', '/v1/teams')).headers.get('x-ratelimit-limit')).toBe('100');
  });

  it('puts the headers on errors too', async () => {
    const api = createMockApi({ now: createClock().read });
    for (const [method, path] of [
      ['GET', '/v1/nothing'],
      ['GET', '/v1/users/nope'],
      ['POST', '/v1/recognitions'],
    ] as const) {
      const reply = await call(api, method, path, { body: method === 'POST' ? {} : undefined });
      expect(reply.status).toBeGreaterThanOrEqual(400);
      for (const header of [
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
        'x-request-id',
      ]) {
        expect(reply.headers.get(header)).not.toBeNull();
      }
    }
  });
});
