import { ERROR_CODES } from '../contract.js';

/** One invalid input, as the error body's `details` lists them. */
export interface ErrorDetail {
  field: string;
  message: string;
}

/** A status the contract gives an error code. */
export type ErrorStatus = keyof typeof ERROR_CODES;

/** The contract's error body (§6). */
export function errorBody(status: ErrorStatus, message: string, details?: ErrorDetail[]) {
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
