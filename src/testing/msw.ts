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
import { API_VERSION_PREFIX, oauthMetadataUrl } from '../contract.js';
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

/**
 * MSW handlers that replay a recording (`recorder.har()`, or a HAR file's JSON) at the origins it
 * was recorded from: each request gets the recorded answer of its method, path, query and body,
 * repeats in the recorded order. A request to those origins that was not recorded gets a 501
 * naming the nearest recorded one, or with `onUnrecorded: 'mock'` the stateful mock's answer;
 * none goes on to the network. Recorded rate-limit headers and `Retry-After` replay as recorded,
 * absolute times (`Date`, `X-RateLimit-Reset`) moved by the time since the recording.
 */
export function fromRecording(input: Har, options: ReplayOptions = {}): HttpHandler[] {
  const har = readHar(input);
  const origins = [...new Set(har.log.entries.map((entry) => new URL(entry.request.url).origin))];
  // The mock answers at the API's origin: the one whose paths carry the version prefix.
  const apiOrigin = har.log.entries.find((entry) =>
    new URL(entry.request.url).pathname.startsWith(`${API_VERSION_PREFIX}/`),
  )?.request.url;
  const fallback =
    options.onUnrecorded === 'mock'
      ? createPlainMockApi(apiOrigin ? { baseUrl: new URL(apiOrigin).origin } : {}).handle
      : undefined;
  const replayer = createReplayer(har, { fallback });
  return origins.map((origin) =>
    http.all(`${origin}/*`, ({ request }) => replayer.handle(request)),
  );
}
