import { API_VERSION_PREFIX } from './contract.js';
import type { ApiPromise } from './core/api-promise.js';
import {
  type ClientConfig,
  type ClientOptions,
  ConfigurationError,
  type RequestOptions,
  resolveConfig,
  warnUnknownOptions,
} from './core/config.js';
import type { PageParams, PagePromise } from './core/pagination.js';
import { anyPage, sendPageRequest, sendRequest } from './core/resource.js';
import { type SharedState, Transport } from './core/request.js';
import { type HttpMethod, NotJson, type QueryValue } from './internal/exchange.js';
import { Analytics } from './resources/analytics.js';
import { Budgets } from './resources/budgets.js';
import { Recognitions } from './resources/recognitions.js';
import { Rewards } from './resources/rewards.js';
import { Teams } from './resources/teams.js';
import { Users } from './resources/users.js';
import { Webhooks } from './resources/webhooks.js';

/** Options of the raw requests (`client.get` …): a query, a JSON body, and the per-call options. */
export interface RawRequestOptions extends RequestOptions {
  /** Query parameters; `null` and `undefined` values are left out. */
  query?: Record<string, QueryValue> | null | undefined;
  /** The JSON body of a POST or PATCH. */
  body?: unknown;
}

/** What `withOptions()` may change: every option but the credential, which the new client shares. */
export type ClientOverrides = Omit<ClientOptions, 'apiKey'>;

// What a derived client inherits without it showing in the public constructor: the rate-limit
// state of the client it came from, so they pace as one where they call the same service the same
// way. Keyed by the options object `withOptions` made.
const inherited = new WeakMap<ClientOptions, { from: ClientConfig; shared: SharedState }>();

/**
 * The Employee Recognition API client.
 *
 * ```ts
 * const client = new Client({ apiKey: process.env.RECOGNITION_API_KEY });
 * for await (const recognition of client.recognitions.list({ limit: 100 })) console.log(recognition.message);
 * ```
 */
export class Client {
  /** The service root requests go to, without `/v1`. */
  declare readonly baseUrl: string;
  /** Milliseconds one attempt may take. */
  declare readonly timeout: number;
  /** Further attempts after a retryable failure. */
  declare readonly maxRetries: number;
  /** Recognitions: list, get, create, delete. */
  declare readonly recognitions: Recognitions;
  /** Users of the organization: list, get. */
  declare readonly users: Users;
  /** Rewards: list, get. */
  declare readonly rewards: Rewards;
  /** Teams: list, get. */
  declare readonly teams: Teams;
  /** Webhook endpoints: list, get, create, update, delete. */
  declare readonly webhooks: Webhooks;
  /** Budgets: list, get. */
  declare readonly budgets: Budgets;
  /** Analytics: the recognition summary of a period. */
  declare readonly analytics: Analytics;
  readonly #transport: Transport;
  readonly #derive: (overrides: ClientOverrides) => Client;

  constructor(options: ClientOptions = {}) {
    const config = resolveConfig(options);
    this.baseUrl = config.baseUrl;
    this.timeout = config.timeout;
    this.maxRetries = config.maxRetries;
    const parent = inherited.get(options);
    const sharesPacing =
      parent?.from.baseUrl === config.baseUrl && parent.from.rateLimit === config.rateLimit;
    const transport = new Transport(config, sharesPacing ? parent.shared : undefined);
    this.#transport = transport;
    warnUnknownOptions(options, config, transport.validation.warned, transport.log);
    this.recognitions = new Recognitions(transport);
    this.users = new Users(transport);
    this.rewards = new Rewards(transport);
    this.teams = new Teams(transport);
    this.webhooks = new Webhooks(transport);
    this.budgets = new Budgets(transport);
    this.analytics = new Analytics(transport);
    // The credential stays in this closure, as in the transport's: the new client gets it here.
    this.#derive = (overrides) => {
      const next: ClientOptions = { ...options, ...overrides, apiKey: config.apiKey };
      inherited.set(next, { from: config, shared: transport.shared });
      return new Client(next);
    };
  }

  /**
   * A new client with some options changed (timeout, maxRetries, headers, logLevel, logger,
   * hooks, fetchOptions, baseUrl, rateLimit …). It shares this client's credential, and its
   * rate-limit pacing where the service is the same.
   */
  withOptions(overrides: ClientOverrides): Client {
    return this.#derive(overrides);
  }

  /** GET any path of the API, with the client's auth, retries, errors, logging and hooks. */
  get<T = unknown>(path: string, options?: RawRequestOptions): ApiPromise<T> {
    return this.#raw('GET', path, options);
  }

  /** POST any path of the API; sent with an Idempotency-Key like every write. */
  post<T = unknown>(path: string, options?: RawRequestOptions): ApiPromise<T> {
    return this.#raw('POST', path, options);
  }

  /** PATCH any path of the API; sent with an Idempotency-Key like every write. */
  patch<T = unknown>(path: string, options?: RawRequestOptions): ApiPromise<T> {
    return this.#raw('PATCH', path, options);
  }

  /** DELETE any path of the API. */
  delete<T = unknown>(path: string, options?: RawRequestOptions): ApiPromise<T> {
    return this.#raw('DELETE', path, options);
  }

  /**
   * A paginated list at any path, as the SDK's own lists: await it for the first page, iterate it
   * for every record. The envelope (`data`, `pagination`) is checked; records come as received.
   */
  getPage<Item = unknown>(
    path: string,
    options?: RawRequestOptions,
  ): PagePromise<Item, PageParams & Record<string, QueryValue>> {
    const { query, body: _body, ...rest } = options ?? {};
    return sendPageRequest(
      this.#transport,
      undefined,
      checkPath(path),
      undefined,
      anyPage,
      checkQuery(query),
      rest,
    );
  }

  #raw<T>(method: HttpMethod, path: string, options: RawRequestOptions | undefined): ApiPromise<T> {
    const { query, body, ...rest } = options ?? {};
    return sendRequest(
      this.#transport,
      undefined,
      () => ({ method, path: checkPath(path), query: checkQuery(query), body }),
      ({ body: received }) => (received instanceof NotJson ? received.text : received) as T,
      rest,
    );
  }

  /** What `JSON.stringify` shows: the settings, never the credential. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl, timeout: this.timeout, maxRetries: this.maxRetries };
  }

  /** What `console.log` and `util.inspect` show in Node: the settings, never the credential. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Client ${JSON.stringify(this.toJSON())}`;
  }
}

// A path segment's characters (RFC 3986 pchar); `%` only as an escape.
const PATH = /^(?:\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*)+$/;
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:\/|$)/i;

/**
 * A raw request's path: under `/v1/`, and unable to leave the base URL: no scheme, no `//`, no
 * dot segments (encoded or not), no query or fragment (pass `query`).
 */
function checkPath(path: unknown): string {
  if (
    typeof path !== 'string' ||
    !path.startsWith(`${API_VERSION_PREFIX}/`) ||
    path.includes('//') ||
    DOT_SEGMENT.test(path) ||
    !PATH.test(path)
  ) {
    throw new ConfigurationError(
      'path',
      `A raw request's path must start with ${API_VERSION_PREFIX}/ and hold only URL path characters, without // or dot segments; pass the query as \`query\`.`,
    );
  }
  return path;
}

function checkQuery(
  query: Record<string, QueryValue> | null | undefined,
): Record<string, QueryValue> | undefined {
  if (query == null) return undefined;
  const valid =
    typeof query === 'object' &&
    Object.values(query).every(
      (value) => value == null || ['string', 'number', 'boolean'].includes(typeof value),
    );
  if (!valid) {
    throw new ConfigurationError(
      'query',
      '`query` must map names to strings, numbers or booleans.',
    );
  }
  return query;
}
