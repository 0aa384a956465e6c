import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_WAIT_MS, parseRateLimit, retryAfterMs } from '../../src/internal/headers.js';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const headers = (entries: Record<string, string>) => new Headers(entries);

describe('retryAfterMs', () => {
  it.each([
    ['3', 3000],
    ['0', 0],
    ['1.5', 1500],
    ['30, 30', 30_000],
    [new Date(NOW + 5000).toUTCString(), 5000],
    [new Date(NOW - 5000).toUTCString(), 0],
  ])('reads Retry-After %j as %i ms', (value, ms) => {
    expect(retryAfterMs(headers({ 'retry-after': value }), NOW)).toBe(ms);
  });

  it.each(['NaN', 'soon', '5s', '-1', 'Infinity', '1e308', '30, 60', '', '0x10', ' '])(
    'says nothing for Retry-After %j, so the caller backs off',
    (value) => {
      expect(retryAfterMs(headers({ 'retry-after': value }), NOW)).toBeUndefined();
    },
  );

  it('reads X-RateLimit-Reset as Unix seconds, and ignores one no clock reaches', () => {
    expect(retryAfterMs(headers({ 'x-ratelimit-reset': String(NOW / 1000 + 7) }), NOW)).toBe(7000);
    // Below 10^9 no Unix time is a window still open: it is seconds from now.
    expect(retryAfterMs(headers({ 'x-ratelimit-reset': '7' }), NOW)).toBe(7000);
    expect(retryAfterMs(headers({ 'x-ratelimit-reset': '1e308' }), NOW)).toBeUndefined();
    expect(retryAfterMs(headers({ 'x-ratelimit-reset': '99999999999999' }), NOW)).toBeUndefined();
  });

  it('reads the IETF RateLimit-Reset and RateLimit headers as delta seconds', () => {
    expect(retryAfterMs(headers({ 'ratelimit-reset': '12' }), NOW)).toBe(12_000);
    expect(retryAfterMs(headers({ ratelimit: '"default";r=0;t=9' }), NOW)).toBe(9000);
    expect(retryAfterMs(headers({ ratelimit: 'limit=100, remaining=0, reset=4' }), NOW)).toBe(4000);
  });

  it('ignores a structured RateLimit reset beyond year 2286, as the other families do', () => {
    expect(retryAfterMs(headers({ ratelimit: '"default";t=8640000000000' }), NOW)).toBeUndefined();
    expect(
      retryAfterMs(headers({ ratelimit: 'limit=0, remaining=0, reset=99999999999999' }), NOW),
    ).toBeUndefined();
    expect(retryAfterMs(headers({ ratelimit: '"default";t=10000000000' }), NOW)).toBe(1e13);
  });

  it('gives a finite number ≥ 0 or undefined for any header values', () => {
    // Numbers of every size the syntax allows, in every family's syntax.
    const digits = fc.oneof(
      fc.bigInt({ min: 0n, max: 10n ** 16n }).map(String),
      fc.stringMatching(/^\d{1,17}(?:\.\d{1,7})?$/),
    );
    const value = fc.oneof(
      fc.string(),
      fc.constantFrom('NaN', 'Infinity', '-0', '1e308', '86400', 'Thu, 01 Jan 2099 00:00:00 GMT'),
      fc.double().map(String),
      fc.integer().map(String),
      digits,
      fc
        .tuple(fc.constantFrom('"d";r=0;t=', 'limit=0, remaining=0, reset=', '"d";t='), digits)
        .map(([field, number]) => field + number),
    );
    const names = fc.constantFrom(
      'retry-after',
      'x-ratelimit-reset',
      'ratelimit-reset',
      'ratelimit',
    );
    fc.assert(
      fc.property(fc.dictionary(names, value), (entries) => {
        let parsed: Headers;
        try {
          parsed = new Headers(entries);
        } catch {
          return; // not a value fetch could have given us
        }
        const ms = retryAfterMs(parsed, NOW);
        expect(ms === undefined || (Number.isFinite(ms) && ms >= 0)).toBe(true);
      }),
      { seed: 42, numRuns: 500 },
    );
  });

  it("counts a window's reset only when the window is spent: every answer carries one", () => {
    const reset = String(NOW / 1000 + 40);
    expect(
      retryAfterMs(headers({ 'x-ratelimit-remaining': '57', 'x-ratelimit-reset': reset }), NOW),
    ).toBeUndefined();
    expect(
      retryAfterMs(headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }), NOW),
    ).toBe(40_000);
    expect(
      retryAfterMs(headers({ 'ratelimit-remaining': '3', 'ratelimit-reset': '12' }), NOW),
    ).toBeUndefined();
    expect(retryAfterMs(headers({ ratelimit: '"default";r=5;t=9' }), NOW)).toBeUndefined();
    expect(
      retryAfterMs(headers({ ratelimit: 'limit=100, remaining=10, reset=4' }), NOW),
    ).toBeUndefined();
    expect(retryAfterMs(headers({ ratelimit: '"default";r=0;t=9' }), NOW)).toBe(9000);
  });

  it('reads a header of any length in one pass over its first kilobyte', () => {
    const long = `${'9, '.repeat(200_000)}9`;
    expect(retryAfterMs(headers({ 'retry-after': long, ratelimit: `t=${long}` }), NOW)).toBe(9000);
    expect(retryAfterMs(headers({ ratelimit: ';'.repeat(1_000_000) }), NOW)).toBeUndefined();
  });

  it('leaves the cap to the caller: a long wait is reported as it is', () => {
    expect(retryAfterMs(headers({ 'retry-after': '86400' }), NOW)).toBeGreaterThan(MAX_WAIT_MS);
  });
});

describe('parseRateLimit', () => {
  it('parses the three X-RateLimit headers', () => {
    expect(
      parseRateLimit(
        headers({
          'x-ratelimit-limit': '100',
          'x-ratelimit-remaining': '99',
          'x-ratelimit-reset': '1795000000',
        }),
      ),
    ).toEqual({
      limit: 100,
      remaining: 99,
      reset: new Date(1_795_000_000_000),
      family: 'x-ratelimit',
    });
  });

  it('reads an X-RateLimit-Reset below 10^9 as seconds from now, rounded up to the second', () => {
    const info = parseRateLimit(
      headers({
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '5',
        'x-ratelimit-reset': '42',
      }),
      NOW + 300,
    );
    expect(info).toEqual({
      limit: 60,
      remaining: 5,
      reset: new Date(NOW + 43_000),
      family: 'x-ratelimit',
    });
  });

  it("reads the IETF draft's earlier RateLimit-Limit, -Remaining and -Reset (seconds from now)", () => {
    expect(
      parseRateLimit(
        headers({
          'ratelimit-limit': '100, 100;w=60',
          'ratelimit-remaining': '37',
          'ratelimit-reset': '20',
        }),
        NOW,
      ),
    ).toEqual({ limit: 100, remaining: 37, reset: new Date(NOW + 20_000), family: 'ratelimit' });
  });

  it("reads the draft's structured RateLimit, its limit from the RateLimit-Policy of its name", () => {
    expect(
      parseRateLimit(
        headers({
          'ratelimit-policy': '"burst";q=10;w=1, "default";q=1000;w=60',
          ratelimit: '"default";r=800;t=30',
        }),
        NOW,
      ),
    ).toEqual({
      limit: 1000,
      remaining: 800,
      reset: new Date(NOW + 30_000),
      family: 'ratelimit-structured',
    });
    // The first policy serves a RateLimit item of another name; the older forms too.
    expect(
      parseRateLimit(headers({ 'ratelimit-policy': '100;w=60', ratelimit: '"x";r=9;t=12' }), NOW),
    ).toMatchObject({ limit: 100, remaining: 9, reset: new Date(NOW + 12_000) });
    expect(
      parseRateLimit(headers({ ratelimit: 'limit=100, remaining=50, reset=30' }), NOW),
    ).toMatchObject({ limit: 100, remaining: 50, family: 'ratelimit-structured' });
  });

  it('prefers the contract family when several are sent, and needs a limit from some header', () => {
    expect(
      parseRateLimit(
        headers({
          'x-ratelimit-limit': '100',
          'x-ratelimit-remaining': '99',
          'x-ratelimit-reset': '1795000000',
          'ratelimit-limit': '5',
          'ratelimit-remaining': '1',
          'ratelimit-reset': '3',
        }),
        NOW,
      )?.family,
    ).toBe('x-ratelimit');
    expect(parseRateLimit(headers({ ratelimit: '"default";r=8;t=30' }), NOW)).toBeUndefined();
    expect(
      parseRateLimit(headers({ ratelimit: '"a;b";r=1;t=2', 'ratelimit-policy': '"a;b";q=3' }), NOW),
    ).toMatchObject({ limit: 3, remaining: 1 });
  });

  it('reads any structured value in one bounded pass, giving a finite window or nothing', () => {
    const long = `"p";r=1;t=2, ${'x;'.repeat(500_000)}`;
    expect(
      parseRateLimit(headers({ ratelimit: long, 'ratelimit-policy': '"p";q=5' }), NOW),
    ).toMatchObject({ limit: 5, remaining: 1 });
    const value = fc.oneof(
      fc.string(),
      fc.constantFrom('"d";r=0;t=1', '"d";q=5;w=1', 'limit=1, remaining=0, reset=1e400', '"'),
      fc
        .tuple(
          fc.constantFrom('"d";r=0;t=', 'limit=0, remaining=0, reset=', '"d";q='),
          fc.bigInt({ min: 0n, max: 10n ** 16n }).map(String),
        )
        .map(([field, number]) => field + number),
    );
    fc.assert(
      fc.property(value, value, (ratelimit, policy) => {
        let parsed: Headers;
        try {
          parsed = headers({ ratelimit, 'ratelimit-policy': policy });
        } catch {
          return;
        }
        const info = parseRateLimit(parsed, NOW);
        if (info === undefined) return;
        expect(Number.isFinite(info.reset.getTime()) && info.limit >= 0).toBe(true);
      }),
      { seed: 11, numRuns: 500 },
    );
  });

  it('gives a plain, finite window or nothing for any header values', () => {
    const value = fc.oneof(
      fc.string(),
      fc.constantFrom('NaN', 'Infinity', '-1', '1e308', '0', '100', '99999999999', '1795000000'),
      fc.double().map(String),
      fc.nat().map(String),
    );
    fc.assert(
      fc.property(value, value, value, (limit, remaining, reset) => {
        let parsed: Headers;
        try {
          parsed = headers({
            'x-ratelimit-limit': limit,
            'x-ratelimit-remaining': remaining,
            'x-ratelimit-reset': reset,
          });
        } catch {
          return; // not a value fetch could have given us
        }
        const info = parseRateLimit(parsed);
        if (info === undefined) return;
        expect(Number.isFinite(info.limit) && info.limit >= 0).toBe(true);
        expect(Number.isFinite(info.remaining) && info.remaining >= 0).toBe(true);
        expect(Number.isFinite(info.reset.getTime())).toBe(true);
      }),
      { seed: 7, numRuns: 500 },
    );
  });

  it('is undefined when a header is missing or not a plain number', () => {
    expect(parseRateLimit(headers({ 'x-ratelimit-limit': '100' }))).toBeUndefined();
    expect(
      parseRateLimit(
        headers({
          'x-ratelimit-limit': '100',
          'x-ratelimit-remaining': 'NaN',
          'x-ratelimit-reset': '1',
        }),
      ),
    ).toBeUndefined();
    expect(
      parseRateLimit(
        headers({
          'x-ratelimit-limit': '100',
          'x-ratelimit-remaining': '1',
          'x-ratelimit-reset': '1e308',
        }),
      ),
    ).toBeUndefined();
  });
});
