/**
 * Verifying webhook deliveries (Standard Webhooks) and their typed events. Import from
 * `@employee-recognition/sdk/webhooks`; this entry carries no validation library.
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
export { WebhookVerificationError, type WebhookVerificationErrorReason } from './errors.js';
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
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookPayload,
  type WebhookRequestHeaders,
} from './verify.js';
