import type { HmacBackend, SignedContent } from './backend.js';
import { remember } from './cache.js';

const keys = new Map<string, Promise<CryptoKey>>();
const encoder = new TextEncoder();

function importKey(secret: string, key: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return (
    keys.get(secret) ??
    remember(
      keys,
      secret,
      crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']),
    )
  );
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
