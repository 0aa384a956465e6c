import { HEADER_REQUEST_ID } from '../contract.js';
import { type ApiError, type ErrorDetail, errorClassFor, RateLimitError } from './errors.js';
import { retryAfterMs } from './retry.js';

interface ErrorBody {
  code?: string;
  message?: string;
  details?: ErrorDetail[];
}

const SNIPPET_LENGTH = 200;

/**
 * The typed error for a non-2xx answer. The body is the contract's `{ error: { code, message,
 * details } }`, or whatever a proxy sent instead: HTML, nothing, or truncated JSON still yield the
 * right class with the status and a readable message.
 */
export function apiErrorFromResponse(response: Response, text: string): ApiError {
  const { status, headers } = response;
  const body = parseErrorBody(text);
  const init = {
    status,
    headers,
    code: body?.code,
    details: body?.details,
    message: body?.message ?? describeUnexpectedBody(response, text),
    requestId: headers.get(HEADER_REQUEST_ID) ?? undefined,
  };
  if (status === 429) return new RateLimitError({ ...init, retryAfter: retryAfterMs(headers) });
  const ErrorClass = errorClassFor(status);
  return new ErrorClass(init);
}

function parseErrorBody(text: string): ErrorBody | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const error = (parsed as { error?: unknown } | null)?.error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, details } = error as Record<string, unknown>;
  return {
    ...(typeof code === 'string' && { code }),
    ...(typeof message === 'string' && { message }),
    ...(Array.isArray(details) && { details: details.filter(isErrorDetail) }),
  };
}

function isErrorDetail(value: unknown): value is ErrorDetail {
  const detail = value as Partial<ErrorDetail> | null;
  return typeof detail?.field === 'string' && typeof detail.message === 'string';
}

function describeUnexpectedBody(response: Response, text: string): string {
  const statusLine = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1];
  const plain = (title ?? text.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
  if (!plain) return `${statusLine} (empty body)`;
  const snippet = plain.length > SNIPPET_LENGTH ? `${plain.slice(0, SNIPPET_LENGTH)}…` : plain;
  return `${statusLine}: ${snippet}`;
}
