import * as z from 'zod/mini';
import { ApiPromise } from './api-promise.js';
import type { RequestOptions } from './config.js';
import { localValidationError } from './errors.js';
import { redactSecrets } from '../internal/redact.js';
import type { CallObserver } from './observer.js';
import { Page, type PageParams, PagePromise, type PageResponse } from './pagination.js';
import { HEADER_LINK, type OperationName } from '../contract.js';
import { readLinks } from '../internal/link.js';
import type { ApiRequest, QueryValue, RawResponse } from '../internal/exchange.js';
import type { Transport } from './request.js';
import { integer, parseQuery, parseResponse } from './validation.js';

const paginationSchema = z.looseObject({
  page: integer(),
  total_pages: integer(),
  next_cursor: z.optional(z.nullable(z.string())),
});

/** The schema of a list answer whose records match `item` (contract §5). */
export function pageSchema<S extends z.ZodMiniType>(item: S) {
  return z.looseObject({ data: z.array(item), pagination: paginationSchema });
}

/** Any page body: the envelope checked, the records as received (raw `getPage`). */
export const anyPage = pageSchema(z.unknown());

/**
 * The body of an answer that is not a page (contract §4): `{ data: … }` around one record, or
 * around every record of an unpaginated list such as {@link Webhooks.list}.
 */
export interface DataResponse<T> {
  /** The record, or the records of an unpaginated list. */
  data: T;
}

/** The schema of a single-record answer, `{ data: record }`. */
export function dataSchema<S extends z.ZodMiniType>(record: S) {
  return z.looseObject({ data: record });
}

// In a `u` regex a well-formed pair is one code point: only an unpaired half matches.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * An id made safe for a path: a non-empty string that can be encoded (no lone surrogate),
 * URL-encoded, and never `.` or `..`, which URL parsers resolve as path steps even when encoded.
 */
export function pathId(id: unknown, field = 'id'): string {
  const problem =
    typeof id !== 'string'
      ? 'must be a string'
      : id.trim() === ''
        ? 'must not be empty'
        : id === '.' || id === '..'
          ? 'must not be "." or ".."'
          : LONE_SURROGATE.test(id)
            ? 'must not contain unpaired surrogate characters'
            : undefined;
  if (problem) throw localValidationError([{ field, message: problem }]);
  return encodeURIComponent(id as string);
}

/**
 * Runs `send` in a microtask, so that what it throws rejects the promise. The client's
 * instrumentation hears of the call first, synchronously in the caller's context (no zones
 * needed), and of its end.
 */
function observed(
  transport: Transport,
  operation: OperationName | undefined,
  send: (observer: CallObserver | undefined) => Promise<RawResponse>,
): Promise<RawResponse> {
  const observer = transport.config.instrumentation?.call(operation);
  const raw = Promise.resolve().then(() => send(observer));
  if (observer) raw.then(() => observer.end(), observer.end);
  return raw;
}

/**
 * Sends a request through `transport` and parses its answer with `parse`. The request is built
 * inside the promise, so invalid input rejects the returned promise (nothing is sent) instead of
 * throwing where the method was called. `operation` names it (undefined for a raw request).
 */
export function sendRequest<T>(
  transport: Transport,
  operation: OperationName | undefined,
  build: () => ApiRequest,
  parse: (raw: RawResponse) => T,
  options: RequestOptions | null | undefined,
): ApiPromise<T> {
  // The answer carries its request (`raw.request`): nothing the sending closes over (`build`, the
  // caller's params, `options`) stays with a call waiting in the queue.
  const raw = observed(transport, operation, (observer) => {
    const request = build();
    request.operation = operation;
    return transport.send(request, options, observer);
  });
  return new ApiPromise(raw, parse);
}

/** Requests a page of a list at `path`, checking `params` as a query first; the result iterates. */
export function sendPageRequest<Item, Params extends PageParams>(
  transport: Transport,
  operation: OperationName | undefined,
  path: string,
  paramsSchema: z.ZodMiniType<Record<string, QueryValue>, Params> | undefined,
  page: z.ZodMiniType,
  params: Params | null | undefined,
  options: RequestOptions | null | undefined,
): PagePromise<Item, Params> {
  // `linked`: the path and query of a page an answer's Link header named, sent as they are.
  const fetchPage = (
    pageParams: Params,
    pageOptions: RequestOptions | null | undefined,
    linked?: string,
    seen?: Set<string>,
  ): PagePromise<Item, Params> => {
    const request: ApiRequest = { operation, method: 'GET', path: linked ?? path };
    const raw = observed(transport, operation, (observer) => {
      if (linked === undefined) {
        request.query = paramsSchema
          ? parseQuery(paramsSchema, pageParams)
          : (pageParams as unknown as Record<string, QueryValue>);
      }
      return transport.send(request, pageOptions, observer);
    });
    return new PagePromise(
      raw,
      (answer) =>
        new Page(
          parseResponse(page, answer, request, transport.validation) as PageResponse<Item>,
          pageParams,
          fetchPage,
          pageOptions ?? {},
          nextLink(transport.config.baseUrl, request, answer),
          seen,
        ),
      pageOptions ?? {},
    );
  };
  return fetchPage(params ?? ({} as Params), options);
}

/**
 * The page an answer's `Link: <…>; rel="next"` names (RFC 8288), resolved against the request's
 * URL, when it lies below the base URL (so on its origin): its path and query below the base URL,
 * to send with the client's credential. A link elsewhere is not followed, so the credential never
 * goes to another origin; the body's pagination then decides.
 */
function nextLink(baseUrl: string, request: ApiRequest, answer: RawResponse): string | undefined {
  const url = readLinks(answer.response.headers.get(HEADER_LINK), baseUrl + request.path).next;
  // The link is a parsed URL's href; the base URL, normalized, has no `/` at its end. A link that
  // holds a secret (an echoed key, or the call's own credential, such as an OAuth token) is not
  // followed: URLs show in errors and traces.
  return url?.startsWith(`${baseUrl}/`) && (answer.redact ?? redactSecrets)(url) === url
    ? url.slice(baseUrl.length)
    : undefined;
}

/**
 * Base of the resource namespaces: each method describes its request, and this sends it through
 * the client's transport and checks the answer's shape.
 */
export abstract class ApiResource {
  readonly #transport: Transport;

  /**
   * Made by the {@link Client}; customers reach the resources as its properties.
   *
   * @internal
   */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Sends one request; `response` is the answer's schema, or null for a 204 without body.
   *
   * @internal
   */
  protected request<S extends z.ZodMiniType>(
    operation: OperationName,
    build: () => ApiRequest,
    response: S,
    options?: RequestOptions | null,
  ): ApiPromise<z.output<S>>;
  /** @internal */
  protected request(
    operation: OperationName,
    build: () => ApiRequest,
    response: null,
    options?: RequestOptions | null,
  ): ApiPromise<void>;
  /** @internal */
  protected request(
    operation: OperationName,
    build: () => ApiRequest,
    response: z.ZodMiniType | null,
    options?: RequestOptions | null,
  ): ApiPromise<unknown> {
    const validation = this.#transport.validation;
    return sendRequest(
      this.#transport,
      operation,
      build,
      (answer) =>
        response === null ? undefined : parseResponse(response, answer, answer.request, validation),
      options,
    );
  }

  /**
   * Requests a page of a paginated list, checking `params` first; the result can be iterated.
   *
   * @internal
   */
  protected requestPage<Item, Params extends PageParams>(
    operation: OperationName,
    path: string,
    paramsSchema: z.ZodMiniType<Record<string, QueryValue>, Params>,
    page: z.ZodMiniType,
    params: Params | null | undefined,
    options?: RequestOptions | null,
  ): PagePromise<Item, Params> {
    return sendPageRequest(this.#transport, operation, path, paramsSchema, page, params, options);
  }
}
