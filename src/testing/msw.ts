/**
 * `@employee-recognition/sdk/testing/msw`: the mock API of `@employee-recognition/sdk/testing`
 * with MSW (Mock Service Worker) handlers, for `setupServer` from `msw/node` and `setupWorker`
 * from `msw/browser`. The only entry that loads msw: everything else of the testing kit works
 * without it, in every test runner. It offers all that `/testing` does, so moving to it is a
 * change of the import's path.
 *
 * @packageDocumentation
 */
import { type HttpHandler, http } from 'msw';
import {
  API_VERSION_PREFIX,
  OAUTH_METADATA_PATH,
  OAUTH_TOKEN_PATH,
  oauthMetadataUrl,
  USER_AGENT_PRODUCT,
} from '../contract.js';
import { ConfigurationError } from '../core/config.js';
import { type Har, readHar } from './har.js';
import { type MockApi, createMockApi as createPlainMockApi, OPENAPI_PATH } from './mock-api.js';
import type { MockApiOptions } from './options.js';
import { createReplayer, type ReplayOptions } from './replay.js';

export * from './index.js';

/** A mock API with its MSW handlers. */
export interface MswMockApi extends MockApi {
  /** MSW handlers for `setupServer(...api.handlers)` or `setupWorker(...api.handlers)`. */
  readonly handlers: HttpHandler[];
}

/**
 * Creates a mock of the whole API, as `createMockApi` of `/testing` does, with the MSW handlers
 * that answer every request below `${baseUrl}/v1/`, `GET ${baseUrl}/openapi.json`, and the
 * mock authorization server's metadata and token endpoint.
 */
export function createMockApi(options: MockApiOptions = {}): MswMockApi {
  const api = createPlainMockApi(options);
  return Object.assign(api, { handlers: createHandlers(api) });
}

/** MSW handlers for a mock made elsewhere, such as the `api` of `startMockServer`. */
export function createHandlers(api: MockApi): HttpHandler[] {
  return [
    http.all(`${api.baseUrl}${API_VERSION_PREFIX}/*`, ({ request }) => api.handle(request)),
    http.get(`${api.baseUrl}${OPENAPI_PATH}`, ({ request }) => api.handle(request)),
    http.get(oauthMetadataUrl(api.oauth.issuer), ({ request }) => api.handle(request)),
    http.post(api.oauth.tokenUrl, ({ request }) => api.handle(request)),
  ];
}

/** Options of {@link fromRecording}. */
export interface RecordingHandlersOptions extends ReplayOptions {
  /**
   * Origins the test's client uses, each answered from the entries recorded at another:
   * `{ 'http://localhost:4010': 'https://api.employee-recognition.example' }`. The recorded
   * origin in those answers (links, an OAuth issuer) becomes the test's.
   */
  origins?: Readonly<Record<string, string>> | undefined;
}

/**
 * MSW handlers that replay a recording (`recorder.har()`, or a HAR file's JSON) at the origins it
 * was recorded from, and those `origins` maps to them: each request gets the recorded answer of
 * its method, path, query and body, repeats in the recorded order. A request to those origins
 * that was not recorded gets a 501 naming the nearest recorded one, or with
 * `onUnrecorded: 'mock'` the stateful mock's answer; an API request to another origin (the
 * production one, by a client without `baseUrl`) a 501 naming the recorded origins. None goes on
 * to the network. Recorded rate-limit headers and `Retry-After` replay as recorded, absolute
 * times (`Date`, `X-RateLimit-Reset`) moved by the time since the recording.
 */
export function fromRecording(input: Har, options: RecordingHandlersOptions = {}): HttpHandler[] {
  const har = readHar(input);
  // The mock answers at the API's origin: the one whose paths carry the version prefix.
  const apiOrigin = har.log.entries.find((entry) =>
    new URL(entry.request.url).pathname.startsWith(`${API_VERSION_PREFIX}/`),
  )?.request.url;
  const fallback =
    options.onUnrecorded === 'mock'
      ? createPlainMockApi(apiOrigin ? { baseUrl: new URL(apiOrigin).origin } : {}).handle
      : undefined;
  const mapped = originsOption(options.origins);
  const replayer = createReplayer(har, { fallback, origins: mapped });
  for (const [origin, recorded] of Object.entries(mapped)) {
    if (!replayer.origins.includes(recorded)) {
      throw new ConfigurationError(
        'origins',
        `\`origins\` maps ${origin} to ${recorded}, which the recording does not hold: it holds ${replayer.origins.join(', ') || 'no origin'}.`,
      );
    }
  }
  const served = new Set([...replayer.origins, ...Object.keys(mapped)]);
  return [
    ...[...served].map((origin) =>
      http.all(`${origin}/*`, ({ request }) => replayer.handle(request)),
    ),
    // Last, so a test's own handlers for other services come first: what is the SDK's elsewhere.
    http.all('*', ({ request }) =>
      isApiRequest(request) ? replayer.elsewhere(request) : undefined,
    ),
  ];
}

// The `origins` option as origins (a path or trailing slash given is not part of one).
function originsOption(origins: Readonly<Record<string, string>> | undefined) {
  const origin = (url: string) => {
    try {
      return new URL(url).origin;
    } catch {
      throw new ConfigurationError(
        'origins',
        `\`origins\` takes absolute URLs, not ${JSON.stringify(url)}.`,
      );
    }
  };
  return Object.fromEntries(
    Object.entries(origins ?? {}).map(([from, to]) => [origin(from), origin(to)]),
  );
}

// A request of the SDK: its user agent, or an API or authorization server path.
function isApiRequest(request: Request): boolean {
  const { pathname } = new URL(request.url);
  return (
    request.headers.get('user-agent')?.startsWith(`${USER_AGENT_PRODUCT}/`) === true ||
    pathname.startsWith(`${API_VERSION_PREFIX}/`) ||
    pathname === OAUTH_TOKEN_PATH ||
    pathname.startsWith(OAUTH_METADATA_PATH)
  );
}
