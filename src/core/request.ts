import ky, { ForceRetryError } from 'ky';
import { HEADER_IDEMPOTENCY_KEY, HEADER_REQUEST_ID, USER_AGENT_PRODUCT } from '../contract.js';
import { aborts } from '../internal/abort.js';
import { parseDeprecation, warnOnce } from '../internal/deprecation.js';
import { retryAfterMs } from '../internal/headers.js';
import { holdsCredential, redactSecrets } from '../internal/redact.js';
import { boundedDelay, later } from '../internal/timers.js';
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
  warnUnknownOptions,
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
import { Log } from './logger.js';
import type { CallObserver } from './observer.js';
import { retryDelay, retryReason } from './retry.js';
import {
  createThrottle,
  LOGGED_WAIT_MS,
  type Pacer,
  type ToldWait,
  WaitLines,
} from './throttle.js';
import { cancel, readBody, timeoutError, transferError } from './transfer.js';
import { template } from './validation.js';
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
/** How much of a body a debug line shows. */
const LOGGED_BODY_LENGTH = 1000;

/**
 * ky's retry options for each `limit`, made once: ky retries only what the SDK forces
 * ({@link ForceRetryError}, with the SDK's wait), and `shouldRetry` refuses everything else, which
 * the SDK has judged final already. Shared, not built per call: ky normalizes `retry` on every
 * call, and the per-call object this replaces (a methods list and two closures) was work and 30 B
 * for nothing; the CPU it saves, about 1 µs per call, is within bench/overhead.mjs's noise.
 */
const RETRY_OPTIONS: { limit: number; shouldRetry: () => boolean }[] = [];

/**
 * What ky gets as a 2xx attempt's answer, once the SDK has read the real one: without a body, and
 * shared; made on the first answer, so that importing the SDK makes none.
 */
let standIn: Response | undefined;

/** What a client shares with the clients `withOptions()` derives from it. */
export interface SharedState {
  throttle: Pacer | undefined;
  /** The lines of the waits for a 429's Retry-After, which the calls it sends back share. */
  retryLines: WaitLines;
  /** The operations whose deprecation notice has been logged: once each (internal/deprecation.ts). */
  deprecationsWarned: Set<string>;
}

/**
 * The credential for the next attempt; after a 401, given the credential the service refused. A
 * fixed key comes back as it is, without a promise to wait for; a function's answer is waited for
 * until the call's `signal` aborts or its `timeout` passes, whichever comes first.
 */
type Authorize = (
  refused: string | undefined,
  /** The call's own signal, following the caller's: asked for only by a function's wait. */
  signal: () => AbortSignal | undefined,
  /** The call's `timeout`, the default included. */
  timeout: number,
  /** For the timeout's message. */
  target: RequestTarget,
) => string | Promise<string>;

/**
 * The requests of one client, each sent through ky (see {@link Call}). The credential lives only
 * in the `#authorize` closure: nothing reachable from the client holds it, so no inspection or
 * serialization can show it.
 */
export class Transport {
  /** The client's options, without the credential. */
  declare readonly config: Omit<ClientConfig, 'apiKey'>;
  /** The client's logger behind its level. */
  declare readonly log: Log;
  /** How this client checks answers; the resources pass it to `parseResponse`. */
  declare readonly validation: ResponseValidation;
  /** What this client shares with the clients `withOptions()` derives from it. */
  declare readonly shared: SharedState;
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
    this.shared = shared ?? {
      throttle: createThrottle(config, this.log),
      retryLines: new WaitLines(this.log),
      deprecationsWarned: new Set(),
    };
    this.#authorize = credentialSource(apiKey);
    this.#refreshable = typeof apiKey === 'function';
    this.#defaults = {
      ...rest,
      headers: { accept: 'application/json', ...nodeUserAgent(), ...config.headers },
    };
  }

  /** Sends one API request with auth, retries, redirects and timeouts; every failure is an SDK error. */
  send(
    request: ApiRequest,
    options?: RequestOptions | null,
    observer?: CallObserver,
  ): Promise<RawResponse> {
    // Not an async function: a queued call holds no promise of its own here.
    try {
      const config = resolveCallConfig(this.#defaults, options, request.method);
      warnUnknownOptions(options, config, this.validation.warned, this.log);
      const body = request.body === undefined ? undefined : serialize(request.body);
      return new Call(
        this,
        config,
        this.#authorize,
        this.#refreshable,
        request,
        body,
        observer,
      ).run();
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }
}

/**
 * One call: admitted (its credential, then its place in the rate-limit queue) before ky starts,
 * then sent through one ky call. ky runs the retries and the waits between them, and the
 * caller's abort of those waits. The SDK's decisions are ky's extension points:
 * - `beforeRequest`: a later attempt's credential and place, the caller's hooks, then the
 *   attempt itself (`#exchange`: the wire, under the SDK's own timeout) and its answer
 *   (`#afterResponse`: the caller's hooks, redirects, the body under its cap, the typed error, and
 *   each decision on a status: a refresh after a 401, a retry after the SDK's wait); ky takes a
 *   stand-in for a 2xx answer. A network failure or a timeout is weighed there too, so every
 *   decision is the SDK's: a retry is thrown to ky as a {@link ForceRetryError} carrying its wait,
 *   anything else is final (`retry.shouldRetry` says so).
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
  /**
   * The SDK's own signal for this call, following the caller's: ky never gets the caller's. Made
   * only when something waits on it ({@link Call.#signal}): a call queued for the rate limit is
   * followed by the queue itself, without a signal of its own.
   */
  #abort: AbortController | undefined;
  #refreshable: boolean;
  #target: RequestTarget;
  /**
   * The client's and the call's headers, without the call's own ({@link Call.#sentHeaders});
   * only `accept` once a redirect has reached another origin.
   */
  #headers: Readonly<Record<string, string>>;
  /** What the caller's hooks are told of the current attempt ({@link Call.#attemptContext}). */
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
  /** Its wait for a 429's Retry-After, among the calls that share its lines. */
  #serviceWait: ToldWait | undefined;
  #result: RawResponse | undefined;
  /** The error the SDK has already judged final: the attempt's catch must not weigh it again. */
  #final: unknown;
  /**
   * The current attempt's debug line, in two parts around what follows the attempt (a retry and
   * its wait, or no retry), which is decided after it: logged then ({@link Call.#logAttempt}).
   */
  #outcome: [string, string] | undefined;
  /** The call's credential and every secret of a known shape out of `text` (internal/redact.ts). */
  readonly #redact = (text: string): string => redactSecrets(text, this.#credential);

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
  }

  run(): Promise<RawResponse> {
    // Queued before ky starts: a call waiting for its credential or the rate limit holds none of
    // ky's objects (its Request, Headers, signals) yet, and no suspended frame of its own: only
    // the reaction to the queue's promise.
    return this.#admit().then(
      () => this.#attempts(true),
      (error: unknown) => this.#attempts(false, error),
    );
  }

  /** The call once admitted (or refused by the queue or the credential), to its end. */
  async #attempts(admitted: boolean, refusal?: unknown): Promise<RawResponse> {
    try {
      if (!admitted) throw refusal;
      this.#queued = this.#transport.shared.throttle !== undefined;
      return await this.#send();
    } catch (error) {
      const failure = this.#failure(error);
      // Every other hook's failure too, so that what a beforeRequest hook opened (a span) can end.
      this.#attemptNumber ||= 1;
      await this.#runHooks(
        'beforeError',
        this.#call.hooks.beforeError,
        (): [EmployeeRecognitionError, AttemptContext] => [failure, this.#attemptContext()],
      );
      throw failure;
    } finally {
      // However the call ends, its place goes back, it leaves a wait for a retry (aborted in it),
      // and its signal leaves the caller's.
      this.#freePlace();
      this.#leaveRetryWait(false);
      if (this.#abort) aborts.leave(this.#call.signal!, this.#abort);
    }
  }

  /** The call's own signal, made on first use, following the caller's; none without one. */
  #signal(): AbortSignal | undefined {
    const { signal } = this.#call;
    if (signal) this.#abort ??= aborts.follow(signal);
    return this.#abort?.signal;
  }

  /**
   * The attempts, through ky. What ky needs is made only now that the call may be sent (a
   * function of its own, so that the frame a queued call holds stays small).
   */
  async #send(): Promise<RawResponse> {
    await ky(this.#target.url, {
      // ky decides nothing by itself: it throws no HTTP error (the SDK reads the body first and
      // raises its own) and retries no status on its own (#afterResponse weighs each).
      throwHttpErrors: false,
      method: this.#request.method,
      // Each attempt is sent, and timed out, by the beforeRequest hook (see #exchange).
      timeout: false,
      ...(this.#call.signal && { signal: this.#signal() }),
      // Room for the forced retries; the SDK counts its own against `maxRetries`.
      retry: retryOptions(this.#call.maxRetries + FORCED_RETRIES),
      hooks: { beforeRequest: [() => this.#beforeRequest()] },
    });
    // ky resolves only after #afterResponse has read a 2xx answer.
    return this.#result as RawResponse;
  }

  /**
   * ky's `beforeRequest`, before every attempt: its credential and place (the first attempt's were
   * taken before ky started), the caller's hooks, then the attempt and its answer.
   */
  async #beforeRequest(): Promise<Response> {
    try {
      // The first attempt was admitted before ky started.
      if (this.#attemptNumber++ > 0) {
        this.#leaveRetryWait(true);
        await this.#admit();
        this.#queued = this.#transport.shared.throttle !== undefined;
      }
      await this.#runHooks(
        'beforeRequest',
        this.#call.hooks.beforeRequest,
        (): [AttemptContext] => [this.#attemptContext()],
      );
    } catch (error) {
      // Nothing was sent: the place goes back, and the failure is final.
      this.#freePlace();
      throw this.#finalize(error);
    }
    try {
      return await this.#afterResponse(await this.#exchange());
    } catch (error) {
      // What the attempt did not judge (a network failure, a timeout, a body that broke off) is
      // weighed here.
      if (error instanceof ForceRetryError || error === this.#final) throw error;
      const failure = this.#failure(error);
      // In its own words, which name the request: `Connection error: GET …: other side closed`.
      this.#noteAttempt(`${failure.name} (${failure.message})`);
      const wait = await this.#retryWait(failure, undefined);
      throw wait === undefined ? this.#finalize(failure) : this.#retry(wait);
    }
  }

  /**
   * What an attempt waits for before it is sent: its credential first, then its place in the
   * rate-limit queue, so that no call holds a place while a token is fetched. Both waits end at
   * the caller's abort; the credential's at the call's `timeout`, the queue's at a deadline the
   * caller chose (docs/reliability.md).
   */
  #admit(): Promise<void> {
    const { signal } = this.#call;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const credential = this.#authorize(
      this.#refused,
      () => this.#signal(),
      this.#call.timeout,
      this.#target,
    );
    if (typeof credential === 'string') return this.#takePlace(credential);
    this.#observer?.wait('credential', 0);
    // Its length is known only at its end: logged then.
    const asked = Date.now();
    return credential.then((awaited) => {
      this.#logWait(
        Date.now() - asked,
        'the apiKey function',
        `for the credential of ${this.#describe()}`,
        'waited',
      );
      return this.#takePlace(awaited);
    });
  }

  /**
   * Keeps the credential and waits for a place in the rate-limit queue, if the client paces. Not
   * an async function: a queued call holds one suspended frame fewer.
   */
  #takePlace(credential: string): Promise<void> {
    this.#credential = credential;
    this.#refused = undefined;
    const { throttle } = this.#transport.shared;
    if (!throttle) return Promise.resolve();
    const { signal } = this.#call;
    return throttle.acquire({
      target: this.#target,
      // The caller's: the queue follows it itself (core/throttle.ts), so a queued call needs no
      // signal of its own.
      signal,
      deadline: this.#queueDeadline,
      // Per call; the queue logs its waits, one line for the calls queued behind one wait.
      onWait: (ms: number, cause: string) => this.#observer?.wait('rate limit', ms, cause),
      redact: this.#redact,
    });
  }

  /**
   * One attempt on the wire, sent from ky's beforeRequest hook: ky takes the Response a hook
   * returns as the attempt's answer, so it neither clones its Request for the attempt nor times
   * it out (docs/architecture.md says why). The platform's (or the caller's) fetch gets the call's
   * headers and body and `redirect: 'manual'`, and is raced against `timeout` (a fetch that
   * ignores its signal still times out) and the caller's abort.
   */
  async #exchange(): Promise<{ response: Response; durationMs: number }> {
    const { timeout } = this.#call;
    const fetch = this.#transport.config.fetch ?? globalThis.fetch;
    const started = Date.now();
    let response: Response;
    try {
      response = await untilLeft(this.#signal(), timeout, this.#target, '', async (signal) => {
        // The observer may send the attempt through a fetch of its own (adding `traceparent`).
        const send = this.#observer?.attempt(this.#attemptContext(), fetch) ?? fetch;
        const answer = await send(this.#target.url, {
          ...this.#call.fetchOptions,
          method: this.#request.method,
          headers: this.#sentHeaders(true),
          body: this.#body,
          signal,
          // Redirects are followed by the SDK, not by fetch: a write must never become a GET, and
          // no header of the client's may reach another origin (fetch forwards all but Authorization).
          redirect: 'manual',
        });
        // Timed out or aborted meanwhile: nobody reads this answer.
        if (signal.aborted) cancel(answer);
        return answer;
      });
      if (typeof response?.headers?.get !== 'function') {
        throw new TypeError('fetch resolved to something that is not a Response.');
      }
    } catch (error) {
      this.#freePlace();
      throw error;
    }
    this.#freePlace(response.headers);
    return { response, durationMs: Date.now() - started };
  }

  /**
   * An attempt's answer: the caller's hooks, then a redirect, a result (ky gets a stand-in without
   * the body, which the SDK has read itself, under its cap), or a decision on a status.
   */
  async #afterResponse({
    response,
    durationMs,
  }: {
    response: Response;
    durationMs: number;
  }): Promise<Response> {
    // Every answer may carry the service's deprecation notice (docs/errors-and-retries.md): its
    // links are server text, handed out redacted like an error's (a service may echo the
    // credential into them).
    const deprecation = parseDeprecation(
      response.headers,
      this.#target.url,
      undefined,
      this.#redact,
    );
    if (deprecation) {
      const { method, path, operation = `${method} ${template(path)}` } = this.#request;
      warnOnce(this.#transport.shared.deprecationsWarned, operation, deprecation, (line) =>
        this.#transport.log.warn(line),
      );
    }
    try {
      await this.#runHooks(
        'afterResponse',
        this.#call.hooks.afterResponse,
        (): [ResponseContext] => [
          {
            ...this.#attemptContext(),
            status: response.status,
            responseHeaders: redactHeaders(response.headers, this.#redact),
            durationMs,
            ...(deprecation && { deprecation }),
          },
        ],
      );
    } catch (error) {
      cancel(response);
      throw this.#finalize(error);
    }
    if (REDIRECTS.has(response.status) || response.type === 'opaqueredirect') {
      cancel(response);
      this.#noteAttempt(`${response.status} in ${durationMs} ms`, response);
      return this.#redirect(response);
    }
    // A failure to read the body is a connection failure, weighed by #beforeRequest.
    const text = await readBody(response, {
      target: this.#target,
      maxBytes: this.#transport.config.maxResponseBytes,
      timeout: this.#call.timeout,
      signal: this.#signal(),
    });
    this.#noteAttempt(`${response.status} in ${durationMs} ms`, response, text);
    if (response.ok) {
      this.#logAttempt('');
      const credential = this.#credential;
      this.#result = {
        response,
        body: parseBody(response, text),
        request: this.#request,
        deprecation,
        redact: (line) => redactSecrets(line, credential),
      };
      return (standIn ??= new Response(null));
    }
    // Redacted whole before any hook or the instrumentation sees it (beforeRetry's `error`).
    const error = this.#failure(
      errorFromResponse(response, text, this.#target, this.#redact, retryAfterMs(response.headers)),
    );
    if (response.status === 401 && this.#refreshable) {
      // A token function gets one chance to hand out a fresh token, whatever `maxRetries` says;
      // a second 401 is final.
      this.#refreshable = false;
      this.#refused = this.#credential;
      throw this.#retry(0);
    }
    const wait = await this.#retryWait(error, response.headers);
    if (wait === undefined) throw this.#finalize(error);
    throw this.#retry(wait);
  }

  /** What has ky try again after `ms` without weighing it: ky skips `shouldRetry` for it. */
  #retry(ms: number): ForceRetryError {
    this.#logAttempt(`, retry in ${Math.round(ms)} ms`);
    return new ForceRetryError({ delay: boundedDelay(ms) });
  }

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
    await this.#runHooks('beforeRetry', this.#call.hooks.beforeRetry, (): [RetryContext] => [
      { ...this.#attemptContext(), reason: delay.cause ?? reason, delayMs: delay.ms, error },
    ]);
    const before = `retry ${this.#retries} of ${this.#call.maxRetries} of`;
    if ((error as ApiError).status === 429 && delay.cause) {
      // The service's one wait for every call it refused: they share its lines (a call alone
      // keeps its own, naming the retry), as the calls queued behind a window's reset do.
      const { retryLines } = this.#transport.shared;
      this.#serviceWait = {
        options: {
          target: { ...this.#target, method: `${before} ${this.#target.method}` },
          redact: this.#redact,
        },
        notified: false,
      };
      retryLines.tell(this.#serviceWait, delay.ms, delay.cause);
      retryLines.flush();
    } else this.#logWait(delay.ms, delay.cause ?? reason, `before ${before} ${this.#describe()}`);
    this.#observer?.wait('retry', delay.ms, delay.cause ?? reason, error);
    return delay.ms;
  }

  /**
   * The next hop of a redirect, as a forced retry: so each hop is an attempt like any other,
   * paced by the queue and seen by the hooks in `beforeRequest`, under ky's timeout. Throws when
   * following would be unsafe.
   */
  #redirect(response: Response): never {
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
          headers: redactHeaders(response.headers, this.#redact),
          requestId: response.headers.get(HEADER_REQUEST_ID) ?? undefined,
        }),
      );
    }
    // Nor one that fetch refuses (user info in it), nor one that holds the call's own credential
    // (a Link that does is not followed either, core/resource.ts): URLs show in hooks, errors,
    // traces and logs, and the next hop may be another origin's.
    if (
      response.type === 'opaqueredirect' ||
      next === undefined ||
      !/^https?:$/.test(next.protocol) ||
      next.username + next.password !== '' ||
      holdsCredential(location!, this.#credential)
    ) {
      throw this.#finalize(
        new ApiConnectionError(
          this.#target,
          `Connection error: ${this.#describe()}: the service redirected to a location the SDK does not follow.`,
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
    // The next attempt is sent to `#target` (Call#exchange): ky's own Request is not used.
    throw this.#retry(0);
  }

  /** Its wait for a 429's Retry-After ends: it goes (`went`), or the call ended in it. */
  #leaveRetryWait(went: boolean): void {
    if (this.#serviceWait) this.#transport.shared.retryLines.leave(this.#serviceWait, went);
  }

  /** Gives the current attempt's place in the rate-limit queue back, with what its answer said. */
  #freePlace(headers?: Headers): void {
    if (!this.#queued) return;
    this.#queued = false;
    const { throttle } = this.#transport.shared;
    if (headers) throttle?.update(headers);
    else throttle?.release();
  }

  /**
   * The headers of the next attempt: the client's and call's, then the call's own (its
   * Idempotency-Key, its body's type, the credential), which nothing given can override. Another
   * origin gets none of them.
   */
  #sentHeaders(withCredential: boolean): Record<string, string> {
    const headers: Record<string, string> = { ...this.#headers };
    if (this.#crossOrigin) return headers;
    const key = this.#call.idempotencyKey;
    if (key) headers[HEADER_IDEMPOTENCY_KEY] = key;
    if (this.#body !== undefined) headers['content-type'] = 'application/json';
    if (withCredential) headers.authorization = `Bearer ${this.#credential}`;
    return headers;
  }

  /**
   * The current attempt as the caller's hooks see it, made when a hook first asks: every hook of
   * one attempt sees the same `headers` object (examples/hooks/opentelemetry.ts ties a span to it).
   */
  #attemptContext(): AttemptContext {
    if (this.#context?.attempt !== this.#attemptNumber) {
      this.#context = {
        method: this.#target.method,
        url: this.#redact(this.#target.url),
        path: this.#request.path,
        attempt: this.#attemptNumber,
        headers: new Headers(this.#sentHeaders(false)),
      };
    }
    return this.#context;
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
        this.#transport.log.error(`A hook in hooks.${kind} of ${this.#describe()} failed.`);
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
      redact: this.#redact,
    });
  }

  /** Marks a failure as judged: ky gives it back to the call without another attempt. */
  #finalize(error: unknown): EmployeeRecognitionError {
    const failure = this.#failure(error);
    this.#final = failure;
    this.#logAttempt(', no retry');
    return failure;
  }

  #logWait(ms: number, cause: string, what: string, verb = 'waiting'): void {
    if (ms >= LOGGED_WAIT_MS) {
      this.#transport.log.info(`${verb} ${Math.round(ms / 1000)} s (${cause}) ${what}`);
    }
  }

  /**
   * Notes how the current attempt ended, its status or its failure (class and cause: a dropped
   * connection, a timeout), for its debug line: logged with what follows it (#logAttempt), so
   * that a failed attempt shows in the log as a successful one does (docs/getting-started.md).
   */
  #noteAttempt(outcome: string, response?: Response, text?: string): void {
    if (!this.#transport.log.enabled('debug')) return;
    const requestId = response?.headers.get(HEADER_REQUEST_ID);
    const sent = this.#body === undefined ? '' : ` sent ${truncate(this.#body)}`;
    const received = text === undefined ? '' : ` received ${truncate(this.#redact(text))}`;
    this.#outcome = [
      `${this.#describe()} -> ${outcome} (attempt ${this.#attemptNumber}${requestId ? `, request id ${requestId}` : ''})`,
      `${sent}${received}`,
    ];
  }

  /** Logs the noted attempt at debug, with what follows it (`then`), once. */
  #logAttempt(then: string): void {
    if (this.#outcome) {
      this.#transport.log.debug(this.#redact(this.#outcome.join(then)));
    }
    this.#outcome = undefined;
  }

  /** The call as messages and log lines name it: its URL redacted. */
  #describe(): string {
    return this.#redact(`${this.#target.method} ${this.#target.url}`);
  }
}

/** ky's retry options for `limit` attempts beyond the first (see {@link RETRY_OPTIONS}). */
function retryOptions(limit: number): { limit: number; shouldRetry: () => boolean } {
  return (RETRY_OPTIONS[limit] ??= { limit, shouldRetry: () => false });
}

/**
 * The credential for the next attempt: the string, or what the function returns, checked. The
 * function's answer is waited for until the call's signal aborts (its reason, which the call names
 * {@link ApiUserAbortError}) or its `timeout` passes ({@link ApiTimeoutError}); either way the
 * context's `signal` tells the function that nobody waits for its answer any more.
 */
function credentialSource(apiKey: ApiKeySource): Authorize {
  if (typeof apiKey === 'string') return () => apiKey;
  return async (refused, signal, timeout, target) => {
    const credential = await untilLeft(
      signal(),
      timeout,
      target,
      ' waiting for its credential',
      async (left) => {
        try {
          return await apiKey({ forceRefresh: refused !== undefined, refused, signal: left });
        } catch (cause) {
          // The SDK's own errors (an OAuthError of `/oauth`) are redacted: their reason shows.
          const reason = cause instanceof EmployeeRecognitionError ? `: ${cause.message}` : '.';
          throw new EmployeeRecognitionError(`The apiKey function failed${reason}`, { cause });
        }
      },
    );
    const toError = (message: string) =>
      new AuthenticationError({ status: 401, message, local: true });
    if (typeof credential !== 'string') throw toError('The apiKey function returned no string.');
    checkCredential(credential, toError);
    return credential;
  };
}

/**
 * What `work` answers, waited for until `signal` aborts or `timeout` ms pass: the promise then
 * rejects at once, with the signal's reason or an {@link ApiTimeoutError} for `target` (`waiting`
 * says for what, when not the service), whether `work` settles or not (a
 * fetch or a token function may ignore its signal), and the signal `work` was given aborts with
 * the same reason.
 */
function untilLeft<T>(
  signal: AbortSignal | undefined,
  timeout: number,
  target: RequestTarget,
  waiting: string,
  work: (left: AbortSignal) => Promise<T>,
): Promise<T> {
  const left = new AbortController();
  let onAbort: () => void;
  let timer: ReturnType<typeof later>;
  return new Promise<T>((resolve, reject) => {
    // Rejects here, not from an abort listener on `left`: every attempt's fetch waits in here,
    // and that listener measured 7 µs more CPU per users.get and 33 µs per 20-record list on
    // Node 20 (bench/overhead.mjs, paired with and without it).
    const leave = (reason: unknown) => {
      left.abort(reason);
      reject(reason);
    };
    onAbort = () => leave(signal!.reason);
    // Removed when the wait ends, so no `once`.
    signal?.addEventListener('abort', onAbort);
    timer = later(() => leave(timeoutError(target, timeout, waiting)), timeout);
    work(left.signal).then(resolve, reject);
  }).finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  });
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
    ? { 'user-agent': `${USER_AGENT_PRODUCT}/${VERSION} node/${node}` }
    : {};
}
