import * as z from 'zod/mini';
import { ApiPromise } from './api-promise.js';
import { localValidationError } from './errors.js';
import { Page, type PageParams, PagePromise, type PageResponse } from './pagination.js';
import type { ApiRequest, QueryValue, RequestOptions, Transport } from './request.js';
import { integer, parseInput, parseResponse } from './validation.js';

const paginationSchema = z.looseObject({
  page: integer(),
  total_pages: integer(),
  next_cursor: z.optional(z.nullable(z.string())),
});

/** The schema of a list answer whose records match `item` (contract §5). */
export function pageSchema<S extends z.ZodMiniType>(item: S) {
  return z.looseObject({ data: z.array(item), pagination: paginationSchema });
}

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

/**
 * An id made safe for a path: a non-empty string, URL-encoded, and never `.` or `..`, which URL
 * parsers resolve as path steps even when percent-encoded.
 */
export function pathId(id: unknown, field = 'id'): string {
  const problem =
    typeof id !== 'string'
      ? 'must be a string'
      : id.trim() === ''
        ? 'must not be empty'
        : id === '.' || id === '..'
          ? 'must not be "." or ".."'
          : undefined;
  if (problem) {
    throw localValidationError([{ field, message: problem }]);
  }
  return encodeURIComponent(id as string);
}

/**
 * Base of the resource namespaces: each method describes its request, and this sends it through
 * the client's transport and checks the answer's shape. Request building runs inside the promise,
 * so invalid input rejects the returned promise (nothing is sent) instead of throwing.
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

  /** Sends one request; `response` is the answer's schema, or null for a 204 without body. */
  protected request<S extends z.ZodMiniType>(
    build: () => ApiRequest,
    response: S,
    options?: RequestOptions,
  ): ApiPromise<z.output<S>>;
  protected request(
    build: () => ApiRequest,
    response: null,
    options?: RequestOptions,
  ): ApiPromise<void>;
  protected request(
    build: () => ApiRequest,
    response: z.ZodMiniType | null,
    options: RequestOptions = {},
  ): ApiPromise<unknown> {
    let request: ApiRequest;
    const raw = Promise.resolve().then(() => {
      request = build();
      return this.#transport(request, options);
    });
    return new ApiPromise(raw, (answer) =>
      response === null ? undefined : parseResponse(response, answer, request),
    );
  }

  /** Requests a page of a paginated list, validating `params` first; the result can be iterated. */
  protected requestPage<Item, Params extends PageParams>(
    path: string,
    paramsSchema: z.ZodMiniType<Record<string, QueryValue>, Params>,
    page: z.ZodMiniType<PageResponse<Item>>,
    params: Params,
    options: RequestOptions = {},
  ): PagePromise<Item, Params> {
    const fetchPage = (
      pageParams: Params,
      pageOptions: RequestOptions,
    ): PagePromise<Item, Params> => {
      const request: ApiRequest = { method: 'GET', path };
      const raw = Promise.resolve().then(() => {
        request.query = parseInput(paramsSchema, pageParams);
        return this.#transport(request, pageOptions);
      });
      return new PagePromise(
        raw,
        (answer) =>
          new Page(parseResponse(page, answer, request), pageParams, fetchPage, pageOptions),
        pageOptions,
      );
    };
    return fetchPage(params, options);
  }
}
