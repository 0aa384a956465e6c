import ky, { HTTPError, type Options, TimeoutError } from 'ky';
import { HEADER_IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_MAX_LENGTH } from '../contract.js';
import { VERSION } from '../version.js';
import { type ApiKeySource, type ClientConfig, checkCredential } from './config.js';
import { apiErrorFromResponse } from './error-response.js';
import {
  ApiConnectionError,
  ApiTimeoutError,
  ApiUserAbortError,
  AuthenticationError,
  EmployeeRecognitionError,
  localValidationError,
} from './errors.js';
import { retryOptions } from './retry.js';
import { Throttle } from './throttle.js';

/** Per-call options, accepted as the last argument of every method. */
export interface RequestOptions {
  /** Cancels the call at once, retries included. */
  signal?: AbortSignal | undefined;
  /** Milliseconds one attempt may take; overrides the client's `timeout`. */
  timeout?: number | undefined;
  /** Further attempts after a retryable failure; overrides the client's `maxRetries`. */
  maxRetries?: number | undefined;
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined;
  /** Idempotency-Key for a POST or PATCH; by default a fresh UUID per call, kept across retries. */
  idempotencyKey?: string | undefined;
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | undefined;

/** One operation of the API, as a resource describes it to the core. */
export interface ApiRequest {
  method: HttpMethod;
  /** Path from the contract, starting with `/v1/`. Ids in it are already URL-encoded. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  body?: unknown;
}

/** An answer with its body read: JSON parsed, or undefined for 204. */
export interface RawResponse {
  response: Response;
  body: unknown;
}

/** Sends one API request with auth, retries and timeouts, and turns every failure into an SDK error. */
export type Transport = (request: ApiRequest, options?: RequestOptions) => Promise<RawResponse>;

/**
 * Builds the transport a client uses. The credential lives only in this closure: nothing reachable
 * from the client object holds it, so no inspection or serialization can show it.
 *
 * Per call it hands ky one options object built from parts prepared here once: calling the root
 * `ky` skips the deep merge of instance defaults that `ky.create()` instances do on every call, the
 * URL arrives with its query already built (one Request instead of two), and a signal goes to ky
 * only when the caller gave one, so ky makes no AbortSignal.any() for calls without one. Those were
 * the largest per-call costs in the profile (docs/benchmarks.md).
 */
export function createTransport(config: ClientConfig): Transport {
  const base = baseOptions(config);
  return async (request, options = {}) => {
    const timeout = options.timeout ?? config.timeout;
    let response: Response;
    try {
      response = await ky(requestUrl(config.baseUrl, request), {
        ...base,
        method: request.method,
        headers: requestHeaders(base.headers, request, options),
        timeout,
        ...(request.body !== undefined && { json: request.body }),
        ...(options.signal && { signal: options.signal }),
        ...(options.maxRetries !== undefined && { retry: retryOptions(options.maxRetries) }),
      });
    } catch (error) {
      throw await toSdkError(error, options.signal, timeout);
    }
    return { response, body: await readBody(response, timeout, options.signal) };
  };
}

interface BaseOptions extends Options {
  headers: Record<string, string>;
}

/** The options every call of a client shares, prepared once. */
function baseOptions(config: ClientConfig): BaseOptions {
  const { apiKey } = config;
  const throttle = config.rateLimit === 'auto' ? new Throttle() : undefined;
  const fetch = throttle
    ? throttledFetch(throttle, config.fetch ?? globalThis.fetch)
    : config.fetch;
  const bearer = typeof apiKey === 'string' ? `Bearer ${apiKey}` : undefined;
  return {
    // As ky.create() held them: one entry per lower-cased name.
    headers: Object.fromEntries(
      new Headers({ accept: 'application/json', ...nodeUserAgent(), ...config.headers }),
    ),
    retry: retryOptions(config.maxRetries),
    ...(fetch && { fetch }),
    hooks: {
      // Before every attempt, so a token function can hand out a refreshed token on a retry.
      beforeRequest: [
        bearer
          ? (request) => {
              request.headers.set('authorization', bearer);
            }
          : async (request) => {
              request.headers.set('authorization', `Bearer ${await resolveCredential(apiKey)}`);
            },
        // Waiting here, before ky starts the attempt's timer, keeps pacing out of the timeout.
        ...(throttle ? [(request: Request) => throttle.acquire(request.signal)] : []),
      ],
    },
  };
}

/** The request's URL with its query, as ky's `searchParams` would build it (undefined dropped). */
function requestUrl(baseUrl: string, request: ApiRequest): string {
  const url = baseUrl + request.path;
  if (request.query === undefined) return url;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query)) {
    if (value !== undefined) params.append(name, String(value));
  }
  const query = params.toString();
  return query === '' ? url : `${url}?${query}`;
}

/** Tells the throttle how each attempt ended; it learns the window from the answer's headers. */
function throttledFetch(
  throttle: Throttle,
  fetch: typeof globalThis.fetch,
): typeof globalThis.fetch {
  return async (input, init) => {
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      throttle.release();
      throw error;
    }
    throttle.update(response.headers);
    return response;
  };
}

async function resolveCredential(apiKey: ApiKeySource): Promise<string> {
  if (typeof apiKey === 'string') return apiKey;
  let credential: unknown;
  try {
    credential = await apiKey();
  } catch (cause) {
    throw new EmployeeRecognitionError('The apiKey function failed.', { cause });
  }
  const toError = (message: string) =>
    new AuthenticationError({ status: 401, message, local: true });
  if (typeof credential !== 'string') throw toError('The apiKey function returned no string.');
  checkCredential(credential, toError);
  return credential;
}

/**
 * The client's headers with the call's own on top, a same-named one (in any case) replacing the
 * client's, as ky merges them. POST and PATCH carry an Idempotency-Key.
 */
function requestHeaders(
  base: Record<string, string>,
  request: ApiRequest,
  options: RequestOptions,
): Record<string, string> {
  let own = options.headers;
  if (request.method === 'POST' || request.method === 'PATCH') {
    const idempotencyKey =
      options.idempotencyKey ?? options.headers?.[HEADER_IDEMPOTENCY_KEY] ?? crypto.randomUUID();
    if (idempotencyKey.length < 1 || idempotencyKey.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
      throw localValidationError([
        {
          field: 'idempotencyKey',
          message: `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
        },
      ]);
    }
    own = { ...own, [HEADER_IDEMPOTENCY_KEY]: idempotencyKey };
  }
  if (own === undefined) return base;
  const headers = { ...base };
  for (const [name, value] of new Headers(own)) headers[name] = value;
  return headers;
}

function nodeUserAgent(): Record<string, string> {
  const node = globalThis.process?.versions?.node;
  // Browsers forbid setting User-Agent, and there it would only trigger a CORS preflight.
  return node && !('document' in globalThis)
    ? { 'user-agent': `employee-recognition-sdk-typescript/${VERSION} node/${node}` }
    : {};
}

/**
 * Reads the whole body under the same time budget as an attempt: ky's timeout ends when headers
 * arrive, and a server that sends headers and then stalls must not hang the call.
 */
async function readBody(
  response: Response,
  timeout: number,
  callerSignal: AbortSignal | undefined,
): Promise<unknown> {
  const text = await readText(response, timeout, callerSignal);
  if (response.status === 204 || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return new NotJson(text);
  }
}

/** A 2xx body that is not JSON; the resource layer reports it with the operation's context. */
export class NotJson {
  constructor(readonly text: string) {}
}

const utf8 = new TextDecoder();

/**
 * `response.text()` with a deadline. The body is read through its own reader so that the deadline
 * can cancel it (which ends the download) without an AbortSignal on the request: signals cost
 * more per call than the rest of this module (docs/benchmarks.md). Decoding is the same as text():
 * UTF-8, a leading BOM dropped, invalid bytes replaced.
 */
async function readText(
  response: Response,
  timeout: number,
  callerSignal: AbortSignal | undefined,
): Promise<string> {
  const body = response.body;
  if (body === null) return '';
  const chunks: Uint8Array[] = [];
  let length = 0;
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const reader = body.getReader();
    timer = setTimeout(() => {
      timedOut = true;
      reader.cancel().catch(() => {});
    }, timeout);
    while (true) {
      const { done, value } = await reader.read();
      if (timedOut) throw new DOMException('The response body stalled.', 'TimeoutError');
      if (done) break;
      chunks.push(value);
      length += value.length;
    }
  } catch (error) {
    throw toConnectionError(error, callerSignal, timeout, timedOut);
  } finally {
    clearTimeout(timer);
  }
  return utf8.decode(chunks.length === 1 ? chunks[0] : concat(chunks, length));
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

async function toSdkError(
  error: unknown,
  callerSignal: AbortSignal | undefined,
  timeout: number,
): Promise<Error> {
  if (error instanceof HTTPError) {
    const text = await readText(error.response, timeout, callerSignal);
    return apiErrorFromResponse(error.response, redactCredential(text, error.request));
  }
  if (error instanceof EmployeeRecognitionError) return error;
  return toConnectionError(error, callerSignal, timeout, false);
}

/** A server that echoes the credential in its error body must not put it in our error. */
function redactCredential(text: string, request: Request): string {
  const credential = request.headers.get('authorization')?.replace(/^Bearer /, '');
  // A very short credential would redact ordinary words; such a one is no secret anyway.
  return credential && credential.length >= 8 ? text.replaceAll(credential, '[redacted]') : text;
}

function toConnectionError(
  error: unknown,
  callerSignal: AbortSignal | undefined,
  timeout: number,
  bodyTimedOut: boolean,
): Error {
  if (callerSignal?.aborted) {
    return new ApiUserAbortError('The request was aborted.', { cause: callerSignal.reason });
  }
  if (error instanceof TimeoutError || bodyTimedOut) {
    // No cause: ky's TimeoutError holds the Request, and with it the Authorization header.
    return new ApiTimeoutError(`The request timed out after ${timeout} ms.`);
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new ApiConnectionError(`Connection error: ${reason}`, { cause: error });
}
