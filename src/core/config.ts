import {
  API_KEY_PATTERN,
  API_KEY_PREFIX_PATTERN,
  DEFAULT_BASE_URL,
  ENV_API_KEY,
  ENV_BASE_URL,
  ENV_LOG_LEVEL,
  HEADER_IDEMPOTENCY_KEY,
  IDEMPOTENCY_KEY_MAX_LENGTH,
} from '../contract.js';
import type { DeprecationNotice } from '../internal/deprecation.js';
import { isBrowserLike, readEnv } from '../internal/env.js';
import { MAX_DELAY_MS } from '../internal/timers.js';
import { EmployeeRecognitionError, escapeControls, excerpt } from './errors.js';
import type { Instrumentation } from './observer.js';

/**
 * An API key or OAuth access token, or a function that returns one. The function is called before
 * each attempt; after a 401 it is called once more with `{ forceRefresh: true, refused }` and the
 * call is retried with what it returns.
 */
export type ApiKeySource = string | ((context: ApiKeyContext) => string | Promise<string>);

/** What an `apiKey` function is told each time the SDK asks it for a credential. */
export interface ApiKeyContext {
  /** True on the attempt after a 401: the credential last handed out was refused. */
  forceRefresh: boolean;
  /**
   * With `forceRefresh`, the credential the service refused. A token provider refreshes only if
   * it still holds this one: when several calls meet the same expiry, the first refreshes and the
   * others get the token it fetched.
   */
  refused?: string | undefined;
  /**
   * Aborts when the call stops waiting for this credential: the caller's signal aborted, or the
   * call's `timeout` passed while the function ran. A function that fetches a token for this one
   * call can pass it on to its own request; one that shares a request among calls (as
   * `clientCredentials()` does) should let that request finish for the others. Always set when the
   * client asks.
   */
  signal?: AbortSignal | undefined;
}

/** What an answer's X-RateLimit-* headers said about its key's window. */
export interface PacingWindow {
  /** Requests the window allows: the key's tier. */
  limit: number;
  /** Requests the window had left when the service answered. */
  remaining: number;
  /** When the window resets, in ms since the epoch, by the service's clock (X-RateLimit-Reset). */
  resetAt: number;
}

/**
 * Where clients that share a key keep its pacing, so they spend one rate limit together: what
 * the service last said about the key's window, and the requests in flight. The SDK asks before
 * every request and tells after every answer; the store decides, atomically, for every client at
 * once. `RedisStore` from `@employee-recognition/sdk/redis` is one; docs/many-workers.md says how
 * to write one for another engine.
 */
export interface PacingStore {
  /**
   * Asks for a place for one request under `key` (a hash of the service and the key's identity);
   * `holder` names the place. Answers `0` when the request may go now (the store then counts it
   * in flight until {@link release}, or until the place expires), a number of ms to wait before
   * asking again, or `undefined` when it cannot tell: then the SDK paces locally. Rejecting counts
   * as `undefined`, and so does an answer that is not a whole number from 0 to 61,000.
   */
  reserve(key: string, holder: string): Promise<number | undefined>;
  /**
   * Frees `holder`'s place under `key` once its answer came (or none will), and records what the
   * answer said about the window, when it said something. Also called for a place the SDK paced
   * locally after asking (the store took too long, failed, or was not waited for): free it if it
   * was granted, and record the window either way.
   */
  release(key: string, holder: string, window: PacingWindow | undefined): Promise<void>;
}

/**
 * Where `definePacingStore()` puts the queue that drives a store. A registered symbol, so that a
 * store made by another copy of the SDK (ESM beside CJS) works too. Its name carries the form of
 * the factory (`PacerFactory`; `#2`: it names the key itself), so a store from a copy of another
 * form is refused as no pacing store at construction rather than called wrongly.
 */
export const PACER = Symbol.for('@employee-recognition/sdk/pacer#2');

/** `rateLimit` with a store: pacing shared by every client of the key that uses the same store. */
export interface SharedRateLimit {
  /**
   * Where the clients keep the key's pacing: `new RedisStore({ client })` from
   * `@employee-recognition/sdk/redis`, or a store of your own made with `definePacingStore()`.
   */
  store: PacingStore;
  /**
   * A stable name for the key in the store. By default an API key's own hash, or the `clientId`
   * of an OAuth credential function such as `clientCredentials()`; required for any other
   * credential function, whose tokens change. Clients pace together when key and baseUrl agree.
   */
  key?: string | undefined;
}

/** How much the SDK logs, from nothing to every attempt. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/**
 * The log levels, each one's rank its index: a logger at a level writes the lines of those before
 * it. Here beside the type, not in logger.ts, so that config.ts imports nothing from the logger.
 */
export const LOG_LEVELS: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];

/** Where log lines go: `console`, or a pino, winston or similar logger. */
export interface Logger {
  /** Every attempt, with bodies truncated. */
  debug(message: string): void;
  /** Every wait over a second, with its cause. */
  info(message: string): void;
  /** What the SDK itself doubts, such as an answer that differs from the contract. */
  warn(message: string): void;
  /** A hook or credential function that failed. */
  error(message: string): void;
}

/** What every hook learns about an attempt. It never holds the credential. */
export interface AttemptContext {
  /** The request's method, such as `GET`. */
  method: string;
  /** The request's URL, query included. */
  url: string;
  /** The API path, such as `/v1/users`. */
  path: string;
  /** The attempt's number, from 1; retries and followed redirects count up. */
  attempt: number;
  /** The headers sent, without `Authorization`. */
  headers: Headers;
}

export type { DeprecationNotice } from '../internal/deprecation.js';

/** What `afterResponse` hooks learn: the attempt and its answer (the body is the SDK's to read). */
export interface ResponseContext extends AttemptContext {
  /** The answer's status. */
  status: number;
  /** The answer's headers. */
  responseHeaders: Headers;
  /** Milliseconds from sending to the answer's headers. */
  durationMs: number;
  /** The service's notice that the operation is deprecated or retiring, when the answer has one. */
  deprecation?: DeprecationNotice | undefined;
}

/** What `beforeRetry` hooks learn: the failed attempt, why it is retried and how long the SDK waits. */
export interface RetryContext extends AttemptContext {
  /** Why, such as `status 503` or `Retry-After` or `connection error`. */
  reason: string;
  /** Milliseconds the SDK waits before the next attempt. */
  delayMs: number;
  /** The failure of the attempt. */
  error: EmployeeRecognitionError;
}

/**
 * Functions the SDK calls around every attempt, named as ky names them. Each kind runs in order;
 * one that throws fails the call with a {@link HookError}. Client hooks run before a call's own.
 */
export interface Hooks {
  /** Before each attempt is sent. */
  beforeRequest?: ((context: AttemptContext) => void | Promise<void>)[] | undefined;
  /** After each attempt's answer arrives, before its body is read. */
  afterResponse?: ((context: ResponseContext) => void | Promise<void>)[] | undefined;
  /** Before the SDK waits for a retry. */
  beforeRetry?: ((context: RetryContext) => void | Promise<void>)[] | undefined;
  /** Once, with the error a call is about to fail with. */
  beforeError?:
    | ((error: EmployeeRecognitionError, context: AttemptContext) => void | Promise<void>)[]
    | undefined;
}

/**
 * `RequestInit` fields passed to every `fetch`: undici's `dispatcher` (a proxy) in Node,
 * `credentials`, `cache`, `keepalive`, `mode` in browsers. Method, headers, body, signal and
 * redirect are the SDK's own.
 */
export type FetchOptions = Omit<
  RequestInit,
  'method' | 'headers' | 'body' | 'signal' | 'redirect'
> &
  Record<string, unknown>;

/** Options of `new Client()`. Every one is optional where an environment variable can stand in. */
export interface ClientOptions {
  /**
   * API key (`rk_live_…`/`rk_test_…`) or OAuth access token, or a function returning one, so a
   * token can be refreshed. Defaults to the `RECOGNITION_API_KEY` environment variable.
   */
  apiKey?: ApiKeySource | undefined;
  /** Service address. Defaults to `RECOGNITION_BASE_URL`, then the public API. A trailing `/` or `/v1` is accepted. */
  baseUrl?: string | undefined;
  /** Milliseconds one attempt may take for its headers, and again for its body. Default 30000. */
  timeout?: number | undefined;
  /** Further attempts after a retryable failure. Default 2. */
  maxRetries?: number | undefined;
  /** A fetch implementation to use instead of the global one. */
  fetch?: typeof globalThis.fetch | undefined;
  /** Extra `RequestInit` fields for every fetch, such as undici's `dispatcher` for a proxy. */
  fetchOptions?: FetchOptions | undefined;
  /** Headers sent with every request. A `null` value leaves a header out. */
  headers?: Record<string, string | null | undefined> | undefined;
  /**
   * `'auto'` (the default) paces requests by the service's X-RateLimit-* headers, so bulk jobs
   * run at the rate limit without 429s; `'off'` sends at once and retries a 429 after Retry-After;
   * `{ store }` shares the pacing with every process that uses the same key and store, such as
   * workers on several machines through Redis (docs/many-workers.md).
   */
  rateLimit?: 'auto' | 'off' | SharedRateLimit | undefined;
  /** What the SDK logs. Default `'warn'`, or the `RECOGNITION_LOG` environment variable. */
  logLevel?: LogLevel | undefined;
  /** Where log lines go. Default `console`. */
  logger?: Logger | undefined;
  /** Functions called around every attempt of every call. */
  hooks?: Hooks | undefined;
  /**
   * Told of every call, its waits and attempts, such as `openTelemetry()` from
   * `@employee-recognition/sdk/otel` for traces and metrics (docs/observability.md).
   */
  instrumentation?: Instrumentation | undefined;
  /** Largest body the SDK reads, in bytes after decompression. Default 8 MiB. */
  maxResponseBytes?: number | undefined;
  /**
   * How answers are checked against the contract's record shapes. `'warn'` (the default) returns
   * a record that differs as received and logs the difference once; `'strict'` fails the call
   * with InvalidResponseError; `'off'` checks only the envelope (`data`, `pagination`, ids).
   */
  validateResponses?: 'warn' | 'strict' | 'off' | undefined;
  /**
   * Allows an API key in a browser, where every visitor can read it. Off by default: in a browser
   * use the signed-in user's own OAuth token (or a token function) instead.
   */
  dangerouslyAllowBrowser?: boolean | undefined;
}

/** Per-call options, accepted as the last argument of every method. `null` counts as absent. */
export interface RequestOptions {
  /** Cancels the call at once, retries included. */
  signal?: AbortSignal | null | undefined;
  /** Milliseconds one attempt may take; overrides the client's `timeout`. */
  timeout?: number | null | undefined;
  /** Further attempts after a retryable failure; overrides the client's `maxRetries`. */
  maxRetries?: number | null | undefined;
  /** Extra headers for this call, replacing the client's of the same name (in any case). */
  headers?: Record<string, string | null | undefined> | null | undefined;
  /** Idempotency-Key for a POST or PATCH; by default a fresh UUID per call, kept across retries. */
  idempotencyKey?: string | null | undefined;
  /** Hooks for this call, run after the client's. */
  hooks?: Hooks | null | undefined;
  /** `RequestInit` fields for this call's fetches, over the client's. */
  fetchOptions?: FetchOptions | null | undefined;
}

/**
 * Logs each key of `options` that is no option, once per `warned` set (the client's set of what
 * it warns of once), with the option it probably meant: the one that is the same but for case,
 * `_`, `-` and vowels (`baseURL`, `max_retries`, `timout`, `heders`). The options are the keys of
 * `resolved`, the options as the client or the call runs with them: its type must hold every
 * option of `options`, so a new option left out of it fails the typecheck rather than draws the
 * warning. A warning, never an error: code that runs today with a stray key keeps running.
 */
export function warnUnknownOptions<Options extends object>(
  options: Options | null | undefined,
  resolved: Record<keyof NoInfer<Options>, unknown>,
  warned: Set<string>,
  log: Pick<Logger, 'warn'>,
): void {
  // What is left of a name when the usual slips are taken out of it.
  const skeleton = (name: string) => name.toLowerCase().replace(/[-_aeiou]/g, '');
  for (const name of Object.keys(options ?? {})) {
    if (Object.hasOwn(resolved, name) || warned.has(name)) continue;
    warned.add(name);
    const meant = Object.keys(resolved).find((option) => skeleton(option) === skeleton(name));
    log.warn(
      `Unknown option ${escapeControls(excerpt(name))}${meant ? `: did you mean ${meant}?` : ''}`,
    );
  }
}

/** Defaults of {@link ClientOptions}, in one place. */
const CLIENT_DEFAULTS = {
  timeout: 30_000,
  maxRetries: 2,
  rateLimit: 'auto',
  logLevel: 'warn',
  // 8 MiB as a literal: bundlers keep an arithmetic expression, and with it this object, in
  // bundles that never read it (the verifyWebhook app).
  maxResponseBytes: 8_388_608,
  validateResponses: 'warn',
} as const;

const MAX_RETRIES = 100;
export const MAX_RESPONSE_BYTES = 1024 * 1024 * 1024;
const HOOK_KINDS = ['beforeRequest', 'afterResponse', 'beforeRetry', 'beforeError'] as const;

/** The options a client runs with, after defaults and environment fallbacks. */
export interface ClientConfig {
  apiKey: ApiKeySource;
  baseUrl: string;
  timeout: number;
  /** Whether `timeout` was chosen by the caller: only then does it bound time queued for the rate limit. */
  timeoutGiven: boolean;
  maxRetries: number;
  fetch: typeof globalThis.fetch | undefined;
  fetchOptions: FetchOptions | undefined;
  headers: Record<string, string>;
  rateLimit: 'auto' | 'off' | SharedRateLimit;
  logLevel: LogLevel;
  logger: Logger;
  hooks: Required<Hooks>;
  instrumentation: Instrumentation | undefined;
  maxResponseBytes: number;
  validateResponses: 'warn' | 'strict' | 'off';
  dangerouslyAllowBrowser: boolean;
}

/** A client or call option that cannot work. Nothing is sent; the message never quotes a value. */
export class ConfigurationError extends EmployeeRecognitionError {
  override name = 'ConfigurationError';
  /** The option at fault, such as `apiKey` or `headers`. */
  declare readonly option: string;

  constructor(option: string, message: string) {
    super(message);
    this.option = option;
  }
}

/** The error for an option that cannot work: the message names it, then says what it must be. */
function invalid(option: string, problem: string): ConfigurationError {
  return new ConfigurationError(option, `\`${option}\` ${problem}.`);
}

/** Applies defaults and environment fallbacks, and rejects what cannot work, at construction. */
export function resolveConfig(options: ClientOptions): ClientConfig {
  if (options === null || typeof options !== 'object') {
    throw new ConfigurationError('options', 'new Client() takes an options object.');
  }
  const apiKey = options.apiKey ?? readEnv(ENV_API_KEY);
  if (apiKey === undefined || apiKey === '') {
    throw new ConfigurationError(
      'apiKey',
      `No API key: pass \`apiKey\` to new Client() or set the ${ENV_API_KEY} environment variable.`,
    );
  }
  if (typeof apiKey === 'string') {
    checkCredential(apiKey, (message) => new ConfigurationError('apiKey', message));
    guardBrowser(apiKey, options.dangerouslyAllowBrowser);
  } else if (typeof apiKey !== 'function') {
    throw invalid('apiKey', 'must be a string or a function returning one');
  }
  return {
    apiKey,
    baseUrl: normalizeBaseUrl(options.baseUrl ?? readEnv(ENV_BASE_URL) ?? DEFAULT_BASE_URL),
    timeout: checkTimeout(options.timeout ?? CLIENT_DEFAULTS.timeout),
    timeoutGiven: options.timeout != null,
    maxRetries: checkMaxRetries(options.maxRetries ?? CLIENT_DEFAULTS.maxRetries),
    fetch: checkFunction('fetch', options.fetch),
    fetchOptions: checkObject('fetchOptions', options.fetchOptions),
    headers: checkHeaders('headers', options.headers),
    rateLimit: checkRateLimit(options.rateLimit ?? CLIENT_DEFAULTS.rateLimit, apiKey),
    ...resolveLogging(options),
    hooks: mergeHooks(emptyHooks(), options.hooks, 'hooks'),
    instrumentation: checkObject('instrumentation', options.instrumentation),
    maxResponseBytes: checkInteger(
      'maxResponseBytes',
      options.maxResponseBytes ?? CLIENT_DEFAULTS.maxResponseBytes,
      1,
      MAX_RESPONSE_BYTES,
    ),
    validateResponses: checkChoice(
      'validateResponses',
      options.validateResponses ?? CLIENT_DEFAULTS.validateResponses,
      ['warn', 'strict', 'off'],
    ),
    dangerouslyAllowBrowser: options.dangerouslyAllowBrowser === true,
  };
}

/**
 * The `logger` and `logLevel` options checked, with their defaults: `console`, and the
 * `RECOGNITION_LOG` variable, else `'warn'`. Every part of the SDK that logs takes these two.
 */
export function resolveLogging(
  options: Pick<ClientOptions, 'logger' | 'logLevel'>,
): Pick<ClientConfig, 'logger' | 'logLevel'> {
  const logger = options.logger ?? console;
  if (!isLogger(logger)) {
    throw invalid('logger', 'must have debug, info, warn and error methods');
  }
  return {
    logger,
    logLevel: checkChoice('logLevel', options.logLevel ?? envLogLevel(), LOG_LEVELS),
  };
}

function isLogger(logger: unknown): logger is Logger {
  const candidate = logger as Partial<Record<keyof Logger, unknown>> | null;
  // Every level but 'off' is a method.
  return LOG_LEVELS.slice(1).every(
    (level) => typeof candidate?.[level as keyof Logger] === 'function',
  );
}

/** What a call's options are laid over: the client's, with the headers every request sends. */
export type CallDefaults = Pick<
  ClientConfig,
  'timeout' | 'timeoutGiven' | 'maxRetries' | 'headers' | 'hooks' | 'fetchOptions'
>;

/** The options of one call, checked and laid over the client's. */
export interface CallConfig {
  signal: AbortSignal | undefined;
  timeout: number;
  /** Whether the caller chose the timeout (client or call): only then does it bound queueing. */
  timeoutGiven: boolean;
  maxRetries: number;
  /**
   * Every header to send but Authorization, Idempotency-Key and Content-Type, names lower-cased:
   * the client's own object, unchanged, when the call adds none. Never written to.
   */
  headers: Readonly<Record<string, string>>;
  /** The Idempotency-Key every attempt of a POST or PATCH sends. */
  idempotencyKey: string | undefined;
  hooks: Required<Hooks>;
  fetchOptions: FetchOptions | undefined;
}

/**
 * Checks a call's options as the client's are checked, and lays them over the client's. Headers
 * merge by name in any case, so a header given under any spelling is the only one sent; for POST
 * and PATCH the Idempotency-Key comes from `idempotencyKey`, else from the headers, else a UUID.
 */
export function resolveCallConfig(
  config: CallDefaults,
  options: RequestOptions | null | undefined,
  method: string,
): CallConfig {
  const call = options ?? {};
  if (typeof call !== 'object') {
    throw new ConfigurationError('options', 'Request options must be an object.');
  }
  const signal = call.signal ?? undefined;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw invalid('signal', 'must be an AbortSignal');
  }
  // The client's headers are shared, not copied, by every call that adds none.
  const headers =
    call.headers == null
      ? config.headers
      : { ...config.headers, ...checkHeaders('headers', call.headers) };
  return {
    signal,
    timeout: call.timeout == null ? config.timeout : checkTimeout(call.timeout),
    timeoutGiven: config.timeoutGiven || call.timeout != null,
    maxRetries: call.maxRetries == null ? config.maxRetries : checkMaxRetries(call.maxRetries),
    headers,
    idempotencyKey:
      method === 'POST' || method === 'PATCH'
        ? checkIdempotencyKey(
            call.idempotencyKey ?? headers[HEADER_IDEMPOTENCY_KEY] ?? crypto.randomUUID(),
          )
        : undefined,
    hooks: call.hooks == null ? config.hooks : mergeHooks(config.hooks, call.hooks, 'hooks'),
    fetchOptions:
      call.fetchOptions == null
        ? config.fetchOptions
        : { ...config.fetchOptions, ...checkObject('fetchOptions', call.fetchOptions) },
  };
}

/**
 * Rejects a credential that cannot be sent: empty, with characters a header cannot carry (a
 * `Bearer ` prefix named as such), or shaped like an API key but malformed. The message never
 * quotes the credential.
 */
export function checkCredential(credential: string, toError: (message: string) => Error): void {
  // One printable ASCII character or more: nothing empty, no whitespace, control or non-ASCII.
  if (!/^[\x21-\x7e]+$/.test(credential)) {
    throw toError(
      /^bearer\s/i.test(credential)
        ? 'Pass the API key without "Bearer ".'
        : 'The API key is empty or contains whitespace, control or non-ASCII characters.',
    );
  }
  if (API_KEY_PREFIX_PATTERN.test(credential) && !API_KEY_PATTERN.test(credential)) {
    throw toError(
      'The API key is malformed: it should be rk_live_ or rk_test_ followed by at least 24 letters or digits.',
    );
  }
}

/**
 * In a browser every visitor can read an API key, so one is refused there unless the caller says
 * they know (openai-node's `dangerouslyAllowBrowser`). A user's own OAuth token is what a browser
 * app should send, and passes.
 */
function guardBrowser(apiKey: string, allowed: boolean | undefined): void {
  if (isBrowserLike() && API_KEY_PREFIX_PATTERN.test(apiKey) && allowed !== true) {
    throw new ConfigurationError(
      'dangerouslyAllowBrowser',
      "An API key in a browser is readable by every visitor. Use the signed-in user's OAuth token (or a token function), or pass `dangerouslyAllowBrowser: true` if you accept the risk.",
    );
  }
}

/**
 * The service root without a trailing `/` or `/v1`: paths add `/v1/…` themselves. Messages never
 * quote the value: a swapped `apiKey` and `baseUrl` would otherwise print the key. Only a value
 * shaped like `host:port`, which the URL parser reads as a scheme (`localhost:`), gets the URL it
 * probably meant.
 */
export function normalizeBaseUrl(baseUrl: string): string {
  if (typeof baseUrl !== 'string') {
    throw invalid('baseUrl', 'must be a string');
  }
  const trimmed = baseUrl.trim().replace(/\/+$/, '').replace(/\/v1$/, '');
  let url: URL | undefined;
  try {
    url = new URL(trimmed);
  } catch {
    // Named below.
  }
  if (!url || !/^https?:$/.test(url.protocol)) {
    // Without `://`, `localhost:4010` parses with `localhost:` as its scheme: a `host:port` gets
    // the URL it probably meant, and nothing else is quoted.
    throw invalid(
      'baseUrl',
      `must start with https:// or http://${/^[a-z\d.-]+:\d+$/i.test(trimmed) ? `, such as http://${trimmed}` : ''}`,
    );
  }
  if (url.username + url.password !== '') {
    throw invalid(
      'baseUrl',
      'must not hold a user name or password: pass the credential as `apiKey`',
    );
  }
  if (url.search + url.hash !== '') {
    throw invalid('baseUrl', 'must not hold a query or fragment');
  }
  return trimmed;
}

/** `'auto'`, `'off'`, or a store with the key's identity settled now, so a missing one fails here. */
function checkRateLimit(
  rateLimit: unknown,
  apiKey: ApiKeySource,
): 'auto' | 'off' | SharedRateLimit {
  if (typeof rateLimit !== 'object' || rateLimit === null) {
    return checkChoice<'auto' | 'off'>('rateLimit', rateLimit, ['auto', 'off']);
  }
  const { store, key } = rateLimit as Partial<SharedRateLimit>;
  if (
    typeof store?.reserve !== 'function' ||
    typeof store.release !== 'function' ||
    typeof (store as Partial<Record<typeof PACER, unknown>>)[PACER] !== 'function'
  ) {
    throw invalid(
      'rateLimit.store',
      'must be a pacing store: `new RedisStore()` from @employee-recognition/sdk/redis, or your own made with `definePacingStore()`',
    );
  }
  if (key != null && (typeof key !== 'string' || key.trim() === '' || key.length > 256)) {
    throw invalid('rateLimit.key', 'must be a name of 1 to 256 characters');
  }
  // The caller's own object: a client from withOptions() that keeps it shares its parent's queue.
  // The store's queue settles the key's name now, so a missing one fails here; the code that
  // names it comes with the store (core/shared-throttle.ts), not in every client's bundle.
  const shared = rateLimit as SharedRateLimit;
  // (The factory's type, PacerFactory, is core/throttle.ts's, which imports this module.)
  type NamesKey = (apiKey: ApiKeySource, rateLimit: SharedRateLimit) => unknown;
  (store as unknown as Record<typeof PACER, NamesKey>)[PACER](apiKey, shared);
  return shared;
}

function checkChoice<T extends string>(option: string, value: unknown, choices: readonly T[]): T {
  if (!choices.includes(value as T)) {
    throw invalid(option, `must be one of: ${choices.join(', ')}`);
  }
  return value as T;
}

export function checkTimeout(value: unknown): number {
  if (typeof value !== 'number' || !(value >= 1 && value <= MAX_DELAY_MS)) {
    throw invalid('timeout', `must be a number of ms from 1 to ${MAX_DELAY_MS}`);
  }
  return value;
}

export function checkMaxRetries(value: unknown): number {
  return checkInteger('maxRetries', value, 0, MAX_RETRIES);
}

export function checkInteger(option: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(option, `must be a whole number from ${min} to ${max}`);
  }
  return value;
}

export function checkFunction<T>(option: string, value: T | null | undefined): T | undefined {
  if (value == null) return undefined;
  if (typeof value !== 'function') {
    throw invalid(option, 'must be a function');
  }
  return value;
}

export function checkObject<T extends object>(
  option: string,
  value: T | null | undefined,
): T | undefined {
  if (value == null) return undefined;
  if (typeof value !== 'object') {
    throw invalid(option, 'must be an object');
  }
  return value;
}

// RFC 9110 token characters for names; values are bytes 0x20–0xFF and tab, without CR, LF or NUL,
// which is what `Headers` accepts. Checked here so a bad header is a typed error before sending,
// never fetch's TypeError quoting the value.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Header names lower-cased and checked; `null` and `undefined` values leave a header out. */
function checkHeaders(
  option: string,
  headers: Record<string, string | null | undefined> | null | undefined,
): Record<string, string> {
  const checked: Record<string, string> = {};
  if (headers == null) return checked;
  if (typeof headers !== 'object' || headers instanceof Headers || Array.isArray(headers)) {
    throw invalid(option, 'must be an object of header names to strings');
  }
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) {
      throw invalid(option, 'has a header name that is not a valid HTTP token');
    }
    if (value == null) continue;
    if (typeof value !== 'string' || !HEADER_VALUE.test(value)) {
      throw new ConfigurationError(
        option,
        `\`${option}\`: the value of ${name} must be a string without line breaks, control or non-Latin-1 characters.`,
      );
    }
    checked[name.toLowerCase()] = value;
  }
  return checked;
}

function checkIdempotencyKey(key: unknown): string {
  if (
    typeof key !== 'string' ||
    key.length > IDEMPOTENCY_KEY_MAX_LENGTH ||
    !/^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/.test(key)
  ) {
    throw new ConfigurationError(
      'idempotencyKey',
      `The Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters.`,
    );
  }
  return key;
}

function emptyHooks(): Required<Hooks> {
  return { beforeRequest: [], afterResponse: [], beforeRetry: [], beforeError: [] };
}

/** The hooks of `base` followed by those of `extra`, each checked to be a list of functions. */
function mergeHooks(
  base: Required<Hooks>,
  extra: Hooks | null | undefined,
  option: string,
): Required<Hooks> {
  if (extra == null) return base;
  if (typeof extra !== 'object') {
    throw invalid(option, 'must be an object of hook lists');
  }
  const merged = { ...base };
  for (const kind of HOOK_KINDS) {
    const list: unknown = extra[kind];
    if (list == null) continue;
    if (!Array.isArray(list) || !list.every((hook) => typeof hook === 'function')) {
      throw new ConfigurationError(option, `\`${option}.${kind}\` must be an array of functions.`);
    }
    merged[kind] = [...base[kind], ...list] as never;
  }
  return merged;
}

export function envLogLevel(): LogLevel {
  const level = readEnv(ENV_LOG_LEVEL)?.trim().toLowerCase();
  // A mistyped variable must not stop every client of the process from starting.
  return LOG_LEVELS.includes(level as LogLevel) ? (level as LogLevel) : CLIENT_DEFAULTS.logLevel;
}
