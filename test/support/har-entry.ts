// One HAR 1.2 entry built for a test: the parts the test gives, and the fields every entry the
// recorder writes carries (its times, HTTP/1.1, no cookies, unknown header sizes). The tests'
// own builders (the redaction's, the `traffic` checks') shape their options into these parts.
import { type HarEntry, type HarNameValue, nameValues } from '../../src/testing/har.js';

type Request = HarEntry['request'];
type Response = HarEntry['response'];

export interface HarEntryParts {
  method?: string;
  url: string;
  requestHeaders?: HarNameValue[];
  postData?: Request['postData'];
  status?: number;
  statusText?: string;
  responseHeaders?: HarNameValue[];
  content: Response['content'];
  redirectURL?: string;
  /** The response's `bodySize`: 0 unless given, as a test that reads it says. */
  bodySize?: number;
}

/** A HAR entry of `parts`; its `queryString` is the URL's query, as the recorder writes it. */
export function harEntry(parts: HarEntryParts): HarEntry {
  return {
    startedDateTime: '2026-11-21T09:30:00.000Z',
    time: 1,
    request: {
      method: parts.method ?? 'GET',
      url: parts.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: parts.requestHeaders ?? [],
      queryString: nameValues(new URL(parts.url).searchParams),
      ...(parts.postData && { postData: parts.postData }),
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: parts.status ?? 200,
      statusText: parts.statusText ?? 'OK',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: parts.responseHeaders ?? [],
      content: parts.content,
      redirectURL: parts.redirectURL ?? '',
      headersSize: -1,
      bodySize: parts.bodySize ?? 0,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  };
}
