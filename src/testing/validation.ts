// How the mock checks what it is sent and reports each problem, independently of the SDK's own
// schemas: the mock is the oracle the SDK is tested against.
import { ERROR_CODES } from '../contract.js';
import type { ErrorBody, ErrorDetail } from '../internal/wire.js';

/** A status the contract gives an error code. */
export type ErrorStatus = keyof typeof ERROR_CODES;

/** The contract's error body (§6). */
export function errorBody(
  status: ErrorStatus,
  message: string,
  details?: ErrorDetail[],
): ErrorBody {
  return { error: { code: ERROR_CODES[status], message, ...(details?.length ? { details } : {}) } };
}

/** Thrown by the operations; the pipeline turns it into an error response. */
export class HttpError extends Error {
  readonly status: ErrorStatus;
  readonly details: ErrorDetail[] | undefined;

  constructor(status: ErrorStatus, message: string, details?: ErrorDetail[]) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.details = details;
  }
}

/** Throws when `details` holds any problem, so validators can report every field at once. */
export function assertValid(status: 400 | 422, message: string, details: ErrorDetail[]): void {
  if (details.length) throw new HttpError(status, message, details);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID in canonical 8-4-4-4-12 form (any case). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * The JSON object in a request body. Malformed JSON, another JSON value or a field the
 * operation does not know is 400 `invalid_request`; the field checks are the operation's.
 */
export function parseBody(text: string, fields: readonly string[]): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'The request body must be a JSON object.');
  }
  const unknown: ErrorDetail[] = Object.keys(body)
    .filter((field) => !fields.includes(field))
    .map((field) => ({ field, message: 'is not a known field' }));
  if (unknown.length) throw new HttpError(400, 'The request body has unknown fields.', unknown);
  return body as Record<string, unknown>;
}
