export { Client, type ClientOverrides, type RawRequestOptions } from './client.js';
export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './contract.js';
export type { RateLimitFamily, RateLimitInfo, WithResponse } from './core/api-promise.js';
export { ApiPromise } from './core/api-promise.js';
export type {
  ApiKeyContext,
  ApiKeySource,
  AttemptContext,
  ClientOptions,
  DeprecationNotice,
  FetchOptions,
  Hooks,
  Logger,
  LogLevel,
  PacingStore,
  PacingWindow,
  RequestOptions,
  ResponseContext,
  RetryContext,
  SharedRateLimit,
} from './core/config.js';
export { ConfigurationError } from './core/config.js';
export { definePacingStore } from './core/shared-throttle.js';
export type { CallObserver, Instrumentation, SentAttempt, WaitKind } from './core/observer.js';
export type { ApiErrorInit, ErrorDetail, RequestTarget, ResponseIssue } from './core/errors.js';
export {
  ApiConnectionError,
  ApiError,
  ApiTimeoutError,
  ApiUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  EmployeeRecognitionError,
  HookError,
  InternalServerError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseTooLargeError,
  UnprocessableEntityError,
} from './core/errors.js';
export type { PageParams, PageResponse, Pagination } from './core/pagination.js';
export { Page, PagePromise } from './core/pagination.js';
export type { QueryValue } from './internal/exchange.js';
export type { PageBody } from './internal/wire.js';
export type { Scope } from './contract.js';
export type { DataResponse } from './core/resource.js';
export { Analytics, type AnalyticsSummary } from './resources/analytics.js';
export { type Budget, Budgets } from './resources/budgets.js';
export {
  type Recognition,
  type RecognitionCreateParams,
  type RecognitionListParams,
  type RecognitionParticipant,
  Recognitions,
} from './resources/recognitions.js';
export { type Reward, type RewardListParams, Rewards } from './resources/rewards.js';
export { type Team, type TeamListParams, Teams } from './resources/teams.js';
export { type User, type UserListParams, Users } from './resources/users.js';
export {
  type Webhook,
  type EventTypeParam,
  type WebhookCreateParams,
  Webhooks,
  type WebhookUpdateParams,
  type WebhookWithSecret,
} from './resources/webhooks.js';
export { VERSION } from './version.js';
// verifyWebhook and its types live in '@employee-recognition/sdk/webhooks' only: this entry is one
// bundled file whose schemas bundlers cannot drop, so a receiver importing from here would carry
// the whole client (20 kB instead of 2 kB).
