import { createMockApi, startMockServer } from '@employee-recognition/sdk/testing';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import { call } from './support.js';

describe('createMockApi options', () => {
  it('defaults to the real service’s base URL, trims it and drops a trailing / or /v1', () => {
    expect(createMockApi().baseUrl).toBe('https://api.employee-recognition.example');
    expect(createMockApi({ baseUrl: ' http://localhost:9999/v1/ ' }).baseUrl).toBe(
      'http://localhost:9999',
    );
  });

  it('refuses a base URL that is not an absolute http(s) URL, naming the option', () => {
    for (const baseUrl of ['localhost:4010', 'ftp://mock.example', '']) {
      expect(() => createMockApi({ baseUrl })).toThrow(ConfigurationError);
    }
    expect(() => createMockApi({ baseUrl: '/v1' })).toThrow(
      expect.objectContaining({ option: 'baseUrl' }),
    );
  });

  it.each([10, 100, 1000] as const)('gives the default key the tier %i', async (tier) => {
    const api = createMockApi({ tier, recognitions: 0 });
    const reply = await call(api, 'GET', '/v1/teams');
    expect(reply.headers.get('x-ratelimit-limit')).toBe(String(tier));
  });

  it('refuses a tier the contract does not have, and a tier beside keys', () => {
    expect(() => createMockApi({ tier: 50 as never })).toThrow(RangeError);
    expect(() => createMockApi({ tier: 10, keys: [{ key: 'k' }] })).toThrow(TypeError);
  });

  it('refuses counts, seeds and windows that are not whole or positive', () => {
    expect(() => createMockApi({ recognitions: -1 })).toThrow(RangeError);
    expect(() => createMockApi({ recognitions: 1.5 })).toThrow(RangeError);
    expect(() => createMockApi({ seed: Number.NaN })).toThrow(RangeError);
    expect(() => createMockApi({ rateLimitWindowMs: 0 })).toThrow(RangeError);
    expect(() => createMockApi({ rateLimitWindowMs: Number.POSITIVE_INFINITY })).toThrow(
      RangeError,
    );
    expect(() => createMockApi({ keys: [] })).toThrow(TypeError);
  });

  it('takes through startMockServer what a command line gives: seed, count, tier and window', async () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    const server = await startMockServer({
      seed: 9,
      recognitions: 7,
      tier: 10,
      rateLimitWindowMs: 1000,
      now: () => now,
    });
    try {
      expect(server.api.store.recognitions.size).toBe(7);
      expect(server.api.testKey).toBe(createMockApi({ seed: 9 }).testKey);
      const headers = { authorization: `Bearer ${server.api.testKey}` };
      const replies = [];
      for (let i = 0; i < 11; i++) replies.push(await fetch(`${server.url}/v1/teams`, { headers }));
      expect(replies.map((reply) => reply.status)).toEqual([...Array(10).fill(200), 429]);
      expect(replies[0]!.headers.get('x-ratelimit-limit')).toBe('10');
      expect(replies[10]!.headers.get('x-ratelimit-reset')).toBe(String((now + 1000) / 1000));
      expect(replies[10]!.headers.get('retry-after')).toBe('1');
    } finally {
      await server.close();
    }
  });
});
