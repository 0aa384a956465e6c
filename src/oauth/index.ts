/**
 * `@employee-recognition/sdk/oauth`: OAuth 2.0 client-credentials tokens for server apps, fetched,
 * cached and refreshed for `new Client({ apiKey: clientCredentials({ clientId, clientSecret }) })`.
 * A subpath of its own, so apps that authenticate with an API key never load the OAuth library.
 *
 * @packageDocumentation
 */

export {
  type CachedToken,
  type ClientCredentials,
  clientCredentials,
  type ClientCredentialsOptions,
  type TokenCache,
} from './client-credentials.js';
export { OAuthError } from '../core/errors.js';
export type { Scope } from '../contract.js';
