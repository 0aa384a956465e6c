// The mock's authorization server (contract §2): RFC 8414 metadata, a client-credentials token
// endpoint (RFC 6749 §4.4, errors as §5.2), and the tokens it issued, which the API accepts with
// their scopes until they expire or are revoked.
import {
  DEFAULT_RATE_LIMIT_TIER,
  HEADER_REQUEST_ID,
  OAUTH_CLIENT_ID_PATTERN,
  OAUTH_DEFAULT_EXPIRES_IN_SECONDS,
  OAUTH_TOKEN_PATH,
  oauthMetadataUrl,
  type RateLimitTier,
  SCOPES,
  type Scope,
} from '../contract.js';
import { normalizeBaseUrl } from '../core/config.js';
import type { Caller } from './operation.js';
import { createRandom } from './random.js';

/** An OAuth client the mock's token endpoint knows. */
export interface MockOAuthClient {
  /** `rc_` and at least 16 letters or digits. */
  clientId: string;
  /** The secret it authenticates with at the token endpoint. */
  clientSecret: string;
  /** The scopes its tokens may carry; `'*'` (the default) grants all. A request without `scope` gets all it may carry. */
  scopes?: readonly Scope[] | '*' | undefined;
  /** Requests per rate-limit window of its tokens, shared by all of them: 10, 100 (the default) or 1000. */
  rateLimit?: RateLimitTier | undefined;
  /** The user who sends recognitions created with its tokens; default the store's first user. */
  userId?: string | undefined;
}

/** Options of the mock's authorization server: the `oauth` option of `createMockApi`. */
export interface MockOAuthOptions {
  /** Its address: metadata and `/oauth/token` are served below it. Default the mock's `baseUrl`. */
  issuer?: string | undefined;
  /** The clients it knows. Default one with every scope, `api.oauth.testClient`. */
  clients?: readonly MockOAuthClient[] | undefined;
  /** How long its tokens live, in seconds. Default 3600, the contract's. */
  tokenLifetimeSeconds?: number | undefined;
}

/** A token the mock issued. */
export interface MockIssuedToken {
  /** The token, as the API accepts it in `Authorization: Bearer`. */
  readonly accessToken: string;
  /** The client it was issued to. */
  readonly clientId: string;
  /** The scopes it grants. */
  readonly scopes: readonly Scope[];
  /** The mock's clock when it was issued, in ms. */
  readonly issuedAt: number;
  /** From then on the API refuses it with 401. */
  readonly expiresAt: number;
  /** Whether {@link MockOAuth.revoke} was called for it. */
  readonly revoked: boolean;
}

/** The mock's authorization server, as tests see it. */
export interface MockOAuth {
  /** Pass it as `issuer` to `clientCredentials()`. */
  readonly issuer: string;
  /** The token endpoint, `{issuer}/oauth/token`. */
  readonly tokenUrl: string;
  /** The first client of the `clients` option: by default one with every scope. */
  readonly testClient: {
    /** Its client id, for `clientCredentials({ clientId })`. */
    readonly clientId: string;
    /** Its secret, for `clientCredentials({ clientSecret })`. */
    readonly clientSecret: string;
  };
  /** Every token issued, oldest first. */
  readonly tokens: readonly MockIssuedToken[];
  /** Makes the API refuse a token with 401 before it expires, as the service does a revoked one. */
  revoke(accessToken: string): void;
}

/** The options with their defaults applied. */
export interface ResolvedOAuthOptions {
  issuer: string;
  clients: readonly (MockOAuthClient & Required<Pick<MockOAuthClient, 'scopes' | 'rateLimit'>>)[];
  tokenLifetimeSeconds: number;
}

// Streams of their own, so the test client and tokens stay put when the seeded data changes.
const CLIENT_STREAM = 0x636c69;
const TOKEN_STREAM = 0x746f6b;
const TOKEN_LENGTH = 48;
const FORM = 'application/x-www-form-urlencoded';

/** Applies the defaults of the `oauth` option and rejects what cannot work. */
export function resolveOAuthOptions(
  options: MockOAuthOptions = {},
  baseUrl: string,
  seed: number,
): ResolvedOAuthOptions {
  const lifetime = options.tokenLifetimeSeconds ?? OAUTH_DEFAULT_EXPIRES_IN_SECONDS;
  if (!Number.isSafeInteger(lifetime) || lifetime < 1) {
    throw new RangeError('oauth.tokenLifetimeSeconds must be a whole number of seconds, 1 or more');
  }
  if (options.clients?.length === 0) throw new TypeError('oauth.clients must hold a client');
  const random = createRandom(seed ^ CLIENT_STREAM);
  const clients = (
    options.clients ?? [
      { clientId: `rc_${random.alphanumeric(24)}`, clientSecret: random.alphanumeric(40) },
    ]
  ).map((client) => {
    if (!OAUTH_CLIENT_ID_PATTERN.test(client.clientId)) {
      throw new TypeError('oauth.clients: a clientId is rc_ and at least 16 letters or digits');
    }
    if (typeof client.clientSecret !== 'string' || client.clientSecret === '') {
      throw new TypeError('oauth.clients: a clientSecret is a non-empty string');
    }
    return {
      ...client,
      scopes: client.scopes ?? '*',
      rateLimit: client.rateLimit ?? (DEFAULT_RATE_LIMIT_TIER as RateLimitTier),
    };
  });
  return {
    issuer: normalizeBaseUrl(options.issuer ?? baseUrl),
    clients,
    tokenLifetimeSeconds: lifetime,
  };
}

/** The mock's authorization server: what tests see, and what the request pipeline asks of it. */
export function createOAuthServer(
  options: ResolvedOAuthOptions,
  seed: number,
  now: () => number,
): MockOAuth & {
  /** The metadata address, for the MSW handler. */
  readonly metadataUrl: string;
  /** Whether a request to `url` is the authorization server's rather than the API's. */
  serves(url: URL): boolean;
  /** Answers a metadata or token request; `body` is the request's text. */
  handle(request: Request, body: string, requestId: string): Response;
  /** The caller a bearer token stands for, while it is valid. */
  identify(accessToken: string): Caller | undefined;
  reset(): void;
} {
  const { issuer, clients, tokenLifetimeSeconds } = options;
  const tokenUrl = `${issuer}${OAUTH_TOKEN_PATH}`;
  const metadataUrl = oauthMetadataUrl(issuer);
  const tokens: (MockIssuedToken & { revoked: boolean })[] = [];
  const byToken = new Map<string, (typeof tokens)[number]>();
  let random = createRandom(seed ^ TOKEN_STREAM);

  const metadata = () => ({
    issuer,
    token_endpoint: tokenUrl,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    scopes_supported: SCOPES,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
  });

  const token = (request: Request, body: string): { status: number; body: object } => {
    const form = new URLSearchParams(
      (request.headers.get('content-type') ?? '').startsWith(FORM) ? body : '',
    );
    const basic = basicCredentials(request.headers.get('authorization'));
    if (basic === null) return refuse(400, 'invalid_request', 'Malformed Basic credentials.');
    if (basic && form.has('client_secret')) {
      return refuse(400, 'invalid_request', 'Use one way of client authentication, not two.');
    }
    const [clientId, clientSecret] = basic ?? [form.get('client_id'), form.get('client_secret')];
    const client = clients.find((each) => each.clientId === clientId);
    if (!client || client.clientSecret !== clientSecret) {
      return refuse(401, 'invalid_client', 'Client authentication failed.');
    }
    const grant = form.get('grant_type');
    if (grant === null) return refuse(400, 'invalid_request', 'grant_type is required.');
    if (grant !== 'client_credentials') {
      return refuse(400, 'unsupported_grant_type', 'Only client_credentials is supported.');
    }
    const allowed: readonly Scope[] = client.scopes === '*' ? SCOPES : client.scopes;
    const asked = (form.get('scope') ?? '').split(' ').filter(Boolean);
    const denied = asked.filter((scope) => !allowed.includes(scope as Scope));
    if (denied.length) {
      return refuse(400, 'invalid_scope', `Not granted to this client: ${denied.join(' ')}.`);
    }
    const scopes = asked.length ? (asked as Scope[]) : [...allowed];
    const issuedAt = now();
    const issued = {
      accessToken: random.alphanumeric(TOKEN_LENGTH),
      clientId: client.clientId,
      scopes,
      issuedAt,
      expiresAt: issuedAt + tokenLifetimeSeconds * 1000,
      revoked: false,
    };
    tokens.push(issued);
    byToken.set(issued.accessToken, issued);
    return {
      status: 200,
      body: {
        access_token: issued.accessToken,
        token_type: 'Bearer',
        expires_in: tokenLifetimeSeconds,
        scope: scopes.join(' '),
      },
    };
  };

  return {
    issuer,
    tokenUrl,
    metadataUrl,
    testClient: { clientId: clients[0]!.clientId, clientSecret: clients[0]!.clientSecret },
    tokens,
    revoke(accessToken) {
      const issued = byToken.get(accessToken);
      if (issued === undefined) throw new TypeError('This mock issued no such token');
      issued.revoked = true;
    },
    serves: (url) => {
      const address = `${url.origin}${url.pathname}`;
      return address === tokenUrl || address === metadataUrl;
    },
    handle(request, body, requestId) {
      const url = new URL(request.url);
      const isToken = `${url.origin}${url.pathname}` === tokenUrl;
      const answer =
        request.method === (isToken ? 'POST' : 'GET')
          ? isToken
            ? token(request, body)
            : { status: 200, body: metadata() }
          : refuse(405, 'invalid_request', `${request.method} is not allowed here.`);
      return Response.json(answer.body, {
        status: answer.status,
        headers: {
          [HEADER_REQUEST_ID]: requestId,
          // RFC 6749 §5.1: token answers are never cached.
          ...(isToken ? { 'cache-control': 'no-store', pragma: 'no-cache' } : {}),
          ...(answer.status === 401 && request.headers.has('authorization')
            ? { 'www-authenticate': `Basic realm="${issuer}"` }
            : {}),
        },
      });
    },
    identify(accessToken) {
      const issued = byToken.get(accessToken);
      if (issued === undefined || issued.revoked || now() >= issued.expiresAt) return undefined;
      const client = clients.find((each) => each.clientId === issued.clientId)!;
      return {
        // The client, not the token: its tokens share one rate limit and one idempotency scope.
        credential: `oauth-client:${client.clientId}`,
        scopes: new Set(issued.scopes),
        rateLimit: client.rateLimit,
        userId: client.userId,
      };
    },
    reset() {
      tokens.length = 0;
      byToken.clear();
      random = createRandom(seed ^ TOKEN_STREAM);
    },
  };
}

function refuse(status: number, error: string, description: string) {
  return { status, body: { error, error_description: description } };
}

/**
 * The id and secret of a `client_secret_basic` header, form-decoded (RFC 6749 §2.3.1): undefined
 * when there is no Basic header, null when it cannot be read.
 */
function basicCredentials(authorization: string | null): [string, string] | null | undefined {
  const encoded = /^Basic +(\S+)$/i.exec(authorization ?? '')?.[1];
  if (encoded === undefined) return undefined;
  try {
    const text = atob(encoded);
    const colon = text.indexOf(':');
    if (colon === -1) return null;
    const decode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));
    return [decode(text.slice(0, colon)), decode(text.slice(colon + 1))];
  } catch {
    return null;
  }
}
