// `clientCredentials()`: OAuth 2.0 access tokens for server apps, fetched, cached, shared by
// concurrent callers, refreshed before they expire and after a 401, as a credential function
// `new Client({ apiKey })` takes.
import {
  DEFAULT_AUTH_URL,
  ENV_AUTH_URL,
  OAUTH_CLIENT_ID_PATTERN,
  type Scope,
} from '../contract.js';
import {
  type ApiKeyContext,
  checkFunction,
  checkInteger,
  checkMaxRetries,
  checkObject,
  checkTimeout,
  ConfigurationError,
  type FetchOptions,
  type Logger,
  type LogLevel,
  MAX_RESPONSE_BYTES,
  resolveLogging,
} from '../core/config.js';
import type { EmployeeRecognitionError } from '../core/errors.js';
import { Log } from '../core/logger.js';
import { isBrowserLike, readEnv } from '../internal/env.js';
import { sleep } from '../internal/timers.js';
import {
  type EndpointSettings,
  type IssuedToken,
  isLoopbackHttp,
  TokenEndpoint,
} from './token-endpoint.js';

/** Options of {@link clientCredentials}. Only `clientId` and `clientSecret` are required. */
export interface ClientCredentialsOptions {
  /** The OAuth client's id, `rc_…`. It is not secret, and names the provider (`clientId`). */
  clientId: string;
  /** The OAuth client's secret. It never appears in an error, a log line or an inspected object. */
  clientSecret: string;
  /** The scopes to ask for, as a list or a space-separated string. Default: the client's own. */
  scope?: string | readonly (Scope | (string & {}))[] | undefined;
  /**
   * The authorization server, whose token endpoint is found through its RFC 8414 metadata.
   * Default the `RECOGNITION_AUTH_URL` environment variable, then the service's own.
   */
  issuer?: string | undefined;
  /** The token endpoint itself, instead of an `issuer` to discover it from. */
  tokenUrl?: string | undefined;
  /** How the client authenticates: HTTP Basic (the default) or `client_id` and `client_secret` in the form body. */
  authMethod?: 'client_secret_basic' | 'client_secret_post' | undefined;
  /**
   * How long before it expires a token is replaced, in ms. Default 60 000, and never more than
   * half the token's life, so a token that lives a few seconds is still reused.
   */
  expirySkewMs?: number | undefined;
  /** Where tokens are shared between instances (Redis, for example); the provider always keeps its own too. */
  cache?: TokenCache | undefined;
  /** Milliseconds one request to the authorization server may take for its headers, and again for its body. Default 30 000. */
  timeout?: number | undefined;
  /** Further attempts after a 5xx, a timeout or a connection error. Default 2. */
  maxRetries?: number | undefined;
  /** Largest answer read from the authorization server, in bytes. Default 1 MiB. */
  maxResponseBytes?: number | undefined;
  /** A fetch implementation to use instead of the global one. */
  fetch?: typeof globalThis.fetch | undefined;
  /** Extra `RequestInit` fields for every request, such as undici's `dispatcher` for a proxy. */
  fetchOptions?: FetchOptions | undefined;
  /** What the provider logs. Default `'warn'`, or the `RECOGNITION_LOG` environment variable. */
  logLevel?: LogLevel | undefined;
  /** Where log lines go. Default `console`. */
  logger?: Logger | undefined;
  /**
   * Allows a client secret in a browser, where every visitor can read it. Off by default: a
   * browser app hands the SDK the signed-in user's own token instead.
   */
  dangerouslyAllowBrowser?: boolean | undefined;
}

/** A token as a {@link TokenCache} holds it. Times are in ms since the epoch. */
export interface CachedToken {
  /** The access token, sent as `Authorization: Bearer …`. */
  accessToken: string;
  /** When the token expires: it is not used from then on. */
  expiresAt: number;
  /** When the token is due for replacement: the first call from then on fetches a new one. */
  refreshAt: number;
  /** The scopes the authorization server granted, where it said. */
  scope?: string | undefined;
}

/**
 * A store of tokens shared by instances, so short-lived serverless instances ask for one token
 * between them instead of one each. `key` names the client, scopes and server, never the secret.
 * A store that fails or answers garbage is skipped (logged once): tokens are then fetched as
 * without it.
 */
export interface TokenCache {
  /** The token stored under `key`, or nothing when there is none. */
  get(key: string): CachedToken | null | undefined | Promise<CachedToken | null | undefined>;
  /** Stores `token` under `key`, for at least as long as until its `expiresAt`. */
  set(key: string, token: CachedToken): void | Promise<void>;
}

/**
 * A credential function for `new Client({ apiKey })` that hands out client-credentials access
 * tokens. Call it yourself for a token to use elsewhere.
 */
export interface ClientCredentials {
  /**
   * A token: the one held, or a fresh one; after a 401, a fresh one only while `refused` is held.
   * The context's `signal` does not cancel the token request: other calls share it, and a call
   * that stops waiting leaves it to finish under its own `timeout`, its token kept for the next.
   */
  (context?: ApiKeyContext): Promise<string>;
  /** The OAuth client's id: not secret, a stable name for this client (shared pacing keys use it). */
  readonly clientId: string;
}

/** Defaults of {@link ClientCredentialsOptions}, in one place. */
const CLIENT_CREDENTIALS_DEFAULTS = {
  authMethod: 'client_secret_basic',
  expirySkewMs: 60_000,
  timeout: 30_000,
  maxRetries: 2,
  maxResponseBytes: 1024 * 1024,
} as const;

/** After a refresh fails while the held token is still valid, the next try waits this long. */
const REFRESH_RETRY_MS = 30_000;
/** The longest skew that makes sense: a day. */
const MAX_SKEW_MS = 24 * 60 * 60 * 1000;
/** RFC 6749 §3.3: a scope is printable ASCII but space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * OAuth 2.0 client-credentials tokens (RFC 6749 §4.4) for server apps, as a credential function:
 * `new Client({ apiKey: clientCredentials({ clientId, clientSecret }) })`. A token is fetched on
 * the first call, shared by every call made while it is fetched, reused until `expirySkewMs`
 * before it expires, and replaced once after the service refuses it (401).
 *
 * @throws {ConfigurationError} when an option cannot work, or in a browser without
 *   `dangerouslyAllowBrowser`; nothing is sent.
 */
export function clientCredentials(options: ClientCredentialsOptions): ClientCredentials {
  const settings = resolveOptions(options);
  const provider = new TokenProvider(settings);
  const credentials = async function clientCredentialsToken(context?: ApiKeyContext) {
    return provider.token(context);
  };
  // The secret lives only in closures: nothing reachable from the function holds it.
  return Object.defineProperty(credentials, 'clientId', {
    value: settings.endpoint.clientId,
    enumerable: true,
  }) as ClientCredentials;
}

interface ProviderSettings {
  endpoint: EndpointSettings;
  expirySkewMs: number;
  cache: TokenCache | undefined;
  cacheKey: string;
  log: Log;
}

/** The tokens of one provider: the one held, the request in flight, and the shared cache. */
class TokenProvider {
  readonly #settings: ProviderSettings;
  readonly #endpoint: TokenEndpoint;
  readonly #log: Log;
  #held: CachedToken | undefined;
  #inFlight: Promise<CachedToken> | undefined;
  /** Whether the provider has said it runs on a token it could not replace, since the last success. */
  #degraded = false;
  #cacheWarned = false;

  constructor(settings: ProviderSettings) {
    this.#settings = settings;
    this.#endpoint = new TokenEndpoint(settings.endpoint);
    this.#log = settings.log;
  }

  async token(context: ApiKeyContext | undefined): Promise<string> {
    const held = this.#held;
    // After a 401 that does not name the refused token, the token held is the one refused.
    const refused = context?.forceRefresh ? (context.refused ?? held?.accessToken) : undefined;
    const now = Date.now();
    if (held !== undefined) {
      // A refused token already replaced is not fetched again: 200 calls refused with one revoked
      // token cause one refresh, not 200 in turn.
      if (
        refused === undefined
          ? now < held.refreshAt
          : held.accessToken !== refused && now < held.expiresAt
      ) {
        return held.accessToken;
      }
    }
    let token = await this.#refresh(refused);
    // A request already in flight when the token was refused may bring it back from the cache.
    if (refused !== undefined && token.accessToken === refused)
      token = await this.#refresh(refused);
    return token.accessToken;
  }

  /** One request at a time: every caller while it runs shares its token (single flight). */
  #refresh(refused: string | undefined): Promise<CachedToken> {
    this.#inFlight ??= this.#obtain(refused).finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  async #obtain(refused: string | undefined): Promise<CachedToken> {
    const shared = await this.#readCache();
    if (shared && shared.accessToken !== refused && Date.now() < shared.refreshAt) {
      this.#held = shared;
      return shared;
    }
    let token: CachedToken;
    try {
      token = this.#fromIssued(await this.#endpoint.requestToken());
    } catch (error) {
      return this.#stillValid(error as EmployeeRecognitionError, refused, shared);
    }
    this.#held = token;
    this.#degraded = false;
    await this.#writeCache(token);
    return token;
  }

  #fromIssued(issued: IssuedToken): CachedToken {
    const expiresAt = issued.requestedAt + issued.lifetimeMs;
    const skew = Math.min(this.#settings.expirySkewMs, issued.lifetimeMs / 2);
    return {
      accessToken: issued.accessToken,
      expiresAt,
      refreshAt: expiresAt - skew,
      ...(issued.scope === undefined ? {} : { scope: issued.scope }),
    };
  }

  /**
   * A token that could not be replaced early is still good until it expires: an authorization
   * server that is down must not fail calls that could succeed. Said once; tried again later.
   */
  #stillValid(
    error: EmployeeRecognitionError,
    refused: string | undefined,
    shared: CachedToken | undefined,
  ): CachedToken {
    const now = Date.now();
    const usable = [this.#held, shared].find(
      (token) => token !== undefined && token.accessToken !== refused && now < token.expiresAt,
    );
    if (usable === undefined) throw error;
    if (!this.#degraded) {
      this.#degraded = true;
      this.#log.warn(
        `The access token could not be replaced before it expires, so the current one is used until then: ${error.message}`,
      );
    }
    this.#held = {
      ...usable,
      refreshAt: Math.min(
        usable.expiresAt,
        now + Math.min(REFRESH_RETRY_MS, (usable.expiresAt - now) / 2),
      ),
    };
    return this.#held;
  }

  async #readCache(): Promise<CachedToken | undefined> {
    const { cache, cacheKey, endpoint } = this.#settings;
    if (cache === undefined) return undefined;
    let token: unknown;
    try {
      token = await bounded(cache.get(cacheKey), endpoint.timeout);
    } catch (error) {
      this.#cacheFailed('get', error);
      return undefined;
    }
    if (token == null) return undefined;
    if (!isCachedToken(token)) {
      this.#cacheFailed('get', new Error('it returned something that is not a token'));
      return undefined;
    }
    return token;
  }

  async #writeCache(token: CachedToken): Promise<void> {
    const { cache, cacheKey, endpoint } = this.#settings;
    if (cache === undefined) return;
    try {
      await bounded(cache.set(cacheKey, { ...token }), endpoint.timeout);
    } catch (error) {
      this.#cacheFailed('set', error);
    }
  }

  #cacheFailed(operation: 'get' | 'set', error: unknown): void {
    if (this.#cacheWarned) return;
    this.#cacheWarned = true;
    const reason = error instanceof Error ? error.message : String(error);
    this.#log.warn(
      `The token cache's ${operation} failed, so tokens are fetched without it (said once): ${this.#endpoint.redact(reason)}`,
    );
  }
}

function isCachedToken(value: unknown): value is CachedToken {
  const token = value as Partial<CachedToken> | null;
  return (
    typeof token === 'object' &&
    typeof token?.accessToken === 'string' &&
    token.accessToken !== '' &&
    Number.isFinite(token.expiresAt) &&
    Number.isFinite(token.refreshAt)
  );
}

/** A cache operation, given up after `ms`: a store that hangs must not hang the calls. */
async function bounded<T>(operation: T | Promise<T>, ms: number): Promise<T> {
  const timer = new AbortController();
  const timedOut = sleep(ms, timer.signal).then(() => {
    throw new Error(`no answer within ${ms} ms`);
  });
  timedOut.catch(() => {});
  try {
    return await Promise.race([operation, timedOut]);
  } finally {
    timer.abort();
  }
}

/** Checks the options and applies their defaults; nothing is sent before they pass. */
function resolveOptions(options: ClientCredentialsOptions): ProviderSettings {
  if (options === null || typeof options !== 'object') {
    throw new ConfigurationError('options', 'clientCredentials() takes an options object.');
  }
  if (isBrowserLike() && options.dangerouslyAllowBrowser !== true) {
    throw new ConfigurationError(
      'dangerouslyAllowBrowser',
      "A client secret in a browser is readable by every visitor. Hand the SDK the signed-in user's OAuth token instead, or pass `dangerouslyAllowBrowser: true` if you accept the risk.",
    );
  }
  const clientId = checkClientId(options.clientId);
  const clientSecret = options.clientSecret;
  if (typeof clientSecret !== 'string' || clientSecret === '') {
    throw new ConfigurationError('clientSecret', '`clientSecret` must be a non-empty string.');
  }
  const scope = checkScope(options.scope);
  const server = checkServer(options);
  const authMethod = options.authMethod ?? CLIENT_CREDENTIALS_DEFAULTS.authMethod;
  if (authMethod !== 'client_secret_basic' && authMethod !== 'client_secret_post') {
    throw new ConfigurationError(
      'authMethod',
      '`authMethod` must be one of: client_secret_basic, client_secret_post.',
    );
  }
  const cache = checkObject('cache', options.cache);
  if (cache !== undefined && (typeof cache.get !== 'function' || typeof cache.set !== 'function')) {
    throw new ConfigurationError('cache', '`cache` must have get and set methods.');
  }
  const { logger, logLevel } = resolveLogging(options);
  const log = new Log(logger, logLevel);
  const where = 'tokenUrl' in server ? server.tokenUrl.href : server.issuer.href;
  return {
    endpoint: {
      clientId,
      clientSecret,
      authMethod,
      scope,
      server,
      timeout: checkTimeout(options.timeout ?? CLIENT_CREDENTIALS_DEFAULTS.timeout),
      maxRetries: checkMaxRetries(options.maxRetries ?? CLIENT_CREDENTIALS_DEFAULTS.maxRetries),
      maxResponseBytes: checkInteger(
        'maxResponseBytes',
        options.maxResponseBytes ?? CLIENT_CREDENTIALS_DEFAULTS.maxResponseBytes,
        1,
        MAX_RESPONSE_BYTES,
      ),
      fetch: checkFunction('fetch', options.fetch),
      fetchOptions: checkObject('fetchOptions', options.fetchOptions),
      log,
    },
    expirySkewMs: checkInteger(
      'expirySkewMs',
      options.expirySkewMs ?? CLIENT_CREDENTIALS_DEFAULTS.expirySkewMs,
      0,
      MAX_SKEW_MS,
    ),
    cache,
    cacheKey: `employee-recognition:oauth:${clientId}:${scope ?? ''}@${where}`,
    log,
  };
}

function checkClientId(clientId: unknown): string {
  if (typeof clientId !== 'string' || !/^[\x21-\x7e]+$/.test(clientId)) {
    throw new ConfigurationError(
      'clientId',
      '`clientId` must be a non-empty string of printable ASCII without spaces.',
    );
  }
  if (clientId.startsWith('rc_') && !OAUTH_CLIENT_ID_PATTERN.test(clientId)) {
    throw new ConfigurationError(
      'clientId',
      '`clientId` is malformed: it should be rc_ followed by at least 16 letters or digits.',
    );
  }
  return clientId;
}

function checkScope(scope: ClientCredentialsOptions['scope']): string | undefined {
  if (scope == null) return undefined;
  const scopes = typeof scope === 'string' ? scope.split(' ') : scope;
  if (!Array.isArray(scopes) || !scopes.every((each) => typeof each === 'string')) {
    throw new ConfigurationError('scope', '`scope` must be a string or an array of strings.');
  }
  const given = scopes.filter((each) => each !== '');
  if (!given.every((each) => SCOPE_TOKEN.test(each))) {
    throw new ConfigurationError(
      'scope',
      '`scope`: each scope must be printable ASCII without spaces, quotes or backslashes.',
    );
  }
  return given.length === 0 ? undefined : given.join(' ');
}

/** The token endpoint, or the issuer to discover it from: `tokenUrl`, `issuer`, the variable, the default. */
function checkServer(options: ClientCredentialsOptions): EndpointSettings['server'] {
  if (options.tokenUrl != null && options.issuer != null) {
    throw new ConfigurationError('tokenUrl', 'Pass `tokenUrl` or `issuer`, not both.');
  }
  if (options.tokenUrl != null) return { tokenUrl: checkServerUrl('tokenUrl', options.tokenUrl) };
  const issuer = options.issuer ?? readEnv(ENV_AUTH_URL) ?? DEFAULT_AUTH_URL;
  const url = checkServerUrl('issuer', issuer);
  if (url.search !== '') {
    throw new ConfigurationError('issuer', '`issuer` must not hold a query.');
  }
  return { issuer: url };
}

/** An https URL, or http to this machine. Messages never quote the value (it may be a swapped secret). */
function checkServerUrl(option: string, value: unknown): URL {
  let url: URL;
  try {
    url = new URL(value as string);
  } catch {
    throw new ConfigurationError(option, `\`${option}\` is not an absolute URL.`);
  }
  if (typeof value !== 'string' || (url.protocol !== 'https:' && !isLoopbackHttp(url))) {
    throw new ConfigurationError(
      option,
      `\`${option}\` must use https (http only to localhost or a loopback address).`,
    );
  }
  if (url.username !== '' || url.password !== '' || url.hash !== '') {
    throw new ConfigurationError(
      option,
      `\`${option}\` must not hold a user name, password or fragment.`,
    );
  }
  return url;
}
