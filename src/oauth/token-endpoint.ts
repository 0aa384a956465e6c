// The authorization server, spoken to through oauth4webapi: RFC 8414 discovery, the
// client-credentials grant (RFC 6749 §4.4), and its answers turned into the SDK's errors. Every
// request goes through one internal ky configuration (`tokenFetch`), oauth4webapi's customFetch.
import ky, { HTTPError, TimeoutError } from 'ky';
import * as oauth from 'oauth4webapi';
import {
  HEADER_REQUEST_ID,
  OAUTH_DEFAULT_EXPIRES_IN_SECONDS,
  OAUTH_TOKEN_PATH,
  oauthMetadataUrl,
} from '../contract.js';
import type { FetchOptions } from '../core/config.js';
import {
  ApiConnectionError,
  ApiUserAbortError,
  describeUnexpectedBody,
  EmployeeRecognitionError,
  escapeControls,
  excerpt,
  InvalidResponseError,
  OAuthError,
  redactHeaders,
  type RequestTarget,
  ResponseTooLargeError,
} from '../core/errors.js';
import type { Log } from '../core/logger.js';
import { redactCredential, redactShapes } from '../internal/redact.js';
import { retryDelay } from '../core/retry.js';
import { readBody, transferError } from '../core/transfer.js';
import { isLoopbackHost } from '../internal/loopback.js';

/** What the token endpoint is asked, and how: the options of `clientCredentials`, resolved. */
export interface EndpointSettings {
  clientId: string;
  clientSecret: string;
  authMethod: 'client_secret_basic' | 'client_secret_post';
  /** Space-separated scopes, or undefined to ask for the client's default. */
  scope: string | undefined;
  /** Where the token endpoint is: given, or found by discovery below an issuer. */
  server: { tokenUrl: URL } | { issuer: URL };
  timeout: number;
  maxRetries: number;
  maxResponseBytes: number;
  fetch: typeof globalThis.fetch | undefined;
  fetchOptions: FetchOptions | undefined;
  log: Log;
}

/** A token as the token endpoint issued it, with the moment the request left. */
export interface IssuedToken {
  accessToken: string;
  /** The token's life in ms, from `expires_in` (the contract's default when absent). */
  lifetimeMs: number;
  scope: string | undefined;
  /** When the request was sent: the token's life is counted from here, never from its arrival. */
  requestedAt: number;
}

/** Token-endpoint statuses worth another attempt: the server's own transient failures. */
const RETRYABLE_STATUSES = [500, 502, 503, 504];
/** Statuses whose answer has no body, which a `Response` must be built without. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** The authorization server of one `clientCredentials` provider: discovery once, then tokens. */
export class TokenEndpoint {
  readonly #settings: EndpointSettings;
  readonly #client: oauth.Client;
  readonly #authentication: oauth.ClientAuth;
  readonly #fetch: TokenFetch;
  #server: Promise<oauth.AuthorizationServer> | undefined;
  /** Removes the client secret, in every form a request carries it, from text a server wrote. */
  readonly redact: (text: string) => string;

  constructor(settings: EndpointSettings) {
    this.#settings = settings;
    this.#client = { client_id: settings.clientId };
    this.#authentication =
      settings.authMethod === 'client_secret_post'
        ? oauth.ClientSecretPost(settings.clientSecret)
        : oauth.ClientSecretBasic(settings.clientSecret);
    this.redact = secretRedactor(settings.clientId, settings.clientSecret);
    this.#fetch = tokenFetch(settings, this.redact);
  }

  /** One client-credentials grant; every failure is an SDK error that never holds the secret. */
  async requestToken(): Promise<IssuedToken> {
    const server = await this.#authorizationServer();
    const url = new URL(server.token_endpoint!);
    const target = { method: 'POST', url: url.href };
    const parameters = new URLSearchParams();
    if (this.#settings.scope !== undefined) parameters.set('scope', this.#settings.scope);
    const requestedAt = Date.now();
    try {
      const response = await oauth.clientCredentialsGrantRequest(
        server,
        this.#client,
        this.#authentication,
        parameters,
        this.#requestOptions(url),
      );
      const body = await oauth.processClientCredentialsResponse(server, this.#client, response);
      return {
        accessToken: body.access_token,
        lifetimeMs: (body.expires_in ?? OAUTH_DEFAULT_EXPIRES_IN_SECONDS) * 1000,
        scope: body.scope,
        requestedAt,
      };
    } catch (error) {
      throw await toSdkError(error, target, this.redact);
    }
  }

  /** The server's metadata, discovered once and kept; a failed discovery is tried again next time. */
  #authorizationServer(): Promise<oauth.AuthorizationServer> {
    const { server } = this.#settings;
    if ('tokenUrl' in server) {
      return Promise.resolve({
        issuer: server.tokenUrl.href,
        token_endpoint: server.tokenUrl.href,
      });
    }
    this.#server ??= this.#discover(server.issuer).catch((error: unknown) => {
      this.#server = undefined;
      throw error;
    });
    return this.#server;
  }

  /**
   * RFC 8414 discovery. Metadata that cannot be used (missing, not JSON, another issuer, a token
   * endpoint that is not https) is not worth failing for: the contract names the token endpoint,
   * so the provider uses that and says so once. A server that cannot be reached fails the call.
   */
  async #discover(issuer: URL): Promise<oauth.AuthorizationServer> {
    const target = { method: 'GET', url: oauthMetadataUrl(issuer.href) };
    let failure: EmployeeRecognitionError;
    try {
      const response = await oauth.discoveryRequest(issuer, {
        algorithm: 'oauth2',
        ...this.#requestOptions(issuer),
      });
      const server = await oauth.processDiscoveryResponse(issuer, response);
      const tokenUrl = parseUrl(server.token_endpoint);
      if (tokenUrl !== undefined && (tokenUrl.protocol === 'https:' || isLoopbackHttp(tokenUrl))) {
        return { ...server, token_endpoint: tokenUrl.href };
      }
      failure = new InvalidResponseError({
        message: `The authorization server's metadata at ${target.url} names no https token_endpoint.`,
        status: response.status,
        requestId: response.headers.get(HEADER_REQUEST_ID) ?? undefined,
        issues: [{ path: 'token_endpoint', message: 'must be an https URL' }],
      });
    } catch (error) {
      failure = await toSdkError(error, target, this.redact);
      if (isUnreachable(failure)) throw failure;
    }
    const fallback = new URL(issuer.href.replace(/\/$/, '') + OAUTH_TOKEN_PATH).href;
    this.#settings.log.warn(
      `Discovery failed, so tokens are requested from ${fallback}, the contract's token endpoint: ${failure.message}`,
    );
    return { issuer: issuer.href, token_endpoint: fallback };
  }

  #requestOptions(url: URL) {
    return {
      [oauth.customFetch]: this.#fetch,
      // oauth4webapi refuses http://; a server on this machine (tests, local development) has no TLS.
      [oauth.allowInsecureRequests]: isLoopbackHttp(url),
    };
  }
}

/** Plain http is allowed only to this machine: a loopback address or `localhost`. */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

function parseUrl(value: unknown): URL | undefined {
  try {
    return typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    return undefined;
  }
}

/** A failure to reach the server at all, as opposed to an answer the SDK cannot use. */
function isUnreachable(error: EmployeeRecognitionError): boolean {
  return (
    (error instanceof ApiConnectionError && !(error instanceof ResponseTooLargeError)) ||
    error instanceof ApiUserAbortError
  );
}

/** oauth4webapi's customFetch: what it sends, and the answer it may read. */
type TokenFetch = (
  url: string,
  init: oauth.CustomFetchOptions<string, URLSearchParams | undefined>,
) => Promise<Response>;

/**
 * The internal ky configuration of every request to the authorization server: the timeout,
 * retries on 5xx and connection errors, and the body read under its cap. Nothing else: no API
 * credential, no pacing, no Idempotency-Key, and no customer hook, which would see the Basic
 * header that holds the client secret. The answer is handed to oauth4webapi whole, already read.
 */
function tokenFetch(settings: EndpointSettings, redact: (text: string) => string): TokenFetch {
  const { log, timeout, maxRetries } = settings;
  const http = ky.create({
    // Looked up at each request, so a fetch patched later (MSW, a test) is the one used.
    fetch: settings.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeout,
    throwHttpErrors: (status) => RETRYABLE_STATUSES.includes(status),
    retry: {
      limit: maxRetries,
      // A client-credentials grant changes nothing on the server: sending it again is safe.
      methods: ['get', 'post'],
      statusCodes: RETRYABLE_STATUSES,
      afterStatusCodes: [503],
      retryOnTimeout: true,
      delay: (attempt) => retryDelay(attempt, undefined).ms,
    },
    hooks: {
      afterResponse: [
        (request, _options, response, { retryCount }) => {
          log.debug(
            `${request.method} ${request.url} -> ${response.status} (attempt ${retryCount + 1})`,
          );
        },
      ],
      beforeRetry: [
        ({ request, error, retryCount }) => {
          log.info(
            `retry ${retryCount} of ${maxRetries} of ${request.method} ${request.url} after ${retryCause(error)}`,
          );
        },
      ],
    },
  });
  return async (url, init) => {
    const target = { method: init.method, url };
    let response: Response;
    try {
      response = await http(url, {
        ...settings.fetchOptions,
        method: init.method,
        headers: init.headers,
        body: init.body,
        redirect: init.redirect,
      });
    } catch (error) {
      if (!(error instanceof HTTPError)) throw transferError(error, { target, timeout, redact });
      // A 5xx after the last retry: oauth4webapi reads it as an error answer.
      response = error.response;
    }
    if (response.status < 200) {
      throw new ApiConnectionError(
        target,
        `Connection error: ${target.method} ${url}: the server answered with a redirect the SDK does not follow.`,
      );
    }
    let body: string;
    try {
      body = await readBody(response, { target, maxBytes: settings.maxResponseBytes, timeout });
    } catch (error) {
      throw transferError(error, { target, timeout, redact });
    }
    return new Response(NULL_BODY_STATUSES.has(response.status) ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function retryCause(error: Error): string {
  if (error instanceof HTTPError) return `status ${error.response.status}`;
  return error instanceof TimeoutError ? 'timeout' : 'connection error';
}

/** An OAuth error body (RFC 6749 §5.2), or undefined when the text is not one. */
function parseOAuthError(text: string): { error: string; description?: string } | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const { error, error_description: description } = (body ?? {}) as Record<string, unknown>;
  if (typeof error !== 'string' || error === '') return undefined;
  return typeof description === 'string' ? { error, description } : { error };
}

/**
 * What oauth4webapi threw, as the SDK's error: an answer other than 200 is an OAuthError naming
 * the OAuth `error`; a 200 it cannot use is an InvalidResponseError. oauth4webapi's own errors
 * keep the body they refused (an access token among it) in `cause`, so none is passed on.
 */
async function toSdkError(
  error: unknown,
  target: RequestTarget,
  redact: (text: string) => string,
): Promise<EmployeeRecognitionError> {
  if (error instanceof EmployeeRecognitionError) return error;
  const response = answerOf(error);
  if (response !== undefined && response.status !== 200) {
    return refusal(response, error, target, redact);
  }
  const reason = error instanceof Error ? error.message : String(error);
  if (
    error instanceof oauth.OperationProcessingError ||
    error instanceof oauth.UnsupportedOperationError
  ) {
    return new InvalidResponseError({
      message: `The authorization server's answer to ${target.method} ${target.url} cannot be used: ${reason}`,
      status: response?.status ?? 200,
      requestId: response?.headers.get(HEADER_REQUEST_ID) ?? undefined,
      issues: [{ path: '', message: reason }],
    });
  }
  return new EmployeeRecognitionError(`${target.method} ${target.url} failed: ${redact(reason)}`);
}

/** The answer an oauth4webapi error is about, where it keeps one. */
function answerOf(error: unknown): Response | undefined {
  if (error instanceof oauth.ResponseBodyError) return error.response;
  if (error instanceof oauth.WWWAuthenticateChallengeError) return error.response;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause instanceof Response ? cause : undefined;
}

async function refusal(
  response: Response,
  error: unknown,
  target: RequestTarget,
  redact: (text: string) => string,
): Promise<OAuthError> {
  const text = response.bodyUsed ? '' : await response.text().catch(() => '');
  const challenge =
    error instanceof oauth.WWWAuthenticateChallengeError
      ? error.cause.find((each) => each.parameters.error !== undefined)?.parameters
      : undefined;
  const body =
    error instanceof oauth.ResponseBodyError
      ? { error: error.error, description: error.error_description }
      : (parseOAuthError(text) ??
        (challenge?.error === undefined
          ? undefined
          : { error: challenge.error, description: challenge.error_description }));
  const clean = (value: string) => excerpt(escapeControls(redact(value)));
  const headers = redactHeaders(response.headers, redact);
  return new OAuthError({
    ...target,
    status: response.status,
    code: body === undefined ? `http_${response.status}` : clean(body.error),
    message: clean(
      body === undefined
        ? describeUnexpectedBody(response, text)
        : `The authorization server refused the token request${body.description ? `: ${body.description}` : ''}`,
    ),
    headers,
    requestId: headers.get(HEADER_REQUEST_ID) ?? undefined,
  });
}

/**
 * Removes the client secret from text a server wrote, in each form requests carry it: raw,
 * form-encoded in a `client_secret_post` body, and inside the Basic credential, as oauth4webapi
 * builds them, each also percent-encoded once or twice (echoed into a URL); then every API key,
 * webhook secret and bearer or Basic credential, whoever's.
 */
function secretRedactor(clientId: string, clientSecret: string): (text: string) => string {
  const server = { issuer: 'https://issuer.invalid' };
  const headers = new Headers();
  const body = new URLSearchParams();
  void oauth.ClientSecretBasic(clientSecret)(server, { client_id: clientId }, body, headers);
  void oauth.ClientSecretPost(clientSecret)(server, { client_id: clientId }, body, headers);
  // Basic's base64 of `id:secret`, without its padding, which a server may drop; the form body's
  // field (a space as `+`); percent-encoded and JSON-escaped forms are redactCredential's.
  const basic = headers.get('authorization')!.slice('Basic '.length).replace(/=+$/, '');
  const posted = /client_secret=([^&]*)/.exec(body.toString())![1]!;
  // A secret of a few characters would redact ordinary words, and is no secret anyway.
  const secrets = [basic, posted, clientSecret].filter((form) => form.length >= 4);
  return (text) => {
    let clean = text;
    for (const secret of secrets) clean = redactCredential(clean, secret);
    return redactShapes(clean).replace(/(Basic(?: |%20|\+))[A-Za-z0-9+/=%]+/gi, '$1[redacted]');
  };
}
