import { ERROR_CODES, HEADER_REQUEST_ID } from '../contract.js';
import type { ErrorDetail } from '../internal/wire.js';

export type { ErrorDetail } from '../internal/wire.js';

/**
 * Base class of every error the SDK throws, so one `catch` with `instanceof` can serve them all.
 * Each subclass sets `name` to its own class name, as stack traces and logs show it.
 */
export class EmployeeRecognitionError extends Error {
  override name = 'EmployeeRecognitionError';
}

/**
 * Everything an {@link ApiError} is made from: the SDK builds it from the service's error answer,
 * and tests can pass one to construct an error of their own, such as
 * `new NotFoundError({ status: 404, message: 'Recognition not found' })`.
 */
export interface ApiErrorInit {
  /** HTTP status of the answer, such as 404. */
  status: number;
  /** The error body's human-readable message; the error's `message` starts with it. */
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
  /** The problem type URI of an RFC 9457 `application/problem+json` body, if the body is one. */
  type?: string | undefined;
  /** True when the SDK raised the error itself, before sending anything; by default false. */
  local?: boolean | undefined;
  /** The request's method, such as `GET`; absent for local errors. */
  method?: string | undefined;
  /** The request's URL, query included; absent for local errors. */
  url?: string | undefined;
}

/**
 * The service answered with a non-2xx status (or, for `local` errors, would have: the SDK found
 * the input invalid before sending it). The message names the status, code, method and URL.
 */
export class ApiError extends EmployeeRecognitionError {
  override name = 'ApiError';
  /** HTTP status of the answer. */
  declare readonly status: number;
  /** Machine-readable code from the error body, such as `validation_error`. */
  declare readonly code: string;
  /** The `X-Request-Id` of the answer: quote it when contacting support. */
  declare readonly requestId: string | undefined;
  /** Headers of the answer, the credential redacted (empty for local errors). */
  declare readonly headers: Headers;
  /** Field-level problems, where the error body lists them. */
  declare readonly details: ErrorDetail[] | undefined;
  /**
   * The problem's `type` when the service answered with RFC 9457 `application/problem+json`
   * (`about:blank` when the problem names none); undefined for any other body.
   */
  declare readonly type: string | undefined;
  /** True when the SDK raised this error itself, before any request left. */
  declare readonly local: boolean;
  /** The request's method, such as `POST`; undefined for local errors. */
  declare readonly method: string | undefined;
  /** The request's URL, query included; undefined for local errors. */
  declare readonly url: string | undefined;

  constructor(init: ApiErrorInit) {
    const code = init.code ?? defaultCode(init.status);
    super(
      init.method && init.url
        ? `${init.message} (${init.status} ${code} from ${init.method} ${init.url})`
        : init.message,
    );
    this.status = init.status;
    this.code = code;
    this.requestId = init.requestId;
    this.headers = init.headers ?? new Headers();
    this.details = init.details;
    this.type = init.type;
    this.local = init.local ?? false;
    this.method = init.method;
    this.url = init.url;
  }
}

/** 400: the request's parameters (query, paging, filters) were invalid. */
export class BadRequestError extends ApiError { override name = 'BadRequestError'; } // prettier-ignore
/** 401: the credential is missing, malformed, unknown or expired. */
export class AuthenticationError extends ApiError { override name = 'AuthenticationError'; } // prettier-ignore
/** 403: the credential lacks the scope the operation needs. */
export class PermissionDeniedError extends ApiError { override name = 'PermissionDeniedError'; } // prettier-ignore
/** 404: the resource does not exist. */
export class NotFoundError extends ApiError { override name = 'NotFoundError'; } // prettier-ignore
/** 409: the Idempotency-Key was already used with a different body. */
export class ConflictError extends ApiError { override name = 'ConflictError'; } // prettier-ignore
/** 422: the body failed validation, on the service or (with `local: true`) in the SDK. */
export class UnprocessableEntityError extends ApiError { override name = 'UnprocessableEntityError'; } // prettier-ignore
/** 500 and above: the service failed. */
export class InternalServerError extends ApiError { override name = 'InternalServerError'; } // prettier-ignore

/**
 * The OAuth authorization server refused a token request: `code` is its OAuth `error`, such as
 * `invalid_client` or `invalid_scope` (`http_<status>` when it gave none), `url` its endpoint.
 */
export class OAuthError extends ApiError { override name = 'OAuthError'; } // prettier-ignore

/** 429: the rate limit was exceeded and retrying did not help, or would wait too long. */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  /** How long the service asked to wait before the next attempt, in milliseconds. */
  declare readonly retryAfter: number | undefined;

  constructor(init: ApiErrorInit & { retryAfter?: number | undefined }) {
    super(init);
    this.retryAfter = init.retryAfter;
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

/** The ApiError subclass for a status: callers branch on it with `instanceof`. */
function errorClassFor(status: number): typeof ApiError {
  return ERROR_CLASSES[status] ?? (status >= 500 ? InternalServerError : ApiError);
}

function defaultCode(status: number): string {
  return ERROR_CODES[status as keyof typeof ERROR_CODES] ?? `http_${status}`;
}

/** What the SDK found wrong with the caller's input, before sending: one message for all fields. */
function describeDetails(details: ErrorDetail[]): string {
  return details.map((detail) => `${detail.field}: ${detail.message}`).join('; ');
}

/**
 * The UnprocessableEntityError the SDK raises itself for a bad request body, before sending: what
 * the service would answer (422 `validation_error`), with `local: true` and every field named.
 */
export function localValidationError(details: ErrorDetail[]): UnprocessableEntityError {
  const message = describeDetails(details);
  return new UnprocessableEntityError({ status: 422, message, details, local: true });
}

/**
 * The BadRequestError the SDK raises itself for bad query parameters (paging, filters, period),
 * before sending: what the service would answer (400 `invalid_request`), with `local: true`.
 */
export function localBadRequestError(details: ErrorDetail[]): BadRequestError {
  const message = describeDetails(details);
  return new BadRequestError({ status: 400, message, details, local: true });
}

/** Where a request went: the method and URL every transport error names. */
export interface RequestTarget {
  /** The request's method, such as `GET`. */
  method: string;
  /** The request's URL, query included. */
  url: string;
}

/** No usable answer arrived: DNS failure, refused or reset connection, a body cut short. */
export class ApiConnectionError extends EmployeeRecognitionError {
  override name = 'ApiConnectionError';
  /** The request's method, such as `GET`. */
  declare readonly method: string;
  /** The request's URL, query included. */
  declare readonly url: string;

  constructor(target: RequestTarget, message: string, options?: ErrorOptions) {
    super(message, options);
    this.method = target.method;
    this.url = target.url;
  }
}
/** An attempt took longer than the `timeout` option and retries were used up. */
export class ApiTimeoutError extends ApiConnectionError { override name = 'ApiTimeoutError'; } // prettier-ignore

/**
 * The caller's AbortSignal cancelled the call. `cause` holds the signal's reason. Not an
 * ApiConnectionError: code that retries connection failures must not retry a cancellation.
 */
export class ApiUserAbortError extends EmployeeRecognitionError {
  override name = 'ApiUserAbortError';
  /** The request's method, such as `GET`. */
  declare readonly method: string;
  /** The request's URL, query included. */
  declare readonly url: string;

  constructor(target: RequestTarget, message: string, options?: ErrorOptions) {
    super(message, options);
    this.method = target.method;
    this.url = target.url;
  }
}

/**
 * An answer's body was larger than the `maxResponseBytes` option (counted after decompression):
 * the download was cancelled. For a write the service may have done the work.
 */
export class ResponseTooLargeError extends ApiConnectionError {
  override name = 'ResponseTooLargeError';
  /** The cap that was exceeded, in bytes. */
  declare readonly limit: number;
  /** HTTP status of the answer. */
  declare readonly status: number;

  constructor(target: RequestTarget, status: number, limit: number) {
    super(
      target,
      `The answer to ${target.method} ${target.url} (status ${status}) is larger than maxResponseBytes (${limit} bytes); its download was cancelled.`,
    );
    this.limit = limit;
    this.status = status;
  }
}

/** A hook given in the `hooks` option threw or rejected. `cause` holds what it threw. */
export class HookError extends EmployeeRecognitionError {
  override name = 'HookError';
  /** The hook's kind, such as `beforeRequest`. */
  declare readonly hook: string;

  constructor(hook: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`A hook in hooks.${hook} failed: ${reason}`, { cause });
    this.hook = hook;
  }
}

/** One mismatch between a response and the shape the contract promises. */
export interface ResponseIssue {
  /** Where in the body, such as `data.0.points`. */
  path: string;
  /** What is wrong there, such as `must be a number` or `is required`. */
  message: string;
}

/**
 * A 2xx answer the SDK cannot use: not JSON, a missing `data`, a field of the wrong type (under
 * `validateResponses: 'strict'`), or a list whose pages do not advance. Raised at once so the
 * mismatch never surfaces later as a TypeError.
 */
export class InvalidResponseError extends EmployeeRecognitionError {
  override name = 'InvalidResponseError';
  /** HTTP status of the answer: a 2xx. */
  declare readonly status: number;
  /** The `X-Request-Id` of the answer: quote it when contacting support. */
  declare readonly requestId: string | undefined;
  /** Every mismatch found, at least one. */
  declare readonly issues: ResponseIssue[];

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

/** Longest excerpt of server text an error message keeps. */
const EXCERPT_LENGTH = 200;
/** Most field-level problems an error keeps from a body. */
const MAX_DETAILS = 100;
/** How much of a body is looked at to make a message: enough for any title or JSON error. */
const SCANNED_LENGTH = 64 * 1024;

/**
 * The typed error for a non-2xx answer. The body is the contract's `{ error: { code, message,
 * details } }`, an RFC 9457 problem (read as {@link parseErrorBody} says), or whatever a proxy
 * sent instead: HTML, nothing, or truncated JSON still yield the right class with the status and
 * a readable message. `redact` removes the credential from every string taken from the answer,
 * after JSON escapes are undone, so no echo survives.
 */
export function errorFromResponse(
  response: Response,
  text: string,
  target: RequestTarget,
  redact: (text: string) => string,
  retryAfter: number | undefined,
): ApiError {
  const { status } = response;
  const body = parseErrorBody(text, response.headers.get('content-type'));
  const clean = (value: string) => escapeControls(redact(value));
  const kept = (value: string | undefined) => value && excerpt(clean(value));
  const headers = redactHeaders(response.headers, redact);
  const init: ApiErrorInit = {
    ...target,
    status,
    headers,
    code: kept(body?.code),
    details: body?.details?.map((detail) => ({
      field: excerpt(clean(detail.field)),
      message: excerpt(clean(detail.message)),
    })),
    message: excerpt(clean(body?.message ?? describeUnexpectedBody(response, text))),
    type: kept(body?.type),
    requestId: headers.get(HEADER_REQUEST_ID) ?? undefined,
  };
  if (status === 429) return new RateLimitError({ ...init, retryAfter });
  const ErrorClass = errorClassFor(status);
  return new ErrorClass(init);
}

/** A copy of `headers` with `redact` applied to every value: what an error may keep and show. */
export function redactHeaders(headers: Headers, redact: (text: string) => string): Headers {
  const copy = new Headers();
  for (const [name, value] of headers) copy.append(name, redact(value));
  return copy;
}

interface ParsedErrorBody {
  code?: string;
  message?: string;
  details?: ErrorDetail[];
  type?: string;
}

type Members = Record<string, unknown>;

const asString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/**
 * The contract's `{ error: { code, message, details } }`, or an RFC 9457 problem: a body sent as
 * `application/problem+json`, or one whose `title` or `detail` comes with a numeric `status`.
 * A problem's `code` member is the code (else the status's, as for any body); `detail`, else
 * `title`, the message; its `type` (`about:blank` when absent, RFC 9457 §3.1.1) is kept; the
 * `errors` extension gives the details, each item's JSON Pointer (RFC 6901, plain or as a URI
 * fragment) as the field, written as the SDK names fields: `#/profile/color` is `profile.color`
 * (its escapes `~0` and `~1` kept as sent).
 */
function parseErrorBody(body: string, contentType: string | null): ParsedErrorBody | undefined {
  let parsed: Members | null;
  try {
    parsed = JSON.parse(body) as Members | null;
  } catch {
    return undefined;
  }
  const error = parsed?.error as Members | null | undefined;
  if (typeof error === 'object' && error !== null) {
    return {
      code: asString(error.code),
      message: asString(error.message),
      details: detailsOf(error.details, 'field', 'message'),
    };
  }
  const { title, detail, status, type } = parsed ?? {};
  const problem =
    /\/problem\+json/i.test(contentType ?? '') ||
    (asString(title ?? detail) !== undefined && typeof status === 'number');
  return problem
    ? {
        code: asString(parsed!.code),
        message: asString(detail) ?? asString(title),
        type: asString(type) ?? 'about:blank',
        details: detailsOf(parsed!.errors, 'pointer', 'detail'),
      }
    : undefined;
}

/** The first MAX_DETAILS items of `list` with a string `field` and `message` member, as details. */
function detailsOf(list: unknown, field: string, message: string): ErrorDetail[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const details: ErrorDetail[] = [];
  for (const item of list.slice(0, MAX_DETAILS) as (Members | null)[]) {
    let name = asString(item?.[field]);
    const said = asString(item?.[message]);
    if (name === undefined || said === undefined) continue;
    // A JSON Pointer's steps joined by dots; `~1` and `~0` (a `/` or `~` in a name) kept.
    if (field === 'pointer') name = name.replace(/^#?\//, '').replaceAll('/', '.');
    details.push({ field: name, message: said });
  }
  return details;
}

/**
 * A message for a body that is not the contract's error JSON: the HTML title, or the text with
 * tags dropped. One forward scan with indexOf, never a regex over server text: a page of `<`
 * characters cannot make it backtrack (issue: 150 KB froze the event loop for 16 s).
 */
export function describeUnexpectedBody(response: Response, text: string): string {
  const statusLine = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  const scanned = text.slice(0, SCANNED_LENGTH);
  const plain = collapseSpace(titleOf(scanned) ?? stripTags(scanned));
  return plain ? `${statusLine}: ${plain}` : `${statusLine} (empty body)`;
}

function titleOf(html: string): string | undefined {
  const lower = html.toLowerCase();
  const open = lower.indexOf('<title');
  if (open === -1) return undefined;
  const start = lower.indexOf('>', open);
  const end = start === -1 ? -1 : lower.indexOf('</title', start);
  return end === -1 ? undefined : html.slice(start + 1, end);
}

function stripTags(html: string): string {
  let plain = '';
  let position = 0;
  while (position < html.length) {
    const open = html.indexOf('<', position);
    if (open === -1) break;
    const close = html.indexOf('>', open);
    // An unclosed `<` cannot start a tag: the rest is text.
    if (close === -1) break;
    plain += `${html.slice(position, open)} `;
    position = close + 1;
  }
  return plain + html.slice(position);
}

function collapseSpace(text: string): string {
  return text.split(/\s+/).join(' ').trim();
}

export function excerpt(text: string): string {
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH)}…` : text;
}

// Control characters (C0, DEL, C1), line and paragraph separators, and bidirectional controls.
const CONTROLS =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Control characters, ANSI escapes and bidirectional controls from server text, written as
 * `\uXXXX`: a message must not be able to forge a log line, recolour a terminal or reorder what
 * a reader sees (the same class the CLI's `printable` blanks).
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
