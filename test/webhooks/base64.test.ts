import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64 } from '../../src/webhooks/base64.js';

describe('base64', () => {
  it('round-trips any bytes, agreeing with Node Buffer', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const text = encodeBase64(bytes);
        expect(text).toBe(Buffer.from(bytes).toString('base64'));
        expect(decodeBase64(text)).toEqual(bytes);
      }),
      { seed: 5 },
    );
  });

  it('accepts base64 without its padding', () => {
    expect(decodeBase64('AQI')).toEqual(Uint8Array.of(1, 2));
    expect(decodeBase64('AQ')).toEqual(Uint8Array.of(1));
  });

  it.each(['A', 'AQ=', 'A===', '=AQI', 'AQ==AQ==', 'AQ I=', ' AQI=', 'AQI=\n', '-_8=', 'é'])(
    'rejects %j as not base64',
    (text) => {
      expect(decodeBase64(text)).toBeUndefined();
    },
  );
});
