import { ERROR_CODES } from '../contract.js';

/** Base class of every error the SDK throws, so one `catch` with `instanceof` can serve them all. */
export class EmployeeRecognitionError extends Error {
  /** The class name, `'EmployeeRecognitionError'`, as stack traces and logs show it. */
  override name = 'EmployeeRecognitionError';
}

/** One field-level problem, as the service's error body lists them under `details`. */
export interface ErrorDetail {
  /** The input field at fault, such as `recipient_id`. */
  field: string;
  /** What is wrong with it, such as `must be a UUID`. */
  message: string;
}

/**
 * Everything an {@link ApiError} is made from: the SDK builds it from the service's error answer,
 * and tests can pass one to construct an error of their own, such as
 * `new NotFoundError({ status: 404, message: 'Recognition not found' })`.
 */
export interface ApiErrorInit {
  /** HTTP status of the answer, such as 404. */
  status: number;
  /** The error body's human-readable message; becomes the error's `message`. */
  message: string;
  /**
   * Machine-readable code from the error body, such as `not_found`; by default the contract's
   * code for `status` (`http_<status>` for a status it does not list). Codes may gain values.
   */
  code?: string | undefined;
  /** The answer's `X-Request-Id`, if any. */
  requestId?: string | undefined;
  /** Headers of the answer; by default empty. */
  headers?: Headers | undefined;
  /** Field-level problems from the error body's `details`, if any. */
  details?: ErrorDetail[] | undefined;
  /** True when the SDK raised the error itself, before sending anything; by default false. */
  local?: boolean | undefined;
}

/**
 * The service answered with a non-2xx status (or, for `local` errors, would have: the SDK found
 * the input invalid before sending it).
 */
export class ApiError extends EmployeeRecognitionError {
  /** The class name, `'ApiError'`, as stack traces and logs show it. */
  override name = 'ApiError';
  /** HTTP status of the answer. */
  readonly status: number;
  /** Machine-readable code from the error body, such as `validation_error`. */
  readonly code: string;
  /** The `X-Request-Id` of the answer: quote it when contacting support. */
  readonly requestId: string | undefined;
  /** Headers of the answer (empty for local errors). */
  readonly headers: Headers;
  /** Field-level problems, where the error body lists them. */
  readonly details: ErrorDetail[] | undefined;
  /** True when the SDK raised this error itself, before any request left. */
  readonly local: boolean;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code ?? defaultCode(init.status);
    this.requestId = init.requestId;
    this.headers = init.headers ?? new Headers();
    this.details = init.details;
    this.local = init.local ?? false;
  }
}

/** 400: the request's parameters were invalid. */
export class BadRequestError extends ApiError {
  /** The class name, `'BadRequestError'`, as stack traces and logs show it. */
  override name = 'BadRequestError';
}
/** 401: the credential is missing, malformed, unknown or expired. */
export class AuthenticationError extends ApiError {
  /** The class name, `'AuthenticationError'`, as stack traces and logs show it. */
  override name = 'AuthenticationError';
}
/** 403: the credential lacks the scope the operation needs. */
export class PermissionDeniedError extends ApiError {
  /** The class name, `'PermissionDeniedError'`, as stack traces and logs show it. */
  override name = 'PermissionDeniedError';
}
/** 404: the resource does not exist. */
export class NotFoundError extends ApiError {
  /** The class name, `'NotFoundError'`, as stack traces and logs show it. */
  override name = 'NotFoundError';
}
/** 409: the Idempotency-Key was already used with a different body. */
export class ConflictError extends ApiError {
  /** The class name, `'ConflictError'`, as stack traces and logs show it. */
  override name = 'ConflictError';
}
/** 422: the body failed validation, on the service or (with `local: true`) in the SDK. */
export class UnprocessableEntityError extends ApiError {
  /** The class name, `'UnprocessableEntityError'`, as stack traces and logs show it. */
  override name = 'UnprocessableEntityError';
}
/**
 * The UnprocessableEntityError the SDK raises itself, before sending: what the service would
 * answer (422 `validation_error`), with `local: true` and a message naming every field.
 */
export function localValidationError(details: ErrorDetail[]): UnprocessableEntityError {
  return new UnprocessableEntityError({
    status: 422,
    code: 'validation_error',
    message: details.map((detail) => `${detail.field}: ${detail.message}`).join('; '),
    details,
    local: true,
  });
}

/** 429: the rate limit was exceeded and retrying did not help, or would wait too long. */
export class RateLimitError extends ApiError {
  /** The class name, `'RateLimitError'`, as stack traces and logs show it. */
  override name = 'RateLimitError';
  /** How long the service asked to wait before the next attempt, in milliseconds. */
  readonly retryAfter: number | undefined;

  constructor(init: ApiErrorInit & { retryAfter?: number | undefined }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }
}
/** 500 and above: the service failed. */
export class InternalServerError extends ApiError {
  /** The class name, `'InternalServerError'`, as stack traces and logs show it. */
  override name = 'InternalServerError';
}

/** No answer arrived: DNS failure, refused or reset connection, or a body cut short. */
export class ApiConnectionError extends EmployeeRecognitionError {
  /** The class name, `'ApiConnectionError'`, as stack traces and logs show it. */
  override name = 'ApiConnectionError';
}
/** An attempt took longer than the `timeout` option and retries were used up. */
export class ApiTimeoutError extends ApiConnectionError {
  /** The class name, `'ApiTimeoutError'`, as stack traces and logs show it. */
  override name = 'ApiTimeoutError';
}
/** The caller's AbortSignal cancelled the call. `cause` holds the signal's reason. */
export class ApiUserAbortError extends EmployeeRecognitionError {
  /** The class name, `'ApiUserAbortError'`, as stack traces and logs show it. */
  override name = 'ApiUserAbortError';
}

/** One mismatch between a response and the shape the contract promises. */
export interface ResponseIssue {
  /** Where in the body, such as `data.0.points`. */
  path: string;
  /** What is wrong there, such as `must be a number` or `is required`. */
  message: string;
}

/**
 * A 2xx answer whose body is not what the contract promises (not JSON, a missing `data`, a field
 * of the wrong type). Raised at once so the mismatch never surfaces later as a TypeError.
 */
export class InvalidResponseError extends EmployeeRecognitionError {
  /** The class name, `'InvalidResponseError'`, as stack traces and logs show it. */
  override name = 'InvalidResponseError';
  /** HTTP status of the answer: a 2xx. */
  readonly status: number;
  /** The `X-Request-Id` of the answer: quote it when contacting support. */
  readonly requestId: string | undefined;
  /** Every mismatch found, at least one. */
  readonly issues: ResponseIssue[];

  constructor(init: {
    message: string;
    status: number;
    requestId: string | undefined;
    issues: ResponseIssue[];
  }) {
    super(init.message);
    this.status = init.status;
    this.requestId = init.requestId;
    this.issues = init.issues;
  }
}

const ERROR_CLASSES: Record<number, typeof ApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

function defaultCode(status: number): string {
  return ERROR_CODES[status as keyof typeof ERROR_CODES] ?? `http_${status}`;
}

/** The ApiError subclass for a status: callers branch on it with `instanceof`. */
export function errorClassFor(status: number): typeof ApiError {
  return ERROR_CLASSES[status] ?? (status >= 500 ? InternalServerError : ApiError);
}
