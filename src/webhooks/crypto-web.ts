import type { HmacBackend, SignedContent } from './backend.js';

// A process verifies with a handful of secrets; the bound only guards against callers that pass
// a fresh secret on every request.
const MAX_CACHED_KEYS = 16;
const keys = new Map<string, Promise<CryptoKey>>();
const encoder = new TextEncoder();

function importKey(secret: string, key: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  let cryptoKey = keys.get(secret);
  if (!cryptoKey) {
    if (keys.size >= MAX_CACHED_KEYS) keys.delete(keys.keys().next().value!);
    cryptoKey = crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    keys.set(secret, cryptoKey);
  }
  return cryptoKey;
}

function toBytes({ prefix, body }: SignedContent): Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return encoder.encode(prefix + body);
  const head = encoder.encode(prefix);
  const bytes = new Uint8Array(head.length + body.length);
  bytes.set(head);
  bytes.set(body, head.length);
  return bytes;
}

/** Web Crypto, available in every runtime the SDK supports. */
export const webCrypto: HmacBackend = {
  async sign(secret, key, content) {
    const cryptoKey = await importKey(secret, key);
    return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, toBytes(content)));
  },
  equal(a, b) {
    if (a.length !== b.length) return false;
    let difference = 0;
    for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
    return difference === 0;
  },
};
