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

describe('createMockApi deprecations', () => {
  it('answers a deprecated operation with Deprecation, Sunset and Link in the RFCs’ forms, on errors too', async () => {
    const api = createMockApi({
      deprecations: {
        'users.get': {
          deprecatedAt: '2026-11-01T00:00:00Z',
          sunsetAt: '2027-06-30',
          deprecationLink: 'https://docs.example/users-get',
          sunsetLink: 'https://docs.example/policy',
        },
      },
    });
    const id = api.store.users.all()[0]!.id;
    for (const path of [`/v1/users/${id}`, '/v1/users/u_missing']) {
      const { headers } = await call(api, 'GET', path);
      expect(headers.get('deprecation')).toBe(`@${Date.parse('2026-11-01T00:00:00Z') / 1000}`);
      expect(headers.get('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
      expect(headers.get('link')).toBe(
        '<https://docs.example/users-get>; rel="deprecation", <https://docs.example/policy>; rel="sunset"',
      );
    }
    const other = await call(api, 'GET', '/v1/users');
    expect(['deprecation', 'sunset', 'link'].map((name) => other.headers.get(name))).toEqual([
      null,
      null,
      null,
    ]);
  });

  it('takes true for a deprecation as of the reference date, with no sunset or link', async () => {
    const api = createMockApi({
      referenceDate: '2026-11-21T09:30:00Z',
      deprecations: { 'teams.list': true },
    });
    const { headers } = await call(api, 'GET', '/v1/teams');
    expect(headers.get('deprecation')).toBe(`@${Date.parse('2026-11-21T09:30:00Z') / 1000}`);
    expect(headers.get('sunset')).toBeNull();
    expect(headers.get('link')).toBeNull();
  });

  it('refuses an unknown operation, a date it cannot write and a link that is not http(s), naming each', () => {
    expect(() => createMockApi({ deprecations: { 'users.fetch': true } as never })).toThrow(
      /deprecations: "users\.fetch" is not an operation/,
    );
    expect(() => createMockApi({ deprecations: { 'users.get': { sunsetAt: 'soon' } } })).toThrow(
      /deprecations\["users\.get"\]\.sunsetAt must be a date from 1990 to 9999/,
    );
    expect(() => createMockApi({ deprecations: { 'users.get': { deprecatedAt: 0 } } })).toThrow(
      RangeError,
    );
    expect(() =>
      createMockApi({ deprecations: { 'users.get': { deprecationLink: 'javascript:alert(1)' } } }),
    ).toThrow(/deprecationLink must be an http\(s\) URL/);
  });
});
