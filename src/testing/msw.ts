import { type HttpHandler, http } from 'msw';
import { API_VERSION_PREFIX } from '../contract.js';

/**
 * MSW handlers that pass every request below `${baseUrl}/v1/` to `handle`. The only module
 * that imports msw.
 */
export function createHandlers(
  baseUrl: string,
  handle: (request: Request) => Promise<Response>,
): HttpHandler[] {
  return [http.all(`${baseUrl}${API_VERSION_PREFIX}/*`, ({ request }) => handle(request))];
}
