/**
 * The request core's observer points: what an instrumentation (such as the OpenTelemetry one of
 * `@employee-recognition/sdk/otel`) learns about each call. The core imports no telemetry
 * library; a client without an `instrumentation` option pays one `observer?.…` per point.
 */
import type { OperationName } from '../contract.js';
import type { EmployeeRecognitionError } from './errors.js';

/**
 * What the SDK waits for between the start of a call and its last answer:
 * - `rate limit`: a place in the rate-limit queue (local pacing, or the shared pacing store);
 * - `credential`: the `apiKey` function (an OAuth token request, for instance);
 * - `retry`: the wait before a retry (backoff, or the service's Retry-After).
 *
 * A redirect hop is no wait: it is the next attempt, sent at once.
 */
export type WaitKind = 'rate limit' | 'credential' | 'retry';

/** The attempt being sent (the hooks' `AttemptContext` is one). */
export interface SentAttempt {
  /** The method, such as `GET`. */
  method: string;
  /** The URL, query included: the service's, or a redirect's. */
  url: string;
  /** The attempt's number, from 1; retries and redirect hops count up. */
  attempt: number;
}

/**
 * Told what one call does, in order. Each point is called synchronously where it happens, and
 * none may throw: what it records is the instrumentation's own business.
 */
export interface CallObserver {
  /**
   * A wait begins, expected to last `ms`, and why: the cause the client's info log line names,
   * such as `Retry-After`, `status 503` or `rate limit: shared pacing store`. It ends with the
   * next point. `error` is the failure of the attempt a retry follows.
   */
  wait(kind: WaitKind, ms: number, cause?: string, error?: EmployeeRecognitionError): void;
  /**
   * An attempt is about to be sent through `fetch`. Returns the fetch to send it with instead
   * (one that adds `traceparent` to the headers and reads the answer's status, say), or
   * undefined for `fetch` itself. The request's headers are a plain object of lower-case names,
   * the credential among them: the returned fetch passes them on and records none of them. The
   * attempt ends with the next point (its body is read by then).
   */
  attempt(
    attempt: SentAttempt,
    fetch: typeof globalThis.fetch,
  ): typeof globalThis.fetch | undefined;
  /**
   * The call ended: with its error, or with none when it succeeded. It is called detached from
   * the observer (`then(…, observer.end)`): make it an arrow function or a bound method.
   */
  end(error?: unknown): void;
}

/**
 * The `instrumentation` option of `new Client()`: told of each call when the method is called,
 * before anything is awaited, so it can capture the caller's context (a trace's active span)
 * without zones. `openTelemetry()` of `@employee-recognition/sdk/otel` is one.
 */
export interface Instrumentation {
  /**
   * A call starts: `operation` names it (`users.get`), undefined for a raw request. Returns the
   * call's observer, or undefined to observe nothing.
   */
  call(operation: OperationName | undefined): CallObserver | undefined;
}
