import { errorBody, type HttpError } from './errors.js';

/** A response before it becomes one: what operations, errors and idempotent replays produce. */
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The contract's error answer for a thrown `HttpError`. */
export function errorAnswer(error: HttpError): Answer {
  return { status: error.status, body: errorBody(error.status, error.message, error.details) };
}

/** A JSON response; `headers` come first, so the answer's own headers win. */
export function toResponse(answer: Answer, headers: Record<string, string>): Response {
  const json = answer.body !== undefined;
  return new Response(json ? JSON.stringify(answer.body) : null, {
    status: answer.status,
    headers: {
      ...headers,
      ...(json ? { 'content-type': 'application/json' } : {}),
      ...answer.headers,
    },
  });
}
