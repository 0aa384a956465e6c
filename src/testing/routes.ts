// Which operation answers a request: the route table and msw's path matcher.
import { matchRequestUrl } from 'msw';
import type { Scope } from '../contract.js';
import { getOperation, listAllOperation, listOperation, type Operation } from './operation.js';
import { analyticsSummary } from './operations/analytics.js';
import {
  createRecognition,
  deleteRecognition,
  getRecognition,
  listRecognitions,
} from './operations/recognitions.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  updateWebhook,
} from './operations/webhooks.js';
import type { Collection, Store } from './store.js';

/** One operation of the API: its method, path pattern and the scope it needs (contract §2, §4). */
export interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  scope: Scope;
  operation: Operation;
}

// The paginated list and the get of a kind of record the API only reads.
function reads<T extends { id: string; created_at: string }>(
  path: string,
  scope: Scope,
  collection: (store: Store) => Collection<T>,
  label: string,
): Route[] {
  return [
    { method: 'GET', path, scope, operation: listOperation(collection) },
    { method: 'GET', path: `${path}/:id`, scope, operation: getOperation(collection, label) },
  ];
}

/** Every operation of the API. Their `method path` is also how faults name a route. */
export const ROUTES: readonly Route[] = [
  {
    method: 'GET',
    path: '/v1/recognitions',
    scope: 'recognitions:read',
    operation: listRecognitions,
  },
  {
    method: 'POST',
    path: '/v1/recognitions',
    scope: 'recognitions:write',
    operation: createRecognition,
  },
  {
    method: 'GET',
    path: '/v1/recognitions/:id',
    scope: 'recognitions:read',
    operation: getRecognition,
  },
  {
    method: 'DELETE',
    path: '/v1/recognitions/:id',
    scope: 'recognitions:write',
    operation: deleteRecognition,
  },
  ...reads('/v1/users', 'users:read', (store) => store.users, 'user'),
  ...reads('/v1/rewards', 'rewards:read', (store) => store.rewards, 'reward'),
  ...reads('/v1/teams', 'teams:read', (store) => store.teams, 'team'),
  { method: 'GET', path: '/v1/webhooks', scope: 'webhooks:read', operation: listWebhooks },
  { method: 'POST', path: '/v1/webhooks', scope: 'webhooks:write', operation: createWebhook },
  { method: 'GET', path: '/v1/webhooks/:id', scope: 'webhooks:read', operation: getWebhook },
  { method: 'PATCH', path: '/v1/webhooks/:id', scope: 'webhooks:write', operation: updateWebhook },
  { method: 'DELETE', path: '/v1/webhooks/:id', scope: 'webhooks:write', operation: deleteWebhook },
  {
    method: 'GET',
    path: '/v1/budgets',
    scope: 'budgets:read',
    operation: listAllOperation((store) => store.budgets),
  },
  {
    method: 'GET',
    path: '/v1/budgets/:id',
    scope: 'budgets:read',
    operation: getOperation((store) => store.budgets, 'budget'),
  },
  {
    method: 'GET',
    path: '/v1/analytics/summary',
    scope: 'analytics:read',
    operation: analyticsSummary,
  },
];

// Only the path below the base URL is routed, whatever host a request named, so it is matched
// on an origin of its own.
const ORIGIN = 'http://mock.invalid';

/**
 * The path parameters when `path` (below the base URL) matches `pattern`, as MSW matches its
 * handlers: `:name` is one segment, `*` any rest, case and a trailing `/` do not matter.
 */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  let match: ReturnType<typeof matchRequestUrl>;
  try {
    match = matchRequestUrl(new URL(path, ORIGIN), pattern, ORIGIN);
  } catch {
    // A malformed %-escape in the path cannot name any record.
    return undefined;
  }
  return match.matches ? (match.params as Record<string, string>) : undefined;
}

/** Throws a TypeError unless `pattern` is one the matcher can use. */
export function checkPattern(pattern: string): void {
  try {
    matchRequestUrl(new URL(ORIGIN), pattern, ORIGIN);
  } catch (error) {
    throw new TypeError(`${JSON.stringify(pattern)} is not a path pattern: ${String(error)}`);
  }
}

/** The route for a request and its path parameters, if any route matches. */
export function findRoute(
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | undefined {
  // MSW forgives a trailing `/`; the API does not, so an SDK that sent `/v1/recognitions/` for
  // an empty id gets 404 here rather than the list.
  if (path.endsWith('/')) return undefined;
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const params = matchPath(route.path, path);
    if (params) return { route, params };
  }
  return undefined;
}
