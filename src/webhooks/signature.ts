import { WEBHOOK_SIGNATURE_VERSION } from '../contract.js';
import { decodeBase64 } from './base64.js';

// Entries are separated by spaces; a comma also ends one, since a repeated header arrives joined
// with `, `. Base64 holds neither, so the first comma of an entry ends its version.
const ENTRY = new RegExp(`(?:^|[\\s,])${WEBHOOK_SIGNATURE_VERSION},([^\\s,]+)`, 'g');

/** The decoded `v1` signatures in a `webhook-signature` header; other versions and garbage are skipped. */
export function parseSignatures(header: string): Uint8Array[] {
  const signatures: Uint8Array[] = [];
  // exec on the one shared RegExp: matchAll would copy it on every call. exec leaves lastIndex
  // at 0 when it finds no more entries, and nothing else runs in between.
  ENTRY.lastIndex = 0;
  for (let entry = ENTRY.exec(header); entry; entry = ENTRY.exec(header)) {
    const signature = decodeBase64(entry[1]!);
    if (signature) signatures.push(signature);
  }
  return signatures;
}
