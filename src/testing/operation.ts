import type { Scope } from '../contract.js';
import type { Store } from './store.js';

/** The credential a request was made with, resolved from the `keys` option. */
export interface Caller {
  /** The credential itself: kept for idempotency scoping, never logged or shown. */
  readonly credential: string;
  readonly scopes: ReadonlySet<Scope>;
  /** Requests per rate-limit window. */
  readonly rateLimit: number;
  /** The user who sends recognitions created with this credential. */
  readonly userId: string | undefined;
}

/** What an operation gets to work with. */
export interface OperationContext {
  readonly store: Store;
  /** Path parameters, such as `id`. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The request body's text; operations that take a body parse it themselves. */
  readonly body: string;
  readonly caller: Caller;
  /** The mock's clock at the time of the request, in ms. */
  readonly now: number;
  /** Sends an event to the webhooks subscribed to it, without waiting for the deliveries. */
  emit(type: string, data: unknown): void;
}

/** A successful answer; failures are thrown as `HttpError`. */
export interface OperationResult {
  status: 200 | 201 | 204;
  body?: unknown;
}

/** One of the 18 operations. */
export type Operation = (context: OperationContext) => OperationResult;
