import ky, { type AfterResponseHook, type Options as EngineOptions } from 'ky';
import { HEADER_REQUEST_ID } from '../contract.js';
import { AbortRelay } from '../internal/abort.js';
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
  AuthenticationError,
  EmployeeRecognitionError,
  errorFromResponse,
  HookError,
  redactHeaders,
  type RequestTarget,
} from './errors.js';
import { Log, redactSecrets } from './logger.js';
import type { CallObserver } from './observer.js';
import { retryDelay, retryReason } from './retry.js';
import { createThrottle, type Pacer } from './throttle.js';
import { cancel, readBody, transferError } from './transfer.js';
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
/** Retries the SDK asks of ky beyond `maxRetries`: the one after a token refresh, and each redirect. */
const FORCED_RETRIES = 1 + MAX_REDIRECTS;
/** Waits longer than this are logged at info, with their cause. */
const LOGGED_WAIT_MS = 1000;
/** How much of a body a debug line shows. */
const LOGGED_BODY_LENGTH = 1000;

/**
 * ky's options that every call shares. ky decides nothing by itself: it throws no HTTP error
 * (the SDK reads the body first and raises its own), retries no status on its own (the SDK's
 * afterResponse hook weighs each one), and may retry every method, since POST and PATCH carry
 * an Idempotency-Key (contract §8). Passed to the root `ky` with each call's own part laid over
 * it: docs/benchmarks.md found a `ky.create()` instance slower per call (it merges its defaults
 * into every call).
 */
const ENGINE = { throwHttpErrors: false } satisfies EngineOptions;
const ENGINE_RETRY = {
  methods: ['get', 'post', 'patch', 'delete'],
  statusCodes: [],
  afterStatusCodes: [],
};

/** What a client shares with the clients `withOptions()` derives from it. */
export interface SharedState {
  throttle: Pacer | undefined;
}

/**
 * The credential for the next attempt; after a 401, given the credential the service refused. A
 * fixed key comes back as it is, without a promise to wait for.
 */
type Authorize = (refused: string | undefined) => string | Promise<string>;

/**
 * The requests of one client, each sent through ky (see {@link Call}). The credential lives only
 * in the `#authorize` closure: nothing reachable from the client holds it, so no inspection or
 * serialization can show it.
 */
export class Transport {
  /** The client's options, without the credential. */
  readonly config: Omit<ClientConfig, 'apiKey'>;
  /** The client's logger behind its level. */
  readonly log: Log;
  /** How this client checks answers; the resources pass it to `parseResponse`. */
  readonly validation: ResponseValidation;
  readonly shared: SharedState;
  /** One abort listener per caller's signal, however many of this client's calls share it. */
  readonly aborts = new AbortRelay();
  readonly #authorize: Authorize;
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
  async send(
    request: ApiRequest,
    options?: RequestOptions | null,
    observer?: CallObserver,
  ): Promise<RawResponse> {
    const call = resolveCallConfig(this.#defaults, options, request.method);
    const body = request.body === undefined ? undefined : serialize(request.body);
    if (body !== undefined) call.headers['content-type'] = 'application/json';
    return new Call(this, call, this.#authorize, this.#refreshable, request, body, observer).run();
  }
}

/**
 * One call, sent through one ky call. ky runs the attempts: their timeout (to the headers), the
 * retries and the waits between them, and the caller's abort. The SDK's decisions are ky's
 * extension points, each a method here:
 * - `beforeRequest`: the place in the rate-limit queue, the credential, the caller's hooks;
 * - `fetch`: the wire, with the call's headers and body and `redirect: 'manual'`;
 * - `afterResponse`: the caller's hooks, redirects, the body under its cap, the typed error, and
 *   each decision on a status (a refresh after a 401, or a retry after the SDK's wait) as
 *   `ky.retry()`;
 * - `retry.shouldRetry` and `retry.delay`: whether and after what wait a network failure or a
 *   timeout is tried again.
 * ky's own `Request` carries the URL, the method and the signal, never the credential, and no
 * ky object leaves this class: every failure becomes the SDK's own error ({@link transferError}).
 */
class Call {
  readonly #transport: Transport;
  readonly #call: CallConfig;
  readonly #authorize: Authorize;
  readonly #request: ApiRequest;
  readonly #body: string | undefined;
  /** The client's instrumentation's view of this call (core/observer.ts), if it has one. */
  readonly #observer: CallObserver | undefined;
  /** When queueing for the rate limit must end: only when the caller chose a timeout. */
  readonly #queueDeadline: number | undefined;
  /** The SDK's own signal for this call, following the caller's: ky never gets the caller's. */
  readonly #abort: AbortController | undefined;
  #refreshable: boolean;
  #target: RequestTarget;
  #headers: Record<string, string>;
  #context: AttemptContext | undefined;
  #attemptNumber = 0;
  #retries = 0;
  #redirects = 0;
  #credential = '';
  /** After a 401: the credential refused, so the next one is asked for with `forceRefresh`. */
  #refused: string | undefined;
  /** Set once a redirect leaves the service's origin: from then on no credential is sent. */
  #crossOrigin = false;
  /** Whether the current attempt holds a place in the rate-limit queue. */
  #queued = false;
  /** The current attempt's answer as fetch gave it; ky gets a stand-in without the body. */
  #answer: { response: Response; durationMs: number } | undefined;
  #result: RawResponse | undefined;
  /** The error the SDK has already judged final: ky's `shouldRetry` must not weigh it again. */
  #final: unknown;
  /** The wait before the next attempt, as the SDK decided it; ky's `retry.delay` returns it. */
  #waitMs = 0;

  constructor(
    transport: Transport,
    call: CallConfig,
    authorize: Authorize,
    refreshable: boolean,
    request: ApiRequest,
    body: string | undefined,
    observer: CallObserver | undefined,
  ) {
    this.#transport = transport;
    this.#observer = observer;
    this.#call = call;
    this.#authorize = authorize;
    this.#refreshable = refreshable;
    this.#request = request;
    this.#body = body;
    this.#headers = call.headers;
    this.#target = { method: request.method, url: requestUrl(transport.config.baseUrl, request) };
    // Time queued for the rate limit counts against a timeout the caller chose (docs/reliability.md).
    this.#queueDeadline = call.timeoutGiven ? Date.now() + call.timeout : undefined;
    this.#abort = call.signal && transport.aborts.follow(call.signal);
  }

  async run(): Promise<RawResponse> {
    try {
      await ky(this.#target.url, {
        ...ENGINE,
        method: this.#request.method,
        timeout: this.#call.timeout,
        ...(this.#abort && { signal: this.#abort.signal }),
        fetch: this.#fetch,
        retry: {
          ...ENGINE_RETRY,
          // Room for the forced retries; the SDK counts its own against `maxRetries`.
          limit: this.#call.maxRetries + FORCED_RETRIES,
          shouldRetry: this.#shouldRetry,
          delay: () => this.#waitMs,
        },
        hooks: { beforeRequest: [this.#beforeRequest], afterResponse: [this.#afterResponse] },
      });
      // ky resolves only after the afterResponse hook has read a 2xx answer.
      return this.#result as RawResponse;
    } catch (error) {
      const failure = this.#failure(error);
      // Every other hook's failure too, so that what a beforeRequest hook opened (a span) can end.
      const last = this.#context ?? this.#nextContext();
      await this.#runHooks(
        'beforeError',
        this.#call.hooks.beforeError,
        (): [EmployeeRecognitionError, AttemptContext] => [failure, last],
      );
      throw failure;
    } finally {
      this.#freePlace();
      if (this.#abort) this.#transport.aborts.leave(this.#call.signal!, this.#abort);
    }
  }

  /** ky's `beforeRequest`, before every attempt: the queue, the credential, the caller's hooks. */
  readonly #beforeRequest = async (): Promise<void> => {
    try {
      this.#call.signal?.throwIfAborted();
      // A timed-out attempt whose fetch never settled gives its place back now.
      this.#freePlace();
      // Queued first: a call waiting for the rate limit holds nothing of its attempt yet.
      await this.#transport.shared.throttle?.acquire({
        target: this.#target,
        signal: this.#abort?.signal,
        deadline: this.#queueDeadline,
        onWait: (ms: number, cause: string) => {
          this.#observer?.wait('rate limit', ms, cause);
          this.#logWait(ms, cause, `before ${this.#describe()}`);
        },
      });
      this.#queued = this.#transport.shared.throttle !== undefined;
      const context = (this.#context = this.#nextContext());
      const credential = this.#authorize(this.#refused);
      this.#credential =
        typeof credential === 'string'
          ? credential
          : (this.#observer?.wait('credential', 0), await credential);
      this.#refused = undefined;
      await this.#runHooks(
        'beforeRequest',
        this.#call.hooks.beforeRequest,
        (): [AttemptContext] => [context],
      );
    } catch (error) {
      // Nothing was sent: the place goes back, and the failure is final.
      this.#freePlace();
      throw this.#finalize(error);
    }
  };

  /**
   * ky's `fetch`: one attempt on the wire, with the call's headers and body, and redirects left
   * to the afterResponse hook. It keeps the answer and hands ky a stand-in without the body:
   * ky clones the answer for each afterResponse hook (a tee, which buffers in the branch not
   * read), and the SDK reads the body itself, under its cap.
   */
  readonly #fetch = async (input: unknown): Promise<Response> => {
    // ky hands its fetch the attempt's Request (Ky.js, #fetch).
    const request = input as Request;
    const attempt = this.#attemptNumber;
    const fetch = this.#transport.config.fetch ?? globalThis.fetch;
    const started = Date.now();
    let response: Response;
    try {
      // The observer may send the attempt through a fetch of its own (adding `traceparent`).
      response = await (this.#observer?.attempt(this.#context!, fetch) ?? fetch)(request.url, {
        ...this.#call.fetchOptions,
        method: request.method,
        headers: this.#crossOrigin
          ? this.#headers
          : { ...this.#headers, authorization: `Bearer ${this.#credential}` },
        body: this.#body,
        signal: request.signal,
        // Redirects are followed by the SDK, not by fetch: a write must never become a GET, and
        // no header of the client's may reach another origin (fetch forwards all but Authorization).
        redirect: 'manual',
      });
      if (typeof response?.headers?.get !== 'function') {
        throw new TypeError('fetch resolved to something that is not a Response.');
      }
    } catch (error) {
      if (attempt === this.#attemptNumber) this.#freePlace();
      throw error;
    }
    if (attempt !== this.#attemptNumber) {
      // ky timed this attempt out and moved on: nobody reads this answer.
      cancel(response);
      return new Response();
    }
    this.#freePlace(response.headers);
    this.#answer = { response, durationMs: Date.now() - started };
    return new Response();
  };

  /** ky's `afterResponse`: the caller's hooks, then a redirect, a result, or a decision on a status. */
  readonly #afterResponse = async (): Promise<Awaited<ReturnType<AfterResponseHook>>> => {
    const { response, durationMs } = this.#answer!;
    this.#answer = undefined;
    const context = this.#context!;
    try {
      await this.#runHooks(
        'afterResponse',
        this.#call.hooks.afterResponse,
        (): [ResponseContext] => [
          { ...context, status: response.status, responseHeaders: response.headers, durationMs },
        ],
      );
    } catch (error) {
      cancel(response);
      throw this.#finalize(error);
    }
    if (REDIRECTS.has(response.status) || response.type === 'opaqueredirect') {
      cancel(response);
      return this.#redirect(response);
    }
    // A failure to read the body is a connection failure: ky's shouldRetry weighs it.
    const text = await readBody(response, {
      target: this.#target,
      maxBytes: this.#transport.config.maxResponseBytes,
      timeout: this.#call.timeout,
      signal: this.#abort?.signal,
    });
    this.#logAttempt(response, durationMs, text);
    if (response.ok) {
      this.#result = { response, body: parseBody(response, text) };
      return;
    }
    const error = errorFromResponse(
      response,
      text,
      this.#target,
      (value) => redactSecrets(value, this.#credential),
      retryAfterMs(response.headers),
    );
    if (response.status === 401 && this.#refreshable) {
      // A token function gets one chance to hand out a fresh token, whatever `maxRetries` says;
      // a second 401 is final.
      this.#refreshable = false;
      this.#refused = this.#credential;
      return ky.retry({ delay: 0, code: 'TOKEN_REFRESH' });
    }
    const wait = await this.#retryWait(error, response.headers);
    if (wait === undefined) throw this.#finalize(error);
    return ky.retry({ delay: wait, code: `STATUS_${response.status}` });
  };

  /** ky's `retry.shouldRetry`, for what the hooks did not judge: a network failure or a timeout. */
  readonly #shouldRetry = async ({ error }: { error: Error }): Promise<boolean> => {
    if (error === this.#final) return false;
    return (await this.#retryWait(this.#failure(error), undefined)) !== undefined;
  };

  /**
   * The wait before retrying `error`, or undefined when it is final: not retryable, retries used
   * up, or a wait the service asks for beyond the cap (a 429 then goes back with `retryAfter` at
   * once). The wait is known before it starts, so the caller's `beforeRetry` hooks and the log
   * hear of it first.
   */
  async #retryWait(
    error: EmployeeRecognitionError,
    headers: Headers | undefined,
  ): Promise<number | undefined> {
    const reason = retryReason(error);
    if (reason === undefined || this.#retries >= this.#call.maxRetries) return undefined;
    const delay = retryDelay(this.#retries + 1, headers);
    if (delay.tooLong) return undefined;
    this.#retries++;
    const context = this.#context!;
    await this.#runHooks('beforeRetry', this.#call.hooks.beforeRetry, (): [RetryContext] => [
      { ...context, reason: delay.cause ?? reason, delayMs: delay.ms, error },
    ]);
    this.#logWait(
      delay.ms,
      delay.cause ?? reason,
      `before retry ${this.#retries} of ${this.#call.maxRetries} of ${this.#describe()}`,
    );
    this.#observer?.wait('retry', delay.ms, delay.cause ?? reason, error);
    this.#waitMs = delay.ms;
    return delay.ms;
  }

  /**
   * The next hop of a redirect, as a forced retry: so each hop is an attempt like any other,
   * paced by the queue and seen by the hooks in `beforeRequest`, under ky's timeout. Throws when
   * following would be unsafe.
   */
  #redirect(response: Response): ReturnType<typeof ky.retry> {
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
      throw this.#finalize(
        new ApiError({
          ...this.#target,
          status: response.status,
          code: 'unexpected_redirect',
          message: `The service answered ${method} with a redirect (${response.status}) that the SDK does not follow for a write: the outcome of the write is unknown; look the record up before trying again`,
          headers: redactHeaders(response.headers, (value) =>
            redactSecrets(value, this.#credential),
          ),
          requestId: response.headers.get(HEADER_REQUEST_ID) ?? undefined,
        }),
      );
    }
    let hop: Request | undefined;
    try {
      if (
        response.type !== 'opaqueredirect' &&
        next !== undefined &&
        /^https?:$/.test(next.protocol)
      ) {
        hop = new Request(next.href, { method });
      }
    } catch {
      // A location fetch refuses (user info in it): not followed either.
    }
    if (hop === undefined || next === undefined) {
      throw this.#finalize(
        new ApiConnectionError(
          this.#target,
          `Connection error: ${this.#describe()}: the service redirected to a location the SDK cannot follow.`,
        ),
      );
    }
    if (++this.#redirects > MAX_REDIRECTS) {
      throw this.#finalize(
        new ApiConnectionError(
          this.#target,
          `Connection error: ${this.#describe()}: redirect count exceeded (${MAX_REDIRECTS}).`,
        ),
      );
    }
    if (!sameOrigin) {
      // Another origin gets none of the client's headers, custom ones included, nor the credential.
      this.#headers = { accept: 'application/json' };
      this.#crossOrigin = true;
    }
    this.#target = { method, url: next.href };
    return ky.retry({ request: hop, delay: 0, code: 'REDIRECT' });
  }

  /** Gives the current attempt's place in the rate-limit queue back, with what its answer said. */
  #freePlace(headers?: Headers): void {
    if (!this.#queued) return;
    this.#queued = false;
    const { throttle } = this.#transport.shared;
    if (headers) throttle?.update(headers);
    else throttle?.release();
  }

  #nextContext(): AttemptContext {
    this.#attemptNumber++;
    const sent = this.#headers;
    let headers: Headers | undefined;
    return {
      method: this.#target.method,
      url: this.#target.url,
      path: this.#request.path,
      attempt: this.#attemptNumber,
      // Built when a hook first reads it.
      get headers() {
        return (headers ??= new Headers(sent));
      },
    };
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

  /** Any failure as the SDK's own error; no ky object survives it. */
  #failure(error: unknown): EmployeeRecognitionError {
    return transferError(error, {
      target: this.#target,
      timeout: this.#call.timeout,
      signal: this.#call.signal,
      redact: (text) => redactSecrets(text, this.#credential),
    });
  }

  /** Marks a failure as judged: ky gives it back to the call without another attempt. */
  #finalize(error: unknown): EmployeeRecognitionError {
    const failure = this.#failure(error);
    this.#final = failure;
    return failure;
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
function credentialSource(apiKey: ApiKeySource): Authorize {
  if (typeof apiKey === 'string') return () => apiKey;
  return async (refused) => {
    let credential: unknown;
    try {
      credential = await apiKey(
        refused === undefined ? { forceRefresh: false } : { forceRefresh: true, refused },
      );
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
