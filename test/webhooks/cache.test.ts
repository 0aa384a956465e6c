import { afterEach, describe, expect, it, vi } from 'vitest';
import { signWebhook } from '../../src/testing/webhook-signer.js';
import { MAX_CACHED_SECRETS, remember } from '../../src/webhooks/cache.js';
import { nodeCrypto } from '../../src/webhooks/crypto-node.js';
import { verifyWith } from '../../src/webhooks/verify.js';
import { BODY, expectRejection, NOW, NOW_MS } from './fixtures.js';

afterEach(() => {
  vi.restoreAllMocks();
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

describe('decoded secrets in verification', () => {
  const backend = nodeCrypto()!;
  const secretFor = (label: string) => `whsec_${btoa(`cache test ${label}`)}`;
  /** Verifies a delivery signed with `secret`, and counts how often its base64 was decoded. */
  async function decodesWhileVerifying(secret: string): Promise<number> {
    const headers = await signWebhook(BODY, secret, { id: 'evt_cache', timestamp: NOW });
    const atob = vi.spyOn(globalThis, 'atob');
    await expect(verifyWith(backend, BODY, headers, secret, { now: NOW_MS })).resolves.toEqual(
      JSON.parse(BODY),
    );
    const decodes = atob.mock.calls.filter(([text]) => `whsec_${text}` === secret).length;
    atob.mockRestore();
    return decodes;
  }

  it('decodes a secret once, and again only after other secrets pushed it out of the cache', async () => {
    const secret = secretFor('kept');
    expect(await decodesWhileVerifying(secret)).toBe(1);
    expect(await decodesWhileVerifying(secret)).toBe(0);
    for (let n = 0; n < MAX_CACHED_SECRETS; n++) await decodesWhileVerifying(secretFor(`${n}`));
    expect(await decodesWhileVerifying(secret)).toBe(1);
  });

  it('does not keep malformed secrets: each attempt fails with invalid_secret', async () => {
    const headers = await signWebhook(BODY, secretFor('valid'), { timestamp: NOW });
    for (let n = 0; n < 3; n++) {
      await expectRejection(
        verifyWith(backend, BODY, headers, 'whsec_not base64!', { now: NOW_MS }),
        'invalid_secret',
      );
    }
  });
});
