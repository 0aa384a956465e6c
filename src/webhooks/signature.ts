import { WEBHOOK_SIGNATURE_VERSION } from '../contract.js';
import { decodeBase64 } from './base64.js';

// Entries are separated by spaces; a comma also ends one, since a repeated header arrives joined
// with `, `. Base64 holds neither, so the first comma of an entry ends its version.
const ENTRY = new RegExp(`(?:^|[\\s,])${WEBHOOK_SIGNATURE_VERSION},([^\\s,]+)`, 'g');

/** The decoded `v1` signatures in a `webhook-signature` header; other versions and garbage are skipped. */
export function parseSignatures(header: string): Uint8Array[] {
  const signatures: Uint8Array[] = [];
  for (const [, encoded] of header.matchAll(ENTRY)) {
    const signature = decodeBase64(encoded!);
    if (signature) signatures.push(signature);
  }
  return signatures;
}
