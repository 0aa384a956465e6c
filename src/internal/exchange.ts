/**
 * What passes between the resources, the response checks and the transport: one request as an
 * operation describes it, and its answer with the body read. This module imports only types (the
 * contract's operation names, the deprecation notice), so the core's modules share these shapes
 * without importing one another (no import cycle).
 */
import type { OperationName } from '../contract.js';
import type { DeprecationNotice } from './deprecation.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';
/** A query parameter's value; `null` and `undefined` leave the parameter out. */
export type QueryValue = string | number | boolean | null | undefined;

/** One operation of the API, as a resource (or a raw request) describes it to the core. */
export interface ApiRequest {
  /** Which of the API's operations this is (`users.get`); undefined for a raw request. */
  operation?: OperationName | undefined;
  method: HttpMethod;
  /** Path starting with `/v1/`. Ids in it are already URL-encoded. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  body?: unknown;
}

/** An answer with its body read: JSON parsed, a {@link NotJson}, or undefined for an empty body. */
export interface RawResponse {
  response: Response;
  body: unknown;
  /** The request answered, for what parsing the body reports. */
  request: ApiRequest;
  /** The service's deprecation notice on this answer, if any. */
  deprecation?: DeprecationNotice | undefined;
  /**
   * Redacts the call's credential (and every secret `redactSecrets` knows) from a line that
   * quotes this answer, such as a warning about a record's field.
   */
  redact?: ((text: string) => string) | undefined;
}

/** A 2xx body that is not JSON; the resource layer reports it with the operation's context. */
export class NotJson {
  constructor(readonly text: string) {}
}

/**
 * How a client reads 2xx bodies, made once per client from its `validateResponses` option and
 * its logger.
 * - `warn` (the default): the envelope (`data`, `pagination`, a record's `id`) is checked; a
 *   record that differs from the contract's assumptions is returned as received, and the
 *   difference is logged once per operation and field.
 * - `strict`: any difference fails the call with an InvalidResponseError (the SDK's own suites).
 * - `off`: only the envelope is checked.
 *
 * Whatever the mode, a successful write (POST, PATCH, DELETE) never fails: it has happened, and a
 * caller told otherwise would retry it. Differences in its answer are logged instead.
 */
export interface ResponseValidation {
  mode: 'warn' | 'strict' | 'off';
  /** Logs one line at warn level. */
  warn(message: string): void;
  /** The warnings already logged (operation and field), so each is logged once per client. */
  warned: Set<string>;
}
