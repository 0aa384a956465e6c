/**
 * Verifying webhook deliveries (Standard Webhooks) and their typed events. Import from
 * `@employee-recognition/sdk/webhooks`; this entry carries no validation library.
 *
 * @module
 */
export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../contract.js';
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
export type { WebhookRequestHeaders } from './headers.js';
export type { WebhookPayload } from './payload.js';
export type { Budget, Recognition, RecognitionParticipant, Reward, Team, User } from './records.js';
export { type VerifyWebhookOptions, verifyWebhook } from './verify.js';
