import type { Collection } from '../collection.js';
import { HttpError } from '../errors.js';
import type { Operation } from '../operation.js';
import { paginate, parsePaging } from '../pagination.js';
import type { Store } from '../store.js';

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
