import type {
  WEBHOOK_HEADER_ID,
  WEBHOOK_HEADER_SIGNATURE,
  WEBHOOK_HEADER_TIMESTAMP,
} from '../contract.js';

/**
 * Request headers: a Fetch `Headers`, or a plain object as Node's `req.headers` and Express give
 * them (names in any case, values possibly arrays). The last member admits interfaces without an
 * index signature, such as the headers `signWebhook` returns.
 */
export type WebhookRequestHeaders =
  | Headers
  | { readonly [name: string]: string | readonly string[] | undefined }
  | {
      readonly [
        name in
          | typeof WEBHOOK_HEADER_ID
          | typeof WEBHOOK_HEADER_TIMESTAMP
          | typeof WEBHOOK_HEADER_SIGNATURE
      ]?: string | readonly string[];
    };

/**
 * The value of header `name` (lower case), or `undefined` when it is absent or empty. Repeated
 * values are joined with `, `, as `Headers.get` does, so both forms verify alike.
 */
export function readHeader(headers: unknown, name: string): string | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  if (typeof (headers as Headers).get === 'function') {
    const value: unknown = (headers as Headers).get(name);
    return typeof value === 'string' && value ? value : undefined;
  }
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    for (const each of [value].flat()) if (typeof each === 'string') values.push(each);
  }
  return values.join(', ') || undefined;
}
