import type { Scope } from '../contract.js';
import type { Operation } from './operation.js';
import { analyticsSummary } from './operations/analytics.js';
import { getBudget, listBudgets } from './operations/budgets.js';
import {
  getReward,
  getTeam,
  getUser,
  listRewards,
  listTeams,
  listUsers,
} from './operations/directory.js';
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
import { matchPath } from './route-pattern.js';

/** One operation of the API: its method, path pattern and the scope it needs (contract §2, §4). */
export interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  scope: Scope;
  operation: Operation;
}

/** The 18 operations. Their `method path` is also how faults name a route. */
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
  { method: 'GET', path: '/v1/users', scope: 'users:read', operation: listUsers },
  { method: 'GET', path: '/v1/users/:id', scope: 'users:read', operation: getUser },
  { method: 'GET', path: '/v1/rewards', scope: 'rewards:read', operation: listRewards },
  { method: 'GET', path: '/v1/rewards/:id', scope: 'rewards:read', operation: getReward },
  { method: 'GET', path: '/v1/teams', scope: 'teams:read', operation: listTeams },
  { method: 'GET', path: '/v1/teams/:id', scope: 'teams:read', operation: getTeam },
  { method: 'GET', path: '/v1/webhooks', scope: 'webhooks:read', operation: listWebhooks },
  { method: 'POST', path: '/v1/webhooks', scope: 'webhooks:write', operation: createWebhook },
  { method: 'GET', path: '/v1/webhooks/:id', scope: 'webhooks:read', operation: getWebhook },
  { method: 'PATCH', path: '/v1/webhooks/:id', scope: 'webhooks:write', operation: updateWebhook },
  { method: 'DELETE', path: '/v1/webhooks/:id', scope: 'webhooks:write', operation: deleteWebhook },
  { method: 'GET', path: '/v1/budgets', scope: 'budgets:read', operation: listBudgets },
  { method: 'GET', path: '/v1/budgets/:id', scope: 'budgets:read', operation: getBudget },
  {
    method: 'GET',
    path: '/v1/analytics/summary',
    scope: 'analytics:read',
    operation: analyticsSummary,
  },
];

/** The route for a request and its path parameters, if any route matches. */
export function findRoute(
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | undefined {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const params = matchPath(route.path, path);
    if (params) return { route, params };
  }
  return undefined;
}
