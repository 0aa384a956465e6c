export { Client } from './client.js';
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
export { VERSION } from './version.js';
