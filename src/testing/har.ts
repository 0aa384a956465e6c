// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the parts a recording writes and a
// replay reads: browsers' network panels, Polly.js and @mswjs/source open the same files.
import { API_VERSION_PREFIX, OPERATIONS, type OperationName } from '../contract.js';

/** A name and value: a header, query parameter or form field of a {@link HarEntry}. */
export interface HarNameValue {
  /** As sent or received; header names lower-case. */
  name: string;
  /** The value, or `REDACTED`. */
  value: string;
}

/** The body of a recorded request. */
export interface HarPostData {
  /** The request's `Content-Type`. */
  mimeType: string;
  /** The body as text, redacted. */
  text?: string | undefined;
  /** A form's fields, redacted. */
  params?: HarNameValue[] | undefined;
  /** Set when the body was cut at the recorder's `maxBodyBytes`. */
  comment?: string | undefined;
  /**
   * The JSON paths (`message`, `sender.name`) or form fields whose values the redaction changed:
   * a replay matches any value there.
   */
  _redacted?: string[] | undefined;
}

/** One request and its answer. */
export interface HarEntry {
  /** When the request started: ISO 8601. */
  startedDateTime: string;
  /** Milliseconds from the request to the answer's last byte. */
  time: number;
  /** The request as the app made it: its URL, headers and body, redacted. */
  request: {
    /** The HTTP method, upper-case. */
    method: string;
    /** The absolute URL, its secret query parameters redacted. */
    url: string;
    /** `HTTP/1.1`: fetch does not say which version carried it. */
    httpVersion: string;
    /** Always empty: cookies are headers here, and redacted. */
    cookies: HarNameValue[];
    /** The headers the app gave, credentials redacted. */
    headers: HarNameValue[];
    /** The URL's query parameters, as in `url`. */
    queryString: HarNameValue[];
    /** The body, when the request had one. */
    postData?: HarPostData | undefined;
    /** -1: not known to fetch. */
    headersSize: number;
    /** The body's length in bytes, 0 without one. */
    bodySize: number;
    /** A note on the request. */
    comment?: string | undefined;
  };
  /** The answer as the app got it, redacted. */
  response: {
    /** 0 when no answer came (a dropped connection, a refused one): a replay drops it again. */
    status: number;
    /** The status text the server sent. */
    statusText: string;
    /** `HTTP/1.1`, or empty without an answer. */
    httpVersion: string;
    /** Always empty: cookies are headers here, and redacted. */
    cookies: HarNameValue[];
    /** The answer's headers, lower-case names, secrets redacted. */
    headers: HarNameValue[];
    /** The answer's body. */
    content: {
      /** The body's length in bytes as received, before any truncation. */
      size: number;
      /** The answer's `Content-Type`. */
      mimeType: string;
      /** The body as text (base64 when `encoding` says so), redacted. */
      text?: string | undefined;
      /** `base64` for a body that is not text. */
      encoding?: string | undefined;
      /** Set when the body was cut at the recorder's `maxBodyBytes`. */
      comment?: string | undefined;
    };
    /** The `Location` header, or empty. */
    redirectURL: string;
    /** -1: not known to fetch. */
    headersSize: number;
    /** The body's length in bytes, -1 without an answer. */
    bodySize: number;
    /** Why there is no answer, for a status of 0. */
    comment?: string | undefined;
  };
  /** Always empty: a recording holds no cache state. */
  cache: Record<string, never>;
  /** Milliseconds sending (0: not known to fetch), waiting for the headers, reading the body. */
  timings: {
    /** 0: fetch does not say. */
    send: number;
    /** From the request to the answer's headers. */
    wait: number;
    /** From the headers to the body's last byte. */
    receive: number;
  };
  /** A note on the entry. */
  comment?: string | undefined;
}

/** A HAR 1.2 file, as `JSON.parse` of a recording gives it. */
export interface Har {
  /** The recording: HAR 1.2, written by this SDK, its entries oldest first. */
  log: {
    /** `1.2`. */
    version: string;
    /** What wrote it: this SDK and its version. */
    creator: {
      /** `@employee-recognition/sdk`. */
      name: string;
      /** The SDK's version. */
      version: string;
    };
    /** The requests and their answers, in the order they completed. */
    entries: HarEntry[];
    /** A note, such as how many entries were left out past `maxEntries`. */
    comment?: string | undefined;
  };
}

// The operations' path templates as patterns, most specific (longest) first.
const TEMPLATES = Object.entries(OPERATIONS).map(([name, template]) => {
  const [method, path] = template.split(' ') as [string, string];
  const pattern = new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);
  return { name: name as OperationName, method, pattern };
});

/**
 * The operation a request is, by its method and URL: the path below the API's version prefix
 * (so that a base URL with a path of its own still matches); undefined for any other request,
 * such as a token request or an endpoint this SDK does not know.
 */
export function operationOf(method: string, url: string): OperationName | undefined {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const at = pathname.indexOf(`${API_VERSION_PREFIX}/`);
  if (at < 0) return undefined;
  const path = pathname.slice(at).replace(/\/$/, '');
  return TEMPLATES.find((each) => each.method === method && each.pattern.test(path))?.name;
}

/** A header's value in a HAR list, by name in any case; several are joined with `, `. */
export function harHeader(headers: readonly HarNameValue[], name: string): string | undefined {
  const lower = name.toLowerCase();
  const values = headers.filter((each) => each.name.toLowerCase() === lower);
  return values.length ? values.map((each) => each.value).join(', ') : undefined;
}

/** The JSON a body text holds, or undefined when it is not JSON. */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
