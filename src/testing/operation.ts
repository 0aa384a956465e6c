// What an operation of the mock is, and the builders of the plain reads most resources share.
import type { Scope } from '../contract.js';
import { paginate, parsePaging } from './pagination.js';
import type { Collection, Store } from './store.js';
import { HttpError } from './validation.js';

/** The credential a request was made with, resolved from the `keys` option. */
export interface Caller {
  /** The API key, or the client of an OAuth token: what idempotency and rate limits are scoped by; never logged or shown. */
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

/**
 * A response before it becomes one: what operations, errors and idempotent replays produce.
 * Operations answer success; failures are thrown as `HttpError`.
 */
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One operation of the API. */
export type Operation = (context: OperationContext) => Answer;

/** The record with this id in `collection`, or 404 `not_found` naming `label`. */
export function findOr404<T extends { id: string }>(
  collection: Collection<T>,
  id: string | undefined,
  label: string,
): T {
  const record = id === undefined ? undefined : collection.find(id.toLowerCase());
  if (!record) throw new HttpError(404, `No ${label} with id ${id}.`);
  return record;
}

/** GET of one record as `{ data }`, passed through `present` where the API shows less. */
export function getOperation<T extends { id: string }>(
  collection: (store: Store) => Collection<T>,
  label: string,
  present: (record: T) => unknown = (record) => record,
): Operation {
  return ({ store, params }) => ({
    status: 200,
    body: { data: present(findOr404(collection(store), params.id, label)) },
  });
}

/** GET of a paginated list, oldest first, that takes no filters but paging. */
export function listOperation<T extends { id: string; created_at: string }>(
  collection: (store: Store) => Collection<T>,
): Operation {
  return ({ store, query }) => ({
    status: 200,
    body: paginate(collection(store).rows(), 'oldest-first', parsePaging(query)),
  });
}

/** GET of every record at once, as `{ data }` and not paginated, each passed through `present`. */
export function listAllOperation<T extends { id: string }>(
  collection: (store: Store) => Collection<T>,
  present: (record: T) => unknown = (record) => record,
): Operation {
  return ({ store }) => ({
    status: 200,
    body: {
      data: collection(store)
        .rows()
        .map((row) => present(row.record)),
    },
  });
}
