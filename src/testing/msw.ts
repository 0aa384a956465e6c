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
import { type MockApi, createMockApi as createPlainMockApi, OPENAPI_PATH } from './mock-api.js';
import type { MockApiOptions } from './options.js';

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
