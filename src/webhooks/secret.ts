import { WEBHOOK_SECRET_PREFIX } from '../contract.js';
import { decodeBase64 } from './base64.js';

/** The HMAC key inside a `whsec_…` secret, or `undefined` when the secret is malformed or empty. */
export function parseSecret(secret: string): Uint8Array<ArrayBuffer> | undefined {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) return undefined;
  const key = decodeBase64(secret.slice(WEBHOOK_SECRET_PREFIX.length));
  return key?.length ? key : undefined;
}
