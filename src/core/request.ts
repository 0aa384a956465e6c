import { HEADER_REQUEST_ID } from '../contract.js';
import { retryAfterMs } from '../internal/headers.js';
import { VERSION } from '../version.js';
import {
  type ApiKeySource,
  type AttemptContext,
  type CallConfig,
  type CallDefaults,
  type ClientConfig,
  type ResponseContext,
  type RetryContext,
  checkCredential,
  ConfigurationError,
  type Hooks,
  type RequestOptions,
  resolveCallConfig,
} from './config.js';
import {
  ApiConnectionError,
  ApiError,
  ApiTimeoutError,
  ApiUserAbortError,
  AuthenticationError,
  EmployeeRecognitionError,
  errorFromResponse,
  HookError,
  redactHeaders,
  type RequestTarget,
  ResponseTooLargeError,
} from './errors.js';
import { Log, redactSecrets } from './logger.js';
import { Deadline, sleep } from '../internal/timers.js';
import { retryDelay, retryReason } from './retry.js';
import { createThrottle, type Pacer } from './throttle.js';
import {
  type ApiRequest,
  NotJson,
  type RawResponse,
  type ResponseValidation,
} from '../internal/exchange.js';

/** Redirect statuses: what the service may answer with a `Location`. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Redirects one call follows at most, as browsers and undici stop at 20; an API needs few. */
const MAX_REDIRECTS = 5;
/** Waits longer than this are logged at info, with their cause. */
const LOGGED_WAIT_MS = 1000;
/** How much of a body a debug line shows. */
const LOGGED_BODY_LENGTH = 1000;

/** What a client shares with the clients `withOptions()` derives from it. */
export interface SharedState {
  throttle: Pacer | undefined;
}

/**
 * The request lifecycle of one client, in one class as ky's core/Ky.ts holds it: options, then per
 * attempt the rate-limit queue, the credential, hooks, fetch with a deadline, redirects, the body
 * under its cap, and the retry decision. The credential lives only in the `#authorize` closure:
 * nothing reachable from the client holds it, so no inspection or serialization can show it.
 */
export class Transport {
  /** The client's options, without the credential. */
  readonly config: Omit<ClientConfig, 'apiKey'>;
  /** The client's logger behind its level. */
  readonly log: Log;
  /** How this client checks answers; the resources pass it to `parseResponse`. */
  readonly validation: ResponseValidation;
  readonly shared: SharedState;
  readonly #authorize: (forceRefresh: boolean) => Promise<string>;
  readonly #refreshable: boolean;
  readonly #defaults: CallDefaults;

  constructor(config: ClientConfig, shared?: SharedState) {
    const { apiKey, ...rest } = config;
    this.config = rest;
    this.log = new Log(config.logger, config.logLevel);
    this.validation = {
      mode: config.validateResponses,
      warn: (message) => this.log.warn(message),
      warned: new Set(),
    };
    this.shared = shared ?? { throttle: createThrottle(config, this.log) };
    this.#authorize = credentialSource(apiKey);
    this.#refreshable = typeof apiKey === 'function';
    this.#defaults = {
      ...rest,
      headers: { accept: 'application/json', ...nodeUserAgent(), ...config.headers },
    };
  }

  /** Sends one API request with auth, retries, redirects and timeouts; every failure is an SDK error. */
  async send(request: ApiRequest, options?: RequestOptions | null): Promise<RawResponse> {
    const call = resolveCallConfig(this.#defaults, options, request.method);
    const body = request.body === undefined ? undefined : serialize(request.body);
    if (body !== undefined) call.headers['content-type'] = 'application/json';
    return new Attempts(this, call, this.#authorize, this.#refreshable, request, body).run();
  }
}

/** The state of one call across its attempts: its target, its count of retries and redirects. */
class Attempts {
  readonly #transport: Transport;
  readonly #call: CallConfig;
  readonly #authorize: (forceRefresh: boolean) => Promise<string>;
  readonly #request: ApiRequest;
  readonly #body: string | undefined;
  readonly #deadline: number | undefined;
  #refreshable: boolean;
  #target: RequestTarget;
  #headers: Record<string, string>;
  #attemptNumber = 0;
  #retries = 0;
  #redirects = 0;
  #credential = '';
  #forceRefresh = false;
  /** Set once a redirect leaves the service's origin: from then on no credential is sent. */
  #crossOrigin = false;

  constructor(
    transport: Transport,
    call: CallConfig,
    authorize: (forceRefresh: boolean) => Promise<string>,
    refreshable: boolean,
    request: ApiRequest,
    body: string | undefined,
  ) {
    this.#transport = transport;
    this.#call = call;
    this.#authorize = authorize;
    this.#refreshable = refreshable;
    this.#request = request;
    this.#body = body;
    this.#headers = call.headers;
    this.#target = { method: request.method, url: requestUrl(transport.config.baseUrl, request) };
    // Time queued for the rate limit counts against a timeout the caller chose (docs/reliability.md).
    this.#deadline = call.timeoutGiven ? Date.now() + call.timeout : undefined;
  }

  async run(): Promise<RawResponse> {
    let context: AttemptContext | undefined;
    try {
      while (true) {
        // Queued first: a call waiting for the rate limit holds nothing of its attempt yet.
        await this.#queue();
        context = this.#context();
        const outcome = await this.#attempt(context);
        if ('result' in outcome) return outcome.result;
        if ('next' in outcome) continue;
        await this.#retryOrThrow(outcome.error, outcome.response, context);
      }
    } catch (error) {
      const failure = this.#toSdkError(error);
      // Every other hook's failure too, so that what a beforeRequest hook opened (a span) can end.
      const last = context ?? this.#context();
      await this.#runHooks(
        'beforeError',
        this.#call.hooks.beforeError,
        (): [EmployeeRecognitionError, AttemptContext] => [failure, last],
      );
      throw failure;
    }
  }

  /** Waits for a place under the rate limit, when the client paces itself. */
  async #queue(): Promise<void> {
    await this.#transport.shared.throttle?.acquire({
      target: this.#target,
      signal: this.#call.signal,
      deadline: this.#deadline,
      onWait: (ms: number, cause: string) => this.#logWait(ms, cause, `before ${this.#describe()}`),
    });
  }

  #context(): AttemptContext {
    this.#attemptNumber++;
    const sent = this.#headers;
    let headers: Headers | undefined;
    return {
      method: this.#target.method,
      url: this.#target.url,
      path: this.#request.path,
      attempt: this.#attemptNumber,
      // Built when a hook first reads it: a call queued for the rate limit holds no Headers.
      get headers() {
        return (headers ??= new Headers(sent));
      },
    };
  }

  /** One attempt: a result, a redirect or refresh to follow at once, or a failure to weigh. */
  async #attempt(
    context: AttemptContext,
  ): Promise<
    | { result: RawResponse }
    | { next: true }
    | { error: EmployeeRecognitionError; response?: Response | undefined }
  > {
    const { signal } = this.#call;
    const { throttle } = this.#transport.shared;
    let response: Response;
    const deadline = new Deadline(this.#call.timeout, signal);
    // The place taken in the rate-limit queue, until an answer or a failure gives it back.
    let queued = throttle !== undefined;
    try {
      this.#credential = await this.#authorize(this.#forceRefresh);
      this.#forceRefresh = false;
      await this.#runHooks(
        'beforeRequest',
        this.#call.hooks.beforeRequest,
        (): [AttemptContext] => [context],
      );
      const started = Date.now();
      try {
        response = await this.#fetch(deadline.signal);
      } catch (error) {
        queued = false;
        throttle?.release();
        return { error: this.#connectionError(error, deadline) };
      }
      queued = false;
      throttle?.update(response.headers);
      const durationMs = Date.now() - started;
      await this.#runHooks(
        'afterResponse',
        this.#call.hooks.afterResponse,
        (): [ResponseContext] => [
          { ...context, status: response.status, responseHeaders: response.headers, durationMs },
        ],
      ).catch((error: unknown) => {
        cancel(response);
        throw error;
      });
      deadline.restart();
      if (REDIRECTS.has(response.status) || response.type === 'opaqueredirect') {
        cancel(response);
        this.#followRedirect(response);
        return { next: true };
      }
      const text = await this.#readText(response, deadline);
      this.#logAttempt(response, durationMs, text);
      if (response.ok) return { result: { response, body: parseBody(response, text) } };
      const error = errorFromResponse(
        response,
        text,
        this.#target,
        (value) => redactSecrets(value, this.#credential),
        retryAfterMs(response.headers),
      );
      if (response.status === 401 && this.#refreshable) {
        // A token function gets one chance to hand out a fresh token; a second 401 is final.
        this.#refreshable = false;
        this.#forceRefresh = true;
        return { next: true };
      }
      return { error, response };
    } catch (error) {
      if (error instanceof EmployeeRecognitionError && !(error instanceof ApiConnectionError))
        throw error;
      return { error: this.#connectionError(error, deadline) };
    } finally {
      // The credential or a beforeRequest hook failed: nothing was sent.
      if (queued) throttle?.release();
      deadline.dispose();
    }
  }

  #fetch(signal: AbortSignal): Promise<Response> {
    const fetch = this.#transport.config.fetch ?? globalThis.fetch;
    return fetch(this.#target.url, {
      ...this.#call.fetchOptions,
      method: this.#request.method,
      headers: this.#crossOrigin
        ? this.#headers
        : { ...this.#headers, authorization: `Bearer ${this.#credential}` },
      body: this.#body,
      signal,
      // Redirects are followed here, not by fetch: a write must never become a GET, and no
      // header of the client's may reach another origin (fetch forwards all but Authorization).
      redirect: 'manual',
    });
  }

  /** Points the next attempt at a redirect's target, or throws when following would be unsafe. */
  #followRedirect(response: Response): void {
    const { method } = this.#request;
    const location = response.headers.get('location');
    let next: URL | undefined;
    try {
      next = location === null ? undefined : new URL(location, this.#target.url);
    } catch {
      next = undefined;
    }
    const sameOrigin = next?.origin === new URL(this.#target.url).origin;
    const keepsMethod = response.status === 307 || response.status === 308;
    if (method !== 'GET' && !(sameOrigin && keepsMethod)) {
      throw new ApiError({
        ...this.#target,
        status: response.status,
        code: 'unexpected_redirect',
        message: `The service answered ${method} with a redirect (${response.status}) that the SDK does not follow for a write: the outcome of the write is unknown; look the record up before trying again`,
        headers: redactHeaders(response.headers, (value) => redactSecrets(value, this.#credential)),
        requestId: response.headers.get(HEADER_REQUEST_ID) ?? undefined,
      });
    }
    if (
      response.type === 'opaqueredirect' ||
      next === undefined ||
      !/^https?:$/.test(next.protocol)
    ) {
      throw new ApiConnectionError(
        this.#target,
        `Connection error: ${this.#describe()}: the service redirected to a location the SDK cannot follow.`,
      );
    }
    if (++this.#redirects > MAX_REDIRECTS) {
      throw new ApiConnectionError(
        this.#target,
        `Connection error: ${this.#describe()}: redirect count exceeded (${MAX_REDIRECTS}).`,
      );
    }
    if (!sameOrigin) {
      // Another origin gets none of the client's headers, custom ones included, nor the credential.
      this.#headers = { accept: 'application/json' };
      this.#crossOrigin = true;
    }
    this.#target = { method, url: next.href };
  }

  /** Retries after a bounded wait, or throws: the wait is known, logged and hooked before it starts. */
  async #retryOrThrow(
    error: EmployeeRecognitionError,
    response: Response | undefined,
    context: AttemptContext,
  ): Promise<void> {
    const reason = retryReason(error);
    if (reason === undefined || this.#retries >= this.#call.maxRetries) throw error;
    const delay = retryDelay(this.#retries + 1, response?.headers);
    // A wait longer than the cap goes back to the caller at once, with `retryAfter` on a 429.
    if (delay.tooLong) throw error;
    this.#retries++;
    await this.#runHooks('beforeRetry', this.#call.hooks.beforeRetry, (): [RetryContext] => [
      { ...context, reason: delay.cause ?? reason, delayMs: delay.ms, error },
    ]);
    this.#logWait(
      delay.ms,
      delay.cause ?? reason,
      `before retry ${this.#retries} of ${this.#call.maxRetries} of ${this.#describe()}`,
    );
    await sleep(delay.ms, this.#call.signal);
  }

  /**
   * The body as text, read only up to `maxResponseBytes` counted after decompression and within
   * the attempt's deadline: a bomb, an endless stream or a stalled server end the read.
   */
  async #readText(response: Response, deadline: Deadline): Promise<string> {
    const limit = this.#transport.config.maxResponseBytes;
    const body = response.body;
    if (body === null) return '';
    const declared = Number(response.headers.get('content-length'));
    if (!response.headers.has('content-encoding') && declared > limit) {
      cancel(response);
      throw new ResponseTooLargeError(this.#target, response.status, limit);
    }
    const reader = body.getReader();
    const stop = () => reader.cancel().catch(() => {});
    deadline.signal.addEventListener('abort', stop, { once: true });
    const chunks: Uint8Array[] = [];
    let length = 0;
    try {
      while (true) {
        const { done, value } = await reader.read();
        if (deadline.signal.aborted) throw deadline.signal.reason;
        if (done) break;
        length += value.length;
        if (length > limit) {
          void stop();
          throw new ResponseTooLargeError(this.#target, response.status, limit);
        }
        chunks.push(value);
      }
    } finally {
      deadline.signal.removeEventListener('abort', stop);
    }
    return utf8.decode(chunks.length === 1 ? chunks[0] : concat(chunks, length));
  }

  /** Runs one kind of hook in order; their arguments are built only when there is a hook to run. */
  async #runHooks<Args extends unknown[]>(
    kind: keyof Hooks,
    hooks: readonly ((...args: Args) => void | Promise<void>)[],
    args: () => Args,
  ): Promise<void> {
    if (hooks.length === 0) return;
    const built = args();
    for (const hook of hooks) {
      try {
        await hook(...built);
      } catch (error) {
        this.#transport.log.error(`A ${kind} hook of ${this.#describe()} failed.`);
        throw new HookError(kind, error);
      }
    }
  }

  #connectionError(error: unknown, deadline: Deadline): EmployeeRecognitionError {
    if (error instanceof EmployeeRecognitionError) return error;
    const aborted = this.#abortError();
    if (aborted) return aborted;
    if (deadline.timedOut) {
      return new ApiTimeoutError(
        this.#target,
        `${this.#describe()} timed out after ${this.#call.timeout} ms.`,
      );
    }
    return new ApiConnectionError(
      this.#target,
      `Connection error: ${this.#describe()}: ${redactSecrets(networkReason(error), this.#credential)}`,
      { cause: error },
    );
  }

  /** Anything thrown outside an attempt (the queue, a hook, a wait) as the SDK's own error. */
  #toSdkError(error: unknown): EmployeeRecognitionError {
    if (error instanceof EmployeeRecognitionError) return error;
    return (
      this.#abortError() ??
      new EmployeeRecognitionError(`${this.#describe()} failed: ${networkReason(error)}`, {
        cause: error,
      })
    );
  }

  /** The caller's cancellation, whatever the platform threw when the signal fired. */
  #abortError(): ApiUserAbortError | undefined {
    const { signal } = this.#call;
    if (!signal?.aborted) return undefined;
    return new ApiUserAbortError(this.#target, `${this.#describe()} was aborted.`, {
      cause: signal.reason,
    });
  }

  #logWait(ms: number, cause: string, what: string): void {
    if (ms > LOGGED_WAIT_MS) {
      this.#transport.log.info(`waiting ${Math.round(ms / 1000)} s (${cause}) ${what}`);
    }
  }

  #logAttempt(response: Response, durationMs: number, text: string): void {
    const { log } = this.#transport;
    if (!log.enabled('debug')) return;
    const requestId = response.headers.get(HEADER_REQUEST_ID);
    const sent = this.#body === undefined ? '' : ` sent ${truncate(this.#body)}`;
    log.debug(
      `${this.#describe()} -> ${response.status} in ${durationMs} ms (attempt ${this.#attemptNumber}${requestId ? `, request id ${requestId}` : ''})${sent} received ${truncate(redactSecrets(text, this.#credential))}`,
    );
  }

  #describe(): string {
    return `${this.#target.method} ${this.#target.url}`;
  }
}

/** The credential for the next attempt: the string, or what the function returns, checked. */
function credentialSource(apiKey: ApiKeySource): (forceRefresh: boolean) => Promise<string> {
  if (typeof apiKey === 'string') return async () => apiKey;
  return async (forceRefresh) => {
    let credential: unknown;
    try {
      credential = await apiKey({ forceRefresh });
    } catch (cause) {
      throw new EmployeeRecognitionError('The apiKey function failed.', { cause });
    }
    const toError = (message: string) =>
      new AuthenticationError({ status: 401, message, local: true });
    if (typeof credential !== 'string') throw toError('The apiKey function returned no string.');
    checkCredential(credential, toError);
    return credential;
  };
}

/** The request's URL with its query; `undefined` and `null` values are left out. */
function requestUrl(baseUrl: string, request: ApiRequest): string {
  const url = baseUrl + request.path;
  if (request.query === undefined) return url;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query)) {
    if (value != null) params.append(name, String(value));
  }
  const query = params.toString();
  return query === '' ? url : `${url}?${query}`;
}

/**
 * The platform's words for a network failure, with undici's reason from `cause` brought up:
 * `ECONNREFUSED 127.0.0.1:4010` instead of `fetch failed`.
 */
function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (typeof cause?.message === 'string' && cause.message !== '') return cause.message;
  if (typeof cause?.code === 'string') return cause.code;
  return error.message;
}

function serialize(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch {
    // BigInt values and cycles: JSON.stringify's TypeError would quote neither field nor cause.
    throw new ConfigurationError(
      'body',
      'The request body cannot be written as JSON (a BigInt or a cycle?).',
    );
  }
}

function parseBody(response: Response, text: string): unknown {
  if (response.status === 204 || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return new NotJson(text);
  }
}

function cancel(response: Response): void {
  response.body?.cancel().catch(() => {});
}

const utf8 = new TextDecoder();

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

function truncate(text: string): string {
  return text.length > LOGGED_BODY_LENGTH ? `${text.slice(0, LOGGED_BODY_LENGTH)}…` : text;
}

function nodeUserAgent(): Record<string, string> {
  const node = globalThis.process?.versions?.node;
  // Browsers forbid setting User-Agent, and there it would only trigger a CORS preflight.
  return node && !('document' in globalThis)
    ? { 'user-agent': `employee-recognition-sdk-typescript/${VERSION} node/${node}` }
    : {};
}
