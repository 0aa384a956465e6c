import { describe, expect, it } from 'vitest';
import { parseSecret } from '../../src/webhooks/secret.js';

describe('parseSecret', () => {
  it('returns the bytes encoded after whsec_', () => {
    expect(parseSecret('whsec_c2VjcmV0')).toEqual(new TextEncoder().encode('secret'));
  });

  it.each(['', 'whsec_', 'c2VjcmV0', 'WHSEC_c2VjcmV0', 'whsec_c2Vj*mV0', 'whsec_ c2VjcmV0'])(
    'returns undefined for %j, which is not whsec_ and non-empty base64',
    (secret) => {
      expect(parseSecret(secret)).toBeUndefined();
    },
  );
});
