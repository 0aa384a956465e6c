import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, PAGE_LIMIT_MIN } from '../contract.js';
import type { ErrorDetail, PageBody } from '../internal/wire.js';
import type { Row } from './store.js';
import { assertValid } from './validation.js';

/** The order of a paginated list: by `created_at`, ties by insertion. */
export type SortOrder = 'oldest-first' | 'newest-first';

/** A page asked for by number, or the page after a cursor (`after` unset: the first). */
export type PageRequest =
  | { mode: 'page'; page: number; limit: number }
  | { mode: 'cursor'; after: SortKey | undefined; limit: number };

// A record's place in the order. It never changes, so a cursor keeps its place under inserts
// and deletes, where a page number does not.
interface SortKey {
  time: number;
  seq: number;
}

const WHOLE_NUMBER = /^\d+$/;

/** Reads `page`, `limit` and `cursor`; a bad value is 400 `invalid_request` naming the field. */
export function parsePaging(query: URLSearchParams): PageRequest {
  const details: ErrorDetail[] = [];
  const page = query.get('page');
  const limitText = query.get('limit');
  const cursor = query.get('cursor');
  const limit = limitText === null ? PAGE_LIMIT_DEFAULT : Number(limitText);
  if (page !== null && (!WHOLE_NUMBER.test(page) || Number(page) < 1)) {
    details.push({ field: 'page', message: 'must be an integer of at least 1' });
  }
  if (
    limitText !== null &&
    (!WHOLE_NUMBER.test(limitText) || limit < PAGE_LIMIT_MIN || limit > PAGE_LIMIT_MAX)
  ) {
    details.push({
      field: 'limit',
      message: `must be an integer from ${PAGE_LIMIT_MIN} to ${PAGE_LIMIT_MAX}`,
    });
  }
  const after = cursor === null ? undefined : decodeCursor(cursor);
  if (cursor !== null && !after)
    details.push({ field: 'cursor', message: 'is not a cursor this API issued' });
  if (cursor !== null && page !== null)
    details.push({ field: 'page', message: 'cannot be combined with cursor' });
  assertValid(400, 'Invalid paging parameters.', details);
  if (page !== null) return { mode: 'page', page: Number(page), limit };
  return { mode: 'cursor', after, limit };
}

/** Sorts `rows`, which the caller has filtered, and cuts out the requested page. */
export function paginate<T extends { created_at: string }>(
  rows: readonly Row<T>[],
  order: SortOrder,
  request: PageRequest,
): PageBody<T> {
  const direction = order === 'oldest-first' ? 1 : -1;
  const sorted = rows
    .map((row) => ({ record: row.record, key: keyOf(row) }))
    .sort((a, b) => direction * compareKeys(a.key, b.key));
  const { limit } = request;
  const start =
    request.mode === 'page'
      ? (request.page - 1) * limit
      : request.after
        ? countUntilAfter(sorted, request.after, direction)
        : 0;
  const slice = sorted.slice(start, start + limit);
  const last = slice.at(-1);
  const hasMore = start + limit < sorted.length;
  return {
    data: slice.map((entry) => entry.record),
    pagination: {
      page: request.mode === 'page' ? request.page : Math.floor(start / limit) + 1,
      total_pages: Math.ceil(sorted.length / limit),
      next_cursor: request.mode === 'cursor' && hasMore && last ? encodeCursor(last.key) : null,
    },
  };
}

function countUntilAfter(
  sorted: readonly { key: SortKey }[],
  after: SortKey,
  direction: number,
): number {
  const index = sorted.findIndex((entry) => direction * compareKeys(entry.key, after) > 0);
  return index === -1 ? sorted.length : index;
}

function keyOf<T extends { created_at: string }>(row: Row<T>): SortKey {
  return { time: Date.parse(row.record.created_at), seq: row.seq };
}

function compareKeys(a: SortKey, b: SortKey): number {
  return a.time - b.time || a.seq - b.seq;
}

// base64url of a JSON array of ASCII digits: opaque to clients, and btoa serves every runtime.
function encodeCursor(key: SortKey): string {
  return btoa(JSON.stringify([key.time, key.seq]))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

function decodeCursor(cursor: string): SortKey | undefined {
  let value: unknown;
  try {
    value = JSON.parse(atob(cursor.replaceAll('-', '+').replaceAll('_', '/')));
  } catch {
    return undefined;
  }
  return Array.isArray(value) && value.length === 2 && value.every(Number.isSafeInteger)
    ? { time: value[0], seq: value[1] }
    : undefined;
}
