// The mock as one Request → Response function, `handle`, and its thin adapter, a fetch function
// (the node:http server is server.ts, the MSW handlers msw.ts: the one file that loads msw).
import {
  DEFAULT_RATE_LIMIT_TIER,
  HEADER_IDEMPOTENCY_KEY,
  HEADER_LINK,
  HEADER_REQUEST_ID,
  type WebhookEventType,
} from '../contract.js';
import { sleep } from '../internal/timers.js';
import { createKeyring, requireScope } from './auth.js';
import { createFaults, faultResponse, type MockFaults } from './faults.js';
import { createIdempotencyCache } from './idempotency.js';
import { createOAuthServer, type MockOAuth } from './oauth.js';
import type { Answer, Caller, OperationContext } from './operation.js';
import { type MockApiOptions, resolveOptions } from './options.js';
import { speakDialect } from './dialect.js';
import { createRandom } from './random.js';
import { createRateLimiter } from './rate-limit.js';
import type { MockStore } from './records.js';
import { type RecordedRequest, recordRequest } from './request-log.js';
import { findRoute } from './routes.js';
import { createStore } from './store.js';
import { errorBody, HttpError } from './validation.js';
import {
  createWebhookDispatcher,
  type DeliveryAttempt,
  type MockWebhookEvent,
} from './webhook-delivery.js';

/**
 * A fetch-compatible function. `RequestInfo` written out: a Node program without the DOM lib
 * has `Request` and `RequestInit` from @types/node, but no `RequestInfo`.
 */
export type MockFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A stateful, in-memory Employee Recognition API. */
export interface MockApi {
  /** The base URL the mock answers below and relative `fetch` URLs point to, without `/v1`. */
  readonly baseUrl: string;
  /** The first credential of the `keys` option: by default an `rk_test_` key with every scope. */
  readonly testKey: string;
  /** The data, to seed and inspect. */
  readonly store: MockStore;
  /** Fault injection. */
  readonly faults: MockFaults;
  /** The authorization server: its token endpoint issues tokens the API accepts. */
  readonly oauth: MockOAuth;
  /** Every request received, oldest first, credentials redacted. */
  readonly requests: readonly RecordedRequest[];
  /** Every webhook delivery attempt, oldest first. */
  readonly deliveries: readonly DeliveryAttempt[];
  /**
   * Answers a request as the API would. A dropped connection is `Response.error()`; a request
   * aborted while a fault delays it rejects with the signal's reason.
   */
  handle(request: Request): Promise<Response>;
  /** `fetch` through {@link MockApi.handle}; relative URLs are resolved against `baseUrl`. Rejects like fetch when the connection drops. */
  readonly fetch: MockFetch;
  /**
   * Sends an event of any type to the webhooks subscribed to it. Resolves, with the event, once
   * the first attempt of each delivery has finished; retries follow on their schedule.
   */
  emit(type: WebhookEventType, data: unknown): Promise<MockWebhookEvent>;
  /** Resolves when no delivery attempt is in flight. */
  flushDeliveries(): Promise<void>;
  /** Back to the start: seeded data, no faults, requests, deliveries, rate-limit or idempotency state. */
  reset(): Promise<void>;
  /** Cancels pending delivery retries, attempts in flight and fault delays; leaves no timer behind. */
  close(): Promise<void>;
}

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Served without a credential, beside the API rather than in it, as services publish theirs.
export const OPENAPI_PATH = '/openapi.json';
const IDEMPOTENT_BY_KEY = new Set(['POST', 'PATCH']);
// Unauthenticated requests share one allowance, as a service would count them per address.
const ANONYMOUS = Symbol('anonymous');

// An authenticated request on its way to an operation.
interface Call {
  request: Request;
  path: string;
  query: URLSearchParams;
  body: string;
  now: number;
  caller: Caller;
}

/** Creates a mock of the whole API over an in-memory store seeded from `options.seed`. */
export function createMockApi(options: MockApiOptions = {}): MockApi {
  const config = resolveOptions(options);
  const store = createStore(config);
  const faults = createFaults();
  const oauth = createOAuthServer(config.oauth, config.seed, config.now);
  const identify = createKeyring(config.keys, oauth.identify);
  const { dialect } = config;
  const limiter = createRateLimiter(config.rateLimitWindowMs, dialect.rateLimitHeaders);
  const idempotency = createIdempotencyCache();
  const dispatcher = createWebhookDispatcher({
    store,
    fetch: config.webhookFetch,
    // The service's clock: a skewed one stamps its deliveries as skewed.
    now: dialect.clockSkewMs ? () => config.now() + dialect.clockSkewMs : config.now,
    random: createRandom(config.seed),
    retryDelaysMs: config.webhookRetryDelaysMs,
    timeoutMs: config.webhookTimeoutMs,
  });
  const requests: RecordedRequest[] = [];
  const basePath = new URL(config.baseUrl).pathname.replace(/\/$/, '');
  let lifetime = new AbortController();
  let requestCount = 0;

  // The API proper, past authentication and the rate limit.
  const operate = (call: Call): Answer => {
    const { request, path, caller } = call;
    const match = findRoute(request.method, path);
    if (!match) throw new HttpError(404, `No route for ${request.method} ${path}.`);
    requireScope(caller, match.route.scope);
    const context: OperationContext = {
      store,
      params: match.params,
      query: call.query,
      body: call.body,
      caller,
      now: call.now,
      emit: (type, data) => void dispatcher.dispatch(type, data),
    };
    const run = () => catchHttpErrors(() => match.route.operation(context));
    const key = request.headers.get(HEADER_IDEMPOTENCY_KEY);
    if (key === null || !IDEMPOTENT_BY_KEY.has(request.method)) return run();
    const fingerprint = `${request.method} ${path}\n${call.body}`;
    return idempotency.run(caller.credential, key, fingerprint, call.now, run);
  };

  // An operation marked deprecated announces it on every answer, errors included, as services do.
  const deprecationHeaders = (method: string, path: string) => {
    if (config.deprecations.size === 0) return undefined;
    const route = findRoute(method, path)?.route;
    return (
      route && config.deprecations.get(`${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`)
    );
  };

  // Synchronous, so no other request interleaves with a write.
  const respond = (
    request: Request,
    url: URL,
    path: string,
    body: string,
    id: string,
  ): Response => {
    const now = config.now();
    const caller = identify(request.headers.get('authorization'));
    const bucket = caller?.credential ?? ANONYMOUS;
    const limit = limiter.take(bucket, caller?.rateLimit ?? DEFAULT_RATE_LIMIT_TIER, now);
    let answer: Answer;
    try {
      answer = catchHttpErrors(() => {
        if (!limit.allowed) throw new HttpError(429, 'Too many requests: retry after Retry-After.');
        if (!caller) throw new HttpError(401, 'Missing, malformed or unknown credential.');
        return operate({ request, path, query: url.searchParams, body, now, caller });
      });
    } catch (error) {
      // A bug in the mock: say what it was rather than crash the test's fetch.
      answer = { status: 500, body: errorBody(500, `The mock failed: ${String(error)}`) };
    }
    answer = speakDialect(answer, dialect, {
      baseUrl: config.baseUrl,
      path,
      query: url.searchParams,
    });
    return toResponse(answer, {
      // The service's clock, as every HTTP server sends it (RFC 9110 §6.6.1).
      date: new Date(now + dialect.clockSkewMs).toUTCString(),
      [HEADER_REQUEST_ID]: id,
      ...limit.headers,
      ...deprecationHeaders(request.method, path),
    });
  };

  const handle = async (request: Request): Promise<Response> => {
    request.signal.throwIfAborted();
    const id = `req_${String(++requestCount).padStart(6, '0')}`;
    const url = new URL(request.url);
    const path = url.pathname.startsWith(`${basePath}/`)
      ? url.pathname.slice(basePath.length)
      : url.pathname;
    const body = METHODS_WITH_BODY.has(request.method) ? await request.text() : '';
    const time = config.now();
    requests.push(recordRequest(request, { id, path, query: url.searchParams, body, time }));
    if (request.method === 'GET' && path === OPENAPI_PATH) {
      return toResponse(
        { status: 200, body: await openApiDocument() },
        { [HEADER_REQUEST_ID]: id },
      );
    }
    const fault = faults.take(request.method, path);
    if (fault?.kind === 'drop') return Response.error();
    if (fault?.kind === 'fail') return faultResponse(fault, { [HEADER_REQUEST_ID]: id });
    if (fault?.kind === 'delay') {
      await sleep(fault.ms, AbortSignal.any([request.signal, lifetime.signal]));
    }
    const response = oauth.serves(url)
      ? oauth.handle(request, body, id)
      : respond(request, url, path, body, id);
    return fault?.kind === 'drop-response' ? Response.error() : response;
  };

  const fetch: MockFetch = async (input, init) => {
    const url = typeof input === 'string' && input.startsWith('/') ? config.baseUrl + input : input;
    const response = await handle(new Request(url, init));
    if (response.type === 'error') throw new TypeError('fetch failed');
    return response;
  };

  return {
    baseUrl: config.baseUrl,
    testKey: config.keys[0]!.key,
    store,
    faults,
    oauth,
    requests,
    deliveries: dispatcher.attempts,
    handle,
    fetch,
    emit: (type, data) => dispatcher.dispatch(type, data),
    flushDeliveries: dispatcher.flush,
    async reset() {
      lifetime.abort(new Error('The mock API was reset'));
      lifetime = new AbortController();
      await dispatcher.reset();
      store.reset();
      faults.clear();
      limiter.clear();
      idempotency.clear();
      oauth.reset();
      requests.length = 0;
    },
    async close() {
      lifetime.abort(new Error('The mock API was closed'));
      await dispatcher.close();
    },
  };
}

function catchHttpErrors(work: () => Answer): Answer {
  try {
    return work();
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return { status: error.status, body: errorBody(error.status, error.message, error.details) };
  }
}

// A JSON response; `headers` come first, so the answer's own headers win, but for `Link`, where
// a page's link (dialect.ts) joins a deprecation's.
function toResponse(answer: Answer, headers: Record<string, string>): Response {
  const json = answer.body !== undefined;
  const link = [headers[HEADER_LINK], answer.headers?.[HEADER_LINK]].filter(Boolean).join(', ');
  return new Response(json ? JSON.stringify(answer.body) : null, {
    status: answer.status,
    headers: {
      ...headers,
      ...(json ? { 'content-type': 'application/json' } : {}),
      ...answer.headers,
      ...(link && { [HEADER_LINK]: link }),
    },
  });
}

// The OpenAPI document of the API, loaded on first request: it is large, and most tests never ask.
let openApi: Promise<unknown> | undefined;

function openApiDocument(): Promise<unknown> {
  openApi ??= import('../../openapi.json', { with: { type: 'json' } }).then(
    (module) => module.default,
  );
  return openApi;
}
