import { isKyError, TimeoutError } from 'ky';
import { later } from '../internal/timers.js';
import {
  ApiConnectionError,
  ApiTimeoutError,
  ApiUserAbortError,
  EmployeeRecognitionError,
  type RequestTarget,
  ResponseTooLargeError,
} from './errors.js';

/**
 * What a ky call needs from the SDK that ky does not do: reading a body under a cap and a
 * deadline (ky's `timeout` ends when the headers arrive, and ky reads a body whole), and naming
 * any failure with the SDK's own errors (ky's errors hold the `Request`, whose headers hold the
 * credential). The request core uses both for every API call; any other request the SDK sends
 * through ky (a token request) can use them with no more than its own `timeout` and cap.
 */

/** How one body is read: for whom, up to how many bytes, for how long, until which signal. */
export interface BodyLimits {
  /** The request's method and URL, for the errors. */
  target: RequestTarget;
  /** Bytes of the body, counted after decompression, past which the download is cancelled. */
  maxBytes: number;
  /** Milliseconds the whole body may take, from when the read starts. */
  timeout: number;
  /** Ends the read at once; the read then rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/**
 * The body as text, read through its own reader and only up to `maxBytes` counted after
 * decompression, within `timeout` ms: a bomb, an endless stream or a stalled server end the read
 * and the download. Rejects with {@link ResponseTooLargeError} past the cap, {@link ApiTimeoutError}
 * past the deadline, the signal's reason on abort, and the platform's error when the stream
 * breaks (for {@link transferError}). Decoding is that of `Response.text()`.
 */
export async function readBody(response: Response, limits: BodyLimits): Promise<string> {
  const { target, maxBytes, timeout, signal } = limits;
  const body = response.body;
  if (body === null) return '';
  if (signal?.aborted) {
    cancel(response);
    throw signal.reason;
  }
  const declared = Number(response.headers.get('content-length'));
  if (!response.headers.has('content-encoding') && declared > maxBytes) {
    cancel(response);
    throw new ResponseTooLargeError(target, response.status, maxBytes);
  }
  const reader = body.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  let timedOut = false;
  const timer = later(() => {
    timedOut = true;
    stop();
  }, timeout);
  signal?.addEventListener('abort', stop, { once: true });
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (timedOut) throw timeoutError(target, timeout);
      signal?.throwIfAborted();
      if (done) break;
      length += value.length;
      if (length > maxBytes) {
        stop();
        throw new ResponseTooLargeError(target, response.status, maxBytes);
      }
      chunks.push(value);
    }
  } catch (error) {
    stop();
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
  }
  return utf8.decode(chunks.length === 1 ? chunks[0] : concat(chunks, length));
}

/** What {@link transferError} needs to name a failure. */
export interface FailureContext {
  target: RequestTarget;
  /** The attempt's timeout, for the message of a timeout. */
  timeout: number;
  /** The caller's signal: when it has aborted, every failure is the caller's cancellation. */
  signal?: AbortSignal | undefined;
  /**
   * Removes the credential (and every secret `redactSecrets` of internal/redact.ts knows) from
   * the error's text: its message (the platform's words, where a proxy can echo a header), its
   * URL and request id, and each cause's.
   */
  redact: (text: string) => string;
}

/**
 * Any failure of a transfer as the SDK's own error: its own errors as they are, the caller's
 * abort as {@link ApiUserAbortError}, ky's timeout as {@link ApiTimeoutError}, anything else as
 * {@link ApiConnectionError} with the platform's error as `cause`. No ky object is ever kept: ky's
 * errors hold the `Request`, and with it the Authorization header.
 */
export function transferError(error: unknown, context: FailureContext): EmployeeRecognitionError {
  const failure = sdkError(error, context);
  const { redact } = context;
  const fields = failure as { url?: string; requestId?: string };
  fields.url &&= redact(fields.url);
  fields.requestId &&= redact(fields.requestId);
  // Every message is redacted whole, as a log line is: the URL it names may hold a signature
  // parameter or user info, and a hook's failure quotes the hook's own text. The stack repeats
  // the message, so it is redacted with it. So is each cause's, where it is (a few deep, a cycle
  // included): a cause is never replaced, since its class is documented (`error.cause instanceof
  // OAuthError`), and the platform's (a fetch's rejection) may quote what a server or proxy said.
  let link: unknown = failure;
  for (let depth = 0; link instanceof Error && depth < 8; depth++, link = link.cause) {
    try {
      link.message = redact(link.message);
      link.stack &&= redact(link.stack);
    } catch {
      // A frozen or read-only error (a DOMException's message) is left as it is.
    }
  }
  return failure;
}

function sdkError(error: unknown, context: FailureContext): EmployeeRecognitionError {
  if (error instanceof EmployeeRecognitionError) return error;
  const { target, signal } = context;
  const describe = `${target.method} ${target.url}`;
  if (signal?.aborted) {
    return new ApiUserAbortError(target, `${describe} was aborted.`, { cause: signal.reason });
  }
  if (error instanceof TimeoutError) return timeoutError(target, context.timeout);
  return new ApiConnectionError(
    target,
    `Connection error: ${describe}: ${networkReason(error)}`,
    isKyError(error) ? undefined : { cause: error },
  );
}

/** The call's timeout, reached; `waiting` says for what (` waiting for …`) when not the service. */
export function timeoutError(
  target: RequestTarget,
  timeout: number,
  waiting = '',
): ApiTimeoutError {
  return new ApiTimeoutError(
    target,
    `${target.method} ${target.url} timed out after ${timeout} ms${waiting}.`,
  );
}

/**
 * The platform's words for a network failure, with undici's reason from `cause` brought up:
 * `ECONNREFUSED 127.0.0.1:4010` instead of `fetch failed`.
 */
function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (typeof cause?.message === 'string' && cause.message !== '') return cause.message;
  if (typeof cause?.code === 'string') return cause.code;
  return error.message;
}

/** Stops a download nobody will read. */
export function cancel(response: Response): void {
  response.body?.cancel().catch(() => {});
}

const utf8 = new TextDecoder();

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}
