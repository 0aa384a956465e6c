import ky, { HTTPError, type KyInstance, TimeoutError } from 'ky';
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
  UnprocessableEntityError,
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

const BODY_TIMEOUT = Symbol('body timeout');

/**
 * Builds the transport a client uses. The credential lives only in this closure: nothing reachable
 * from the client object holds it, so no inspection or serialization can show it.
 */
export function createTransport(config: ClientConfig): Transport {
  const http = createKy(config);
  return async (request, options = {}) => {
    const timeout = options.timeout ?? config.timeout;
    const bodyTimer = new AbortController();
    const signal = options.signal
      ? AbortSignal.any([options.signal, bodyTimer.signal])
      : bodyTimer.signal;
    let response: Response;
    try {
      response = await http(request.path.slice(1), {
        method: request.method,
        searchParams: request.query,
        json: request.body,
        headers: requestHeaders(request, options),
        timeout,
        signal,
        ...(options.maxRetries !== undefined && { retry: retryOptions(options.maxRetries) }),
      });
    } catch (error) {
      throw await toSdkError(error, options.signal, timeout, bodyTimer);
    }
    return { response, body: await readBody(response, timeout, bodyTimer, options.signal) };
  };
}

function createKy(config: ClientConfig): KyInstance {
  const { apiKey } = config;
  const throttle = config.rateLimit === 'auto' ? new Throttle() : undefined;
  return ky.create({
    prefixUrl: `${config.baseUrl}/`,
    fetch: throttle ? throttledFetch(throttle, config.fetch ?? globalThis.fetch) : config.fetch,
    headers: { accept: 'application/json', ...nodeUserAgent(), ...config.headers },
    retry: retryOptions(config.maxRetries),
    hooks: {
      // Before every attempt, so a token function can hand out a refreshed token on a retry.
      beforeRequest: [
        async (request) => {
          request.headers.set('authorization', `Bearer ${await resolveCredential(apiKey)}`);
        },
        // Waiting here, before ky starts the attempt's timer, keeps pacing out of the timeout.
        ...(throttle ? [(request: Request) => throttle.acquire(request.signal)] : []),
      ],
    },
  });
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

function requestHeaders(request: ApiRequest, options: RequestOptions): Record<string, string> {
  if (request.method !== 'POST' && request.method !== 'PATCH') return options.headers ?? {};
  const idempotencyKey =
    options.idempotencyKey ?? options.headers?.[HEADER_IDEMPOTENCY_KEY] ?? crypto.randomUUID();
  if (idempotencyKey.length < 1 || idempotencyKey.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new UnprocessableEntityError({
      status: 422,
      code: 'validation_error',
      message: `idempotencyKey: must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters.`,
      details: [{ field: 'idempotencyKey', message: 'must be 1 to 255 characters' }],
      local: true,
    });
  }
  return { ...options.headers, [HEADER_IDEMPOTENCY_KEY]: idempotencyKey };
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
  bodyTimer: AbortController,
  callerSignal: AbortSignal | undefined,
): Promise<unknown> {
  const text = await readText(response, timeout, bodyTimer, callerSignal);
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

async function readText(
  response: Response,
  timeout: number,
  bodyTimer: AbortController,
  callerSignal: AbortSignal | undefined,
): Promise<string> {
  const timer = setTimeout(() => bodyTimer.abort(BODY_TIMEOUT), timeout);
  try {
    return await response.text();
  } catch (error) {
    throw toConnectionError(error, callerSignal, timeout, bodyTimer);
  } finally {
    clearTimeout(timer);
  }
}

async function toSdkError(
  error: unknown,
  callerSignal: AbortSignal | undefined,
  timeout: number,
  bodyTimer: AbortController,
): Promise<Error> {
  if (error instanceof HTTPError) {
    const text = await readText(error.response, timeout, bodyTimer, callerSignal);
    return apiErrorFromResponse(error.response, redactCredential(text, error.request));
  }
  if (error instanceof EmployeeRecognitionError) return error;
  return toConnectionError(error, callerSignal, timeout, bodyTimer);
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
  bodyTimer: AbortController,
): Error {
  if (callerSignal?.aborted) {
    return new ApiUserAbortError('The request was aborted.', { cause: callerSignal.reason });
  }
  if (error instanceof TimeoutError || bodyTimer.signal.reason === BODY_TIMEOUT) {
    // No cause: ky's TimeoutError holds the Request, and with it the Authorization header.
    return new ApiTimeoutError(`The request timed out after ${timeout} ms.`);
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new ApiConnectionError(`Connection error: ${reason}`, { cause: error });
}
