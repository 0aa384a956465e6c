/**
 * Receiving webhook deliveries (Standard Webhooks): the receiver and its Fetch and Node adapters,
 * the `verifyWebhook` primitive, the typed events, and the subscriptions as code that keep the
 * service's webhook in step with a receiver's handlers (`syncWebhooks`, `rotateWebhookSecret`). Import from
 * `@employee-recognition/sdk/webhooks`; this entry carries no validation library, and an app that
 * only verifies carries no receiver.
 *
 * @module
 */
export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../contract.js';
// The records are the API's own types. `export type` is erased at build time, so a receiver's
// bundle carries no schema or validation code from src/resources.
export type { Budget } from '../resources/budgets.js';
export type { Recognition, RecognitionParticipant } from '../resources/recognitions.js';
export type { Reward } from '../resources/rewards.js';
export type { Team } from '../resources/teams.js';
export type { User } from '../resources/users.js';
export type { Logger, LogLevel } from '../core/config.js';
export {
  MemoryDedupeStore,
  type MemoryDedupeStoreOptions,
  type WebhookClaim,
  type WebhookDedupeStore,
} from './dedupe.js';
export {
  WebhookHandlerError,
  WebhookVerificationError,
  type WebhookVerificationErrorReason,
} from './errors.js';
export type {
  KnownWebhookEvent,
  TeamMemberEventData,
  UnknownWebhookEvent,
  UnknownWebhookEventType,
  WebhookEvent,
  WebhookEventDataMap,
  WebhookEventOf,
} from './events.js';
export {
  createNodeMiddleware,
  createWebMiddleware,
  type ExecutionContextLike,
  type MiddlewareOptions,
  type NodeMiddlewareOptions,
  type NodeRequestLike,
  type NodeResponseLike,
  type WebhookFetchHandler,
  type WebhookNodeHandler,
  type WebMiddlewareOptions,
} from './middleware.js';
export {
  createWebhookReceiver,
  type DeliveryObserver,
  type WebhookContext,
  type WebhookDedupeOptions,
  type WebhookErrorHandler,
  type WebhookEventFor,
  type WebhookEventGroup,
  type WebhookEventName,
  type WebhookHandler,
  type WebhookInstrumentation,
  type WebhookReceiveOptions,
  type WebhookReceipt,
  type WebhookReceiver,
  type WebhookReceiverOptions,
  type WebhookSecret,
  type WebhookSecretOption,
} from './receiver.js';
export {
  rotateWebhookSecret,
  type RotateWebhookSecretOptions,
  syncWebhooks,
  type SyncWebhooksOptions,
  type WebhookRotationResult,
  type WebhookSyncClient,
  WebhookSyncError,
  type WebhookSyncErrorReason,
  type WebhookSyncResult,
  type WebhookSyncStep,
} from './sync.js';
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookPayload,
  type WebhookRequestHeaders,
} from './verify.js';
