export { Client } from './client.js';
export type { WebhookEventType } from './contract.js';
export type { RateLimitInfo, WithResponse } from './core/api-promise.js';
export { ApiPromise } from './core/api-promise.js';
export type { ApiKeySource, ClientOptions } from './core/config.js';
export { ConfigurationError } from './core/config.js';
export type { ErrorDetail, ResponseIssue } from './core/errors.js';
export {
  ApiConnectionError,
  ApiError,
  ApiTimeoutError,
  ApiUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  EmployeeRecognitionError,
  InternalServerError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from './core/errors.js';
export type { PageParams, Pagination } from './core/pagination.js';
export { Page, PagePromise } from './core/pagination.js';
export type { RequestOptions } from './core/request.js';
export { Analytics, type AnalyticsSummary } from './resources/analytics.js';
export { type Budget, Budgets } from './resources/budgets.js';
export {
  type Recognition,
  type RecognitionCreateParams,
  type RecognitionListParams,
  Recognitions,
} from './resources/recognitions.js';
export { type Reward, type RewardListParams, Rewards } from './resources/rewards.js';
export { type Team, type TeamListParams, Teams } from './resources/teams.js';
export { type User, type UserListParams, Users } from './resources/users.js';
export {
  type Webhook,
  type WebhookCreateParams,
  Webhooks,
  type WebhookUpdateParams,
  type WebhookWithSecret,
} from './resources/webhooks.js';
export { VERSION } from './version.js';
export {
  type KnownWebhookEvent,
  type TeamMemberEventData,
  type UnknownWebhookEvent,
  type UnknownWebhookEventType,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventDataMap,
  type WebhookEventOf,
  type WebhookPayload,
  type WebhookRequestHeaders,
  WebhookVerificationError,
  type WebhookVerificationErrorReason,
} from './webhooks/index.js';
