// The entries the redaction's tests give it, as the recorder builds them.
import type { HarEntry } from '../../src/testing/har.js';

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
    truncated?: boolean;
  } = {},
): HarEntry {
  const url = new URL(options.url ?? 'https://api.example/v1/users');
  const pairs = (record: Record<string, string> = {}) =>
    Object.entries(record).map(([name, value]) => ({ name, value }));
  const text =
    typeof options.responseBody === 'string'
      ? options.responseBody
      : JSON.stringify(options.responseBody ?? { data: [] });
  return {
    startedDateTime: '2026-11-21T09:30:00.000Z',
    time: 1,
    request: {
      method: options.method ?? 'GET',
      url: url.href,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(options.requestHeaders),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(options.requestBody === undefined
        ? {}
        : {
            postData: {
              mimeType: options.requestMime ?? 'application/json',
              text: options.requestBody,
            },
          }),
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs({ 'content-type': 'application/json', ...options.responseHeaders }),
      content: { size: text.length, mimeType: 'application/json', text },
      redirectURL: '',
      headersSize: -1,
      bodySize: text.length,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  };
}
