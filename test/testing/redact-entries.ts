// The entries the redaction's tests give it, as the recorder builds them.
import type { HarEntry } from '../../src/testing/har.js';
import { harEntry } from '../support/har-entry.js';

const pairs = (record: Record<string, string> = {}) =>
  Object.entries(record).map(([name, value]) => ({ name, value }));

/** A HAR entry as the recorder builds it, before redaction. */
export function entryOf(
  options: {
    method?: string;
    url?: string;
    requestHeaders?: Record<string, string>;
    requestBody?: string;
    requestMime?: string;
    responseHeaders?: Record<string, string>;
    responseBody?: unknown;
  } = {},
): HarEntry {
  const text =
    typeof options.responseBody === 'string'
      ? options.responseBody
      : JSON.stringify(options.responseBody ?? { data: [] });
  return harEntry({
    ...(options.method !== undefined && { method: options.method }),
    url: new URL(options.url ?? 'https://api.example/v1/users').href,
    requestHeaders: pairs(options.requestHeaders),
    ...(options.requestBody !== undefined && {
      postData: { mimeType: options.requestMime ?? 'application/json', text: options.requestBody },
    }),
    responseHeaders: pairs({ 'content-type': 'application/json', ...options.responseHeaders }),
    content: { size: text.length, mimeType: 'application/json', text },
    bodySize: text.length,
  });
}
