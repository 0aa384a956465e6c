import { describe, expect, it } from 'vitest';
import { parseSignatures } from '../../src/webhooks/signature.js';

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('parseSignatures', () => {
  it('decodes every v1 entry of a space-separated header', () => {
    expect(parseSignatures('v1,AQI= v1,AwQ=')).toEqual([bytes(1, 2), bytes(3, 4)]);
  });

  it('reads entries of a repeated header joined with ", "', () => {
    expect(parseSignatures('v1,AQI=, v1,AwQ=')).toEqual([bytes(1, 2), bytes(3, 4)]);
  });

  it('skips other versions, look-alikes and entries that are not base64', () => {
    expect(parseSignatures('v2,AQI= v1a,AQI= av1,AQI= V1,AQI= v1,A*I= v1, v1,AwQ=')).toEqual([
      bytes(3, 4),
    ]);
  });

  it('tolerates extra whitespace around entries', () => {
    expect(parseSignatures('  v1,AQI=\t\tv1,AwQ=  ')).toEqual([bytes(1, 2), bytes(3, 4)]);
  });

  it('returns nothing for an empty or unrelated header', () => {
    expect(parseSignatures('')).toEqual([]);
    expect(parseSignatures('sha256=abcdef')).toEqual([]);
  });
});
