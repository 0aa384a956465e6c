/**
 * The timing headers at the edges of each rule of src/internal/headers.ts: where a reset stops
 * being seconds from now, where a value stops being read, which member of a list counts. Each case
 * pins a line a mutation of it changed without a test failing (docs/mutation-testing.md).
 */
import { describe, expect, it } from 'vitest';
import { parseRateLimit, retryAfterMs } from '../../src/internal/headers.js';

// A whole second, so a reset counted from now needs no rounding of its own.
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const headers = (entries: Record<string, string>) => new Headers(entries);
const contract = (reset: string, extra: Record<string, string> = {}) =>
  parseRateLimit(
    headers({
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': reset,
      ...extra,
    }),
    NOW,
  );
/** Padding past the first kilobyte, where every reader stops. */
const PAST_1_KB = ' '.repeat(1100);

describe('parseRateLimit: which reset a family means', () => {
  it('reads an X-RateLimit-Reset of 10^9 or more as Unix seconds, below as seconds from now', () => {
    expect(contract('1000000000')?.reset).toEqual(new Date(1e12));
    expect(contract('999999999')?.reset).toEqual(new Date(NOW + 999_999_999_000));
  });

  it('reads a reset up to 10^10 seconds, and none beyond (no clock reaches it)', () => {
    expect(contract('10000000000')?.reset).toEqual(new Date(1e13));
    expect(contract('10000000001')).toBeUndefined();
    // Past the bound, the next family present answers instead.
    expect(
      contract('10000000001', {
        'ratelimit-limit': '5',
        'ratelimit-remaining': '1',
        'ratelimit-reset': '3',
      }),
    ).toEqual({ limit: 5, remaining: 1, reset: new Date(NOW + 3000), family: 'ratelimit' });
  });

  it('reads RateLimit-Reset as seconds from now, however large', () => {
    expect(
      parseRateLimit(
        headers({
          'ratelimit-limit': '5',
          'ratelimit-remaining': '1',
          'ratelimit-reset': '1000000000',
        }),
        NOW,
      )?.reset,
    ).toEqual(new Date(NOW + 1e12));
  });

  it('rounds a reset from now up to the next whole second', () => {
    expect(contract('1.2')?.reset).toEqual(new Date(NOW + 2000));
    expect(contract('1')?.reset).toEqual(new Date(NOW + 1000));
  });

  it('takes the first member of a list and reads the first kilobyte only', () => {
    expect(contract('30', { 'x-ratelimit-limit': '100;w=60' })?.limit).toBe(100);
    expect(contract('30', { 'x-ratelimit-limit': '100, 50' })?.limit).toBe(100);
    expect(contract('30', { 'x-ratelimit-limit': '100 ;w=60' })?.limit).toBe(100);
    expect(contract('30', { 'x-ratelimit-limit': `7${PAST_1_KB}x` })?.limit).toBe(7);
  });

  it('reads a window whose counts are 0, or whose remaining count exceeds its limit', () => {
    expect(contract('30', { 'x-ratelimit-limit': '0' })).toMatchObject({ limit: 0, remaining: 0 });
    expect(
      contract('30', { 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '5' }),
    ).toMatchObject({ limit: 1, remaining: 5 });
  });

  it('needs both a limit and a remaining count', () => {
    expect(parseRateLimit(headers({ 'x-ratelimit-reset': '30' }), NOW)).toBeUndefined();
    expect(
      parseRateLimit(headers({ 'x-ratelimit-reset': '30', 'x-ratelimit-limit': '1' }), NOW),
    ).toBeUndefined();
    expect(
      parseRateLimit(headers({ 'x-ratelimit-reset': '30', 'x-ratelimit-remaining': '1' }), NOW),
    ).toBeUndefined();
  });
});

describe('parseRateLimit: the structured RateLimit field', () => {
  const structured = (ratelimit: string, policy?: string) =>
    parseRateLimit(
      headers({ ratelimit, ...(policy === undefined ? {} : { 'ratelimit-policy': policy }) }),
      NOW,
    );

  it('takes the limit of the policy of its name, wherever it stands in the list', () => {
    expect(structured(' "b";r=1;t=2', '"a";q=10, "b";q=20')).toEqual({
      limit: 20,
      remaining: 1,
      reset: new Date(NOW + 2000),
      family: 'ratelimit-structured',
    });
  });

  it('takes the first policy when none has its name, and a plain number as its limit', () => {
    expect(structured('"b";r=1;t=2', '"a";q=10, "c";q=20')?.limit).toBe(10);
    // The name is the field's first item: a quoted string later on names nothing.
    expect(structured('r=1;t=2;x="b"', '"a";q=10, "b";q=20')?.limit).toBe(10);
    expect(structured('r=1;t=2', '100;w=60, 5;w=1')?.limit).toBe(100);
  });

  it('reads a parameter only when it is a whole one: after a separator and before one', () => {
    expect(structured('"p";r=1;xt=5', '"p";q=3')).toBeUndefined();
    expect(structured('"p";r=1;t=5x', '"p";q=3')).toBeUndefined();
    expect(structured('"p";r=1;t=5,', '"p";q=3')?.reset).toEqual(new Date(NOW + 5000));
    expect(structured('"p" r=1 t=2.5', '"p";q=3')?.reset).toEqual(new Date(NOW + 3000));
  });

  it('reads the older names, limit= remaining= reset=', () => {
    expect(structured('limit=100, remaining=50, reset=30')).toEqual({
      limit: 100,
      remaining: 50,
      reset: new Date(NOW + 30_000),
      family: 'ratelimit-structured',
    });
  });

  it('reads the first kilobyte of the field and of the policy only', () => {
    expect(structured(`"p";r=1;t=2${PAST_1_KB};limit=9`, '"p";q=3')?.limit).toBe(3);
    expect(structured('"p";r=1;t=2', `"p";w=1${PAST_1_KB};q=3`)?.limit).toBeUndefined();
  });
});

describe('retryAfterMs: the edges of Retry-After', () => {
  const wait = (entries: Record<string, string>) => retryAfterMs(headers(entries), NOW);

  it('rounds to the nearest millisecond', () => {
    expect(wait({ 'retry-after': '1.0004' })).toBe(1000);
    expect(wait({ 'retry-after': '1.0006' })).toBe(1001);
  });

  it('reads a date only in the HTTP-date form, with or without spaces around it', () => {
    const date = new Date(NOW + 5000).toUTCString();
    expect(wait({ 'retry-after': ` ${date} ` })).toBe(5000);
    // Headers strips the spaces and tabs around a value, not the rest of what trim() does.
    expect(wait({ 'retry-after': `\f${date}\v` })).toBe(5000);
    expect(wait({ 'retry-after': new Date(NOW + 5000).toISOString() })).toBeUndefined();
    expect(wait({ 'retry-after': `x${date}` })).toBeUndefined();
  });

  it('reads the first kilobyte of a repeated Retry-After', () => {
    expect(wait({ 'retry-after': `30${PAST_1_KB}, 60` })).toBe(30_000);
  });

  it('falls back to the spent window when Retry-After says nothing usable', () => {
    expect(
      wait({ 'retry-after': 'soon', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '4' }),
    ).toBe(4000);
    expect(
      wait({ 'retry-after': '30, 60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '4' }),
    ).toBe(4000);
  });

  it('waits no less than nothing for a reset already past', () => {
    expect(
      wait({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 - 5) }),
    ).toBe(0);
  });
});
