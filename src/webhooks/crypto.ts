/**
 * The key material and HMAC-SHA256 of Standard Webhooks: base64, the key inside a `whsec_`
 * secret, and two HMAC backends (node:crypto where the runtime has it, Web Crypto everywhere),
 * so that each runtime signs with its fastest implementation. Used by verifyWebhook and by the
 * signer of the testing entry.
 */
import { WEBHOOK_SECRET_PREFIX } from '../contract.js';

// Standard alphabet only; padding may be left off. `atob` alone would also accept whitespace.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

/** Decodes standard base64, or returns `undefined` when `text` is not base64. */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!BASE64.test(text)) return undefined;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Encodes bytes as standard, padded base64. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The HMAC key inside a `whsec_…` secret, or `undefined` when the secret is malformed or empty. */
export function parseSecret(secret: string): Uint8Array<ArrayBuffer> | undefined {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) return undefined;
  const key = decodeBase64(secret.slice(WEBHOOK_SECRET_PREFIX.length));
  return key?.length ? key : undefined;
}

// A process verifies with a handful of secrets; the bound only guards against callers that pass
// a fresh secret on every request.
export const MAX_CACHED_SECRETS = 16;

/**
 * Stores `value` under `secret` in `cache`, first dropping the oldest entry when the cache is
 * full, and returns `value`. For what is derived from a secret (its decoded or imported key), so
 * that a receiver pays for that once per secret, not on every request.
 */
export function remember<Value>(cache: Map<string, Value>, secret: string, value: Value): Value {
  if (cache.size >= MAX_CACHED_SECRETS) cache.delete(cache.keys().next().value!);
  cache.set(secret, value);
  return value;
}

/** Signed content: the `${id}.${timestamp}.` prefix followed by the body exactly as received. */
interface SignedContent {
  prefix: string;
  body: string | Uint8Array;
}

/** The two primitives verification needs, so each runtime can use its fastest implementation. */
export interface HmacBackend {
  /** HMAC-SHA256 of `content` under `key`; `secret` is the key's text form, for caching. */
  sign(secret: string, key: Uint8Array<ArrayBuffer>, content: SignedContent): Promise<Uint8Array>;
  /** Compares in time that depends only on the lengths. */
  equal(a: Uint8Array, b: Uint8Array): boolean;
}

// The slice of node:crypto in use, typed here so that browser builds need no Node types.
interface NodeHmac {
  update(data: string | Uint8Array): NodeHmac;
  digest(): Uint8Array;
}
interface NodeCrypto {
  createHmac(algorithm: 'sha256', key: Uint8Array): NodeHmac;
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}
type ProcessWithBuiltins = { getBuiltinModule?: (id: string) => unknown };

/**
 * node:crypto, several times faster than Web Crypto for HMAC in Node, or `undefined` where the
 * runtime lacks it. Fetched at run time because a static import would break browser bundles;
 * `process.getBuiltinModule` exists in Node 20.16+, Bun and Deno.
 */
export function nodeCrypto(): HmacBackend | undefined {
  const process = (globalThis as { process?: ProcessWithBuiltins }).process;
  const crypto = process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
  if (!crypto) return undefined;
  return {
    async sign(_secret, key, { prefix, body }) {
      return crypto.createHmac('sha256', key).update(prefix).update(body).digest();
    },
    equal(a, b) {
      return a.length === b.length && crypto.timingSafeEqual(a, b);
    },
  };
}

const importedKeys = new Map<string, Promise<CryptoKey>>();
const encoder = new TextEncoder();

function importKey(secret: string, key: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return (
    importedKeys.get(secret) ??
    remember(
      importedKeys,
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

/** Web Crypto, available in every runtime the SDK supports; imports each secret's key once. */
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
