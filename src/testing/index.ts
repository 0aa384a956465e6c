/**
 * `@employee-recognition/sdk/testing`: a stateful mock of the whole Employee Recognition API for
 * tests and local development, as MSW handlers, a fetch function or a localhost server.
 *
 * @packageDocumentation
 */

export type { RateLimitTier, Scope } from '../contract.js';
export type { MockKey } from './auth.js';
export type { MockDialect, MockRecordType } from './dialect.js';
export type { FailOptions, FaultRoute, FaultTimes, MockFaults } from './faults.js';
export {
  type Har,
  type HarEntry,
  HarError,
  type HarNameValue,
  type HarPostData,
  type HarProblem,
  type HarText,
  parseHar,
  readHar,
} from './har.js';
export { createMockApi, type MockApi, type MockFetch } from './mock-api.js';
export type { MockIssuedToken, MockOAuth, MockOAuthClient, MockOAuthOptions } from './oauth.js';
export { DEFAULT_REFERENCE_DATE, type MockApiOptions, type MockDeprecation } from './options.js';
export type { MockRateLimitHeaders } from './rate-limit.js';
export type {
  MockBudget,
  MockCollection,
  MockPerson,
  MockRecognition,
  MockRecords,
  MockReward,
  MockStore,
  MockTeam,
  MockUser,
  MockWebhook,
} from './records.js';
export { createRecorder, type Recorder, type RecorderOptions } from './recorder.js';
export { REDACTED, type RedactOptions } from './redact.js';
export type { ReplayOptions } from './replay.js';
export type { RecordedRequest } from './request-log.js';
export { type MockServer, type MockServerOptions, startMockServer } from './server.js';
export type { DeliveryAttempt, MockWebhookEvent, WebhookFetch } from './webhook-delivery.js';
export {
  generateWebhookSecret,
  type SignWebhookOptions,
  signWebhook,
  type WebhookHeaders,
} from './webhook-signer.js';
