import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  decodeBase64,
  encodeBase64,
  MAX_CACHED_SECRETS,
  nodeCrypto,
  parseSecret,
  remember,
  webCrypto,
} from '../../src/webhooks/crypto.js';

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

describe('remember', () => {
  it('stores and returns the value', () => {
    const cache = new Map<string, number>();
    expect(remember(cache, 'a', 1)).toBe(1);
    expect(cache.get('a')).toBe(1);
  });

  it(`holds at most ${MAX_CACHED_SECRETS} entries, dropping the oldest`, () => {
    const cache = new Map<string, number>();
    for (let n = 0; n <= MAX_CACHED_SECRETS; n++) remember(cache, `secret-${n}`, n);
    expect(cache.size).toBe(MAX_CACHED_SECRETS);
    expect(cache.has('secret-0')).toBe(false);
    expect(cache.has('secret-1')).toBe(true);
    expect(cache.has(`secret-${MAX_CACHED_SECRETS}`)).toBe(true);
  });
});

// The two HMAC backends: their contract is to agree with each other and with the standard.
const node = nodeCrypto()!;

describe('nodeCrypto', () => {
  it('is available in Node through process.getBuiltinModule', () => {
    expect(node).toBeDefined();
  });

  it('is undefined where process.getBuiltinModule is missing, so Web Crypto takes over', () => {
    vi.spyOn(process, 'getBuiltinModule').mockReturnValue(undefined as never);
    expect(nodeCrypto()).toBeUndefined();
  });
});

describe.each([
  ['node:crypto', node],
  ['Web Crypto', webCrypto],
] as const)('%s backend', (_name, backend) => {
  it('computes the Standard Webhooks test vector', async () => {
    const key = Uint8Array.from(atob('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'), (c) => c.charCodeAt(0));
    const mac = await backend.sign('vector', key, {
      prefix: 'msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.',
      body: '{"test": 2432232314}',
    });
    expect(encodeBase64(mac)).toBe('g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('compares equal bytes as equal, and any difference in content or length as unequal', () => {
    const a = Uint8Array.of(1, 2, 3);
    expect(backend.equal(a, Uint8Array.of(1, 2, 3))).toBe(true);
    expect(backend.equal(a, Uint8Array.of(1, 2, 4))).toBe(false);
    expect(backend.equal(a, Uint8Array.of(1, 2))).toBe(false);
    expect(backend.equal(a, Uint8Array.of(1, 2, 3, 0))).toBe(false);
    expect(backend.equal(new Uint8Array(), new Uint8Array())).toBe(true);
  });
});

describe('the two backends', () => {
  it('produce the same HMAC for any key, prefix and body, as string or bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.string(),
        fc.oneof(fc.string({ unit: 'binary' }), fc.uint8Array({ maxLength: 256 })),
        async (key, prefix, body) => {
          const secret = `property-${key.join('.')}`;
          const content = { prefix, body };
          const [fromNode, fromWeb] = await Promise.all([
            node.sign(secret, new Uint8Array(key), content),
            webCrypto.sign(secret, new Uint8Array(key), content),
          ]);
          expect(Buffer.from(fromNode).equals(Buffer.from(fromWeb))).toBe(true);
        },
      ),
      { seed: 5, numRuns: 200 },
    );
  });
});

describe('webCrypto key cache', () => {
  const content = { prefix: 'evt_1.1.', body: '{}' };
  const keyFor = (n: number) => Uint8Array.of(n + 1);

  it('imports the key of a secret once and reuses it', async () => {
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    await webCrypto.sign('cache-reuse', keyFor(0), content);
    await webCrypto.sign('cache-reuse', keyFor(0), content);
    expect(importKey).toHaveBeenCalledTimes(1);
  });

  it(`holds at most ${MAX_CACHED_SECRETS} keys, dropping the oldest`, async () => {
    for (let n = 0; n <= MAX_CACHED_SECRETS; n++) {
      await webCrypto.sign(`cache-bound-${n}`, keyFor(n), content);
    }
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    await webCrypto.sign(`cache-bound-${MAX_CACHED_SECRETS}`, keyFor(MAX_CACHED_SECRETS), content);
    expect(importKey).not.toHaveBeenCalled();
    await webCrypto.sign('cache-bound-0', keyFor(0), content);
    expect(importKey).toHaveBeenCalledTimes(1);
  });
});
