/**
 * The SDK's assumptions about the service, in one place.
 *
 * The service description leaves these open; `shared/api-contract.md` decides them. When the real
 * service differs, this file (and the record schemas in `src/resources/`) is what changes.
 * docs/assumptions.md lists each decision with a pointer back here.
 */

/** Default API address (contract §1). */
export const DEFAULT_BASE_URL = 'https://api.employee-recognition.example';
/** Every path starts with this version prefix (contract §1). */
export const API_VERSION_PREFIX = '/v1';

/**
 * The 18 operations (contract §4): the SDK's name for each, with its HTTP method and path
 * template (OpenTelemetry's `url.template`). A resource method names its operation when it is
 * called, so what observes a call (a span, a deprecation warning) knows it before anything is sent.
 */
export const OPERATIONS = {
  'recognitions.list': 'GET /v1/recognitions',
  'recognitions.get': 'GET /v1/recognitions/{id}',
  'recognitions.create': 'POST /v1/recognitions',
  'recognitions.delete': 'DELETE /v1/recognitions/{id}',
  'users.list': 'GET /v1/users',
  'users.get': 'GET /v1/users/{id}',
  'rewards.list': 'GET /v1/rewards',
  'rewards.get': 'GET /v1/rewards/{id}',
  'teams.list': 'GET /v1/teams',
  'teams.get': 'GET /v1/teams/{id}',
  'webhooks.list': 'GET /v1/webhooks',
  'webhooks.get': 'GET /v1/webhooks/{id}',
  'webhooks.create': 'POST /v1/webhooks',
  'webhooks.update': 'PATCH /v1/webhooks/{id}',
  'webhooks.delete': 'DELETE /v1/webhooks/{id}',
  'budgets.list': 'GET /v1/budgets',
  'budgets.get': 'GET /v1/budgets/{id}',
  'analytics.summary': 'GET /v1/analytics/summary',
} as const;
/**
 * An operation's name, as the client's namespaces and methods spell it (`users.get`).
 *
 * @inline
 */
export type OperationName = keyof typeof OPERATIONS;

/** Environment variables read where `process.env` exists (contract §1, §2). */
export const ENV_API_KEY = 'RECOGNITION_API_KEY';
export const ENV_BASE_URL = 'RECOGNITION_BASE_URL';
/** Sets the client's `logLevel` where no option does. */
export const ENV_LOG_LEVEL = 'RECOGNITION_LOG';
export const ENV_WEBHOOK_SECRET = 'RECOGNITION_WEBHOOK_SECRET';
/** The file `@employee-recognition/sdk/record` writes its HAR to. */
export const ENV_RECORD = 'RECOGNITION_RECORD';
/** More addresses it records requests to, comma-separated, beside the base and auth URLs. */
export const ENV_RECORD_URLS = 'RECOGNITION_RECORD_URLS';
/**
 * The product of the `User-Agent` the client sends in Node (`<product>/<version> node/<version>`):
 * how the recording preload knows the SDK's requests among an app's.
 */
export const USER_AGENT_PRODUCT = 'employee-recognition-sdk-typescript';

/** API keys: `rk_live_` or `rk_test_` then at least 24 alphanumerics (contract §2). */
export const API_KEY_PATTERN = /^rk_(?:live|test)_[A-Za-z0-9]{24,}$/;
/** What marks a credential as an API key rather than an OAuth token. */
export const API_KEY_PREFIX_PATTERN = /^rk_(?:live|test)_/;

/** The authorization server of OAuth 2.0 tokens, where no option or variable names one (contract §2). */
export const DEFAULT_AUTH_URL = 'https://auth.employee-recognition.example';
/** Names the authorization server where `process.env` exists (contract §2). */
export const ENV_AUTH_URL = 'RECOGNITION_AUTH_URL';
/** RFC 8414 metadata, below the authorization server's address (contract §2). */
export const OAUTH_METADATA_PATH = '/.well-known/oauth-authorization-server';
/** Where an issuer's RFC 8414 metadata is: the well-known path, then the issuer's own path. */
export function oauthMetadataUrl(issuer: string): string {
  const { origin, pathname } = new URL(issuer);
  return `${origin}${OAUTH_METADATA_PATH}${pathname === '/' ? '' : pathname.replace(/\/$/, '')}`;
}
/** The token endpoint below the authorization server's address, where its metadata names none (contract §2). */
export const OAUTH_TOKEN_PATH = '/oauth/token';
/** OAuth client ids: `rc_` then at least 16 alphanumerics (contract §2). */
export const OAUTH_CLIENT_ID_PATTERN = /^rc_[A-Za-z0-9]{16,}$/;
/** A token's life when the token endpoint's answer gives no `expires_in` (contract §2). */
export const OAUTH_DEFAULT_EXPIRES_IN_SECONDS = 3600;

/** Response and request headers (contract §1, §7, §8). */
export const HEADER_REQUEST_ID = 'x-request-id';
export const HEADER_IDEMPOTENCY_KEY = 'idempotency-key';
export const HEADER_RETRY_AFTER = 'retry-after';
export const HEADER_RATE_LIMIT_LIMIT = 'x-ratelimit-limit';
export const HEADER_RATE_LIMIT_REMAINING = 'x-ratelimit-remaining';
export const HEADER_RATE_LIMIT_RESET = 'x-ratelimit-reset';
/**
 * Deprecation notices: the contract defines none, so the SDK reads the standard headers on every
 * answer (docs/assumptions.md): `Deprecation` (RFC 9745, `@<seconds>`, or the older `true`),
 * `Sunset` (RFC 8594, an HTTP-date) and `Link` (RFC 8288) with `rel="deprecation"` or
 * `rel="sunset"`.
 */
export const HEADER_DEPRECATION = 'deprecation';
export const HEADER_SUNSET = 'sunset';
export const HEADER_LINK = 'link';

/** Error codes by status (contract §6). Codes may gain values; clients keep any string. */
export const ERROR_CODES = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'insufficient_scope',
  404: 'not_found',
  409: 'conflict',
  422: 'validation_error',
  429: 'rate_limited',
  500: 'internal_error',
  503: 'unavailable',
} as const;

/** Paging bounds (contract §4, §5). */
export const PAGE_LIMIT_MIN = 1;
export const PAGE_LIMIT_MAX = 100;
export const PAGE_LIMIT_DEFAULT = 20;

/** Input bounds (contract §4). */
export const MESSAGE_MAX_LENGTH = 500;
export const POINTS_MAX = 1000;
export const PERIOD_MAX_DAYS = 365;
export const DEFAULT_PERIOD = '30d';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** How long the service answers a repeated Idempotency-Key with the first answer (contract §8). */
export const IDEMPOTENCY_WINDOW_MS = 86_400_000; // 24 h: a literal, which bundlers drop where it is unused

/** A rate-limit tier: the requests per minute a key may make (contract §7). */
export type RateLimitTier = 10 | 100 | 1000;
/** The tier of the default key (contract §7). */
export const DEFAULT_RATE_LIMIT_TIER = 100;

/** Webhook deliveries follow Standard Webhooks (contract §9). */
export const WEBHOOK_HEADER_ID = 'webhook-id';
export const WEBHOOK_HEADER_TIMESTAMP = 'webhook-timestamp';
export const WEBHOOK_HEADER_SIGNATURE = 'webhook-signature';
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SIGNATURE_VERSION = 'v1';
/** Receivers reject timestamps further than this from their clock, in seconds. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** Seconds after a failed delivery at which the service tries again; 8 attempts in all. */
export const WEBHOOK_RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000] as const;
/** A delivery that gets no 2xx answer within this many ms has failed. */
export const WEBHOOK_DELIVERY_TIMEOUT_MS = 15_000;

/**
 * The 18 event types this SDK version knows, by group (contract §9): the values of
 * {@link WebhookEventType}. The service may add types later; those still verify.
 */
export const WEBHOOK_EVENT_TYPES = [
  'recognition.created',
  'recognition.updated',
  'recognition.deleted',
  'user.created',
  'user.updated',
  'user.deactivated',
  'reward.created',
  'reward.updated',
  'reward.deleted',
  'reward.redeemed',
  'team.created',
  'team.updated',
  'team.deleted',
  'team.member_added',
  'team.member_removed',
  'budget.created',
  'budget.updated',
  'budget.depleted',
] as const;
/** One of the 18 event types a webhook can subscribe to and receive. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Scopes by operation group (contract §2). */
export const SCOPES = [
  'recognitions:read',
  'recognitions:write',
  'users:read',
  'rewards:read',
  'teams:read',
  'webhooks:read',
  'webhooks:write',
  'budgets:read',
  'analytics:read',
] as const;
/** A permission an API key or token carries, named `resource:action`. */
export type Scope = (typeof SCOPES)[number];
