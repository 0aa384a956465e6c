import { HEADER_REQUEST_ID } from '../contract.js';
import { parseRateLimit, type RateLimitInfo } from '../internal/headers.js';
import type { DeprecationNotice } from '../internal/deprecation.js';
import type { RawResponse } from '../internal/exchange.js';

export type { RateLimitFamily, RateLimitInfo } from '../internal/headers.js';

/** What `withResponse()` gives: the call's result beside the HTTP answer it came from. */
export interface WithResponse<T> {
  /** Exactly what awaiting the call gives. */
  data: T;
  /** The HTTP answer; its body has already been read. */
  response: Response;
  /** The answer's X-Request-Id. */
  requestId: string | undefined;
  /** The answer's rate-limit headers, where present. */
  rateLimit: RateLimitInfo | undefined;
  /** The service's notice that the operation is deprecated or retiring, where the answer has one. */
  deprecation: DeprecationNotice | undefined;
}

/**
 * The promise every method returns: await it for the parsed body, or call `withResponse()` for the
 * response, request id and rate-limit state too. The request starts when the method is called.
 */
export class ApiPromise<T> implements PromiseLike<T> {
  readonly #raw: Promise<RawResponse>;
  readonly #parse: (raw: RawResponse) => T;
  #data: Promise<T> | undefined;
  #answer: RawResponse | undefined;
  #result: Promise<WithResponse<T>> | undefined;

  /**
   * Made by the resource methods; customers never construct one.
   *
   * @internal
   */
  constructor(raw: Promise<RawResponse>, parse: (raw: RawResponse) => T) {
    this.#raw = raw;
    this.#parse = parse;
  }

  /** The parsed body, parsed once however often it is awaited. */
  #parsed(): Promise<T> {
    this.#data ??= this.#raw.then((raw) => {
      this.#answer = raw;
      return this.#parse(raw);
    });
    return this.#data;
  }

  /** The parsed result together with the response, its request id and rate-limit state. */
  withResponse(): Promise<WithResponse<T>> {
    // The headers are read only here: a plain `await` needs none of them.
    this.#result ??= this.#parsed().then((data) => {
      const { response, deprecation } = this.#answer as RawResponse;
      return {
        data,
        response,
        requestId: response.headers.get(HEADER_REQUEST_ID) ?? undefined,
        rateLimit: parseRateLimit(response.headers),
        deprecation,
      };
    });
    return this.#result;
  }

  then<R1 = T, R2 = never>(
    onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#parsed().then(onFulfilled, onRejected);
  }

  /**
   * Handles a failure, as `Promise.prototype.catch` does: the SDK rejects with an
   * {@link EmployeeRecognitionError} subclass.
   */
  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onRejected);
  }

  /** Runs `onFinally` once the call settles, either way, as `Promise.prototype.finally` does. */
  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onFinally);
  }

  /** `'ApiPromise'`, the tag `Object.prototype.toString` shows. */
  get [Symbol.toStringTag](): string {
    return 'ApiPromise';
  }
}
