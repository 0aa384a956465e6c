/** A request as the mock received it, for tests to count and inspect. */
export interface RecordedRequest {
  /** The X-Request-Id the mock gave it. */
  id: string;
  /** The HTTP method, upper-case, such as `GET`. */
  method: string;
  /** The path below the base URL, such as `/v1/recognitions`. */
  path: string;
  /** The query parameters by name; a repeated name keeps its last value. */
  query: Record<string, string>;
  /** Lower-case names; the credential in `authorization` is replaced by `[redacted]`. */
  headers: Record<string, string>;
  /** The parsed JSON body, or its text when it is not JSON (a form's `client_secret` redacted); `undefined` when empty. */
  body: unknown;
  /** The mock's clock when it arrived, in ms. */
  time: number;
}

/** Records a request without its credential. */
export function recordRequest(
  request: Request,
  fields: { id: string; path: string; query: URLSearchParams; body: string; time: number },
): RecordedRequest {
  const headers = Object.fromEntries(request.headers);
  if (headers.authorization !== undefined) headers.authorization = redact(headers.authorization);
  return {
    id: fields.id,
    method: request.method,
    path: fields.path,
    query: Object.fromEntries(fields.query),
    headers,
    body: parseLoosely(fields.body.replace(/(^|&)(client_secret=)[^&]*/, '$1$2[redacted]')),
    time: fields.time,
  };
}

// Keeps the scheme, so tests can still see that `Bearer` was sent.
function redact(authorization: string): string {
  const scheme = /^(\S+) /.exec(authorization)?.[1];
  return scheme ? `${scheme} [redacted]` : '[redacted]';
}

function parseLoosely(body: string): unknown {
  if (body === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}
