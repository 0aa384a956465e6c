import type { HmacBackend } from './backend.js';

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
