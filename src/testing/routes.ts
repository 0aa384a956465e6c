// Which operation answers a request: the route table and the path patterns routes and faults use.
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

/** Matches a path (below the base URL) and gives its parameters, or `undefined` when it does not match. */
export type PathMatcher = (path: string) => Record<string, string> | undefined;

const PARAMETER = /^:([A-Za-z_]\w*)$/;
const REGEXP_SPECIAL = /[.+?^${}()|[\]\\]/g;

/**
 * Compiles a path pattern as MSW reads its handlers' paths: `:name` is one whole, non-empty
 * segment (percent-decoded into `name`), `*` any rest, slashes included; literal text matches in
 * any case, and a trailing `/` does not matter. A pattern that is not one of these throws a
 * TypeError, so a mistyped fault fails where it is armed rather than never matching. The mock's
 * own matcher keeps msw out of everything but the MSW handlers (`/testing/msw`).
 */
export function compilePath(pattern: string): PathMatcher {
  const invalid = (why: string) =>
    new TypeError(`${JSON.stringify(pattern)} is not a path pattern: ${why}`);
  if (!pattern.startsWith('/')) throw invalid('it must start with /');
  const names: string[] = [];
  const source = pattern
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) => {
      const parameter = PARAMETER.exec(segment)?.[1];
      if (parameter !== undefined) {
        if (names.includes(parameter)) throw invalid(`:${parameter} appears twice`);
        names.push(parameter);
        return '([^/]+)';
      }
      if (/[:?#]/.test(segment)) {
        throw invalid(
          `in ${JSON.stringify(segment)}: a parameter is a whole segment, :name, and a pattern has no query`,
        );
      }
      return segment
        .split(/\*+/)
        .map((text) => text.replace(REGEXP_SPECIAL, '\\$&'))
        .join('.*');
    })
    .join('/');
  const regexp = new RegExp(`^${source}/?$`, 'i');
  return (path) => {
    const values = regexp.exec(path)?.slice(1);
    if (!values) return undefined;
    try {
      return Object.fromEntries(
        names.map((name, index) => [name, decodeURIComponent(values[index]!)]),
      );
    } catch {
      // A malformed %-escape cannot name any record.
      return undefined;
    }
  };
}

// Each route with its compiled path, in the table's order.
const MATCHERS = ROUTES.map((route) => ({ route, match: compilePath(route.path) }));

/** The route for a request and its path parameters, if any route matches. */
export function findRoute(
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | undefined {
  // Patterns forgive a trailing `/`; the API does not, so an SDK that sent `/v1/recognitions/`
  // for an empty id gets 404 here rather than the list.
  if (path.endsWith('/')) return undefined;
  for (const { route, match } of MATCHERS) {
    if (route.method !== method) continue;
    const params = match(path);
    if (params) return { route, params };
  }
  return undefined;
}
