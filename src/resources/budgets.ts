import * as z from 'zod/mini';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request.js';
import { integer } from '../core/validation.js';
import { ApiResource, type DataResponse, dataSchema, pathId } from '../core/resource.js';
import { openEnum, recordId, timestamp } from './shared.js';

const budgetSchema = z.looseObject({
  /** The budget's id: a UUID, lower-case. */
  id: recordId,
  /** The id (a UUID) of the team the budget belongs to, or null for the whole organization. */
  team_id: z.nullable(recordId),
  /** How long the budget runs: `monthly`, `quarterly` or `annual`; may gain values later. */
  period: openEnum<'monthly' | 'quarterly' | 'annual'>(),
  /** Points to give in the period: a whole number, 0 or more. */
  total_points: integer(),
  /** Points already given in the period: a whole number, 0 or more. */
  used_points: integer(),
  /** Points still to give in the period: a whole number, 0 or more. */
  remaining_points: integer(),
  /** When the period starts: ISO 8601, UTC, such as `2026-11-01T00:00:00Z`. */
  starts_at: timestamp,
  /** When the period ends: ISO 8601, UTC. */
  ends_at: timestamp,
});

const budgetResponse = dataSchema(budgetSchema);
const budgetListResponse = dataSchema(z.array(budgetSchema));

/**
 * Points to give during a period, for a team or for the organization (`team_id: null`).
 * `period` may take values added later.
 */
export interface Budget extends z.output<typeof budgetSchema> {}

/** Budgets: the points available for recognitions in a period. */
export class Budgets extends ApiResource {
  /** Lists every budget: `GET /v1/budgets`. Not paginated: one answer holds them all. */
  list(options?: RequestOptions): ApiPromise<DataResponse<Budget[]>> {
    return this.request(
      () => ({ method: 'GET', path: '/v1/budgets' }),
      budgetListResponse,
      options,
    );
  }

  /** Gets one budget: `GET /v1/budgets/{id}`. */
  get(id: string, options?: RequestOptions): ApiPromise<DataResponse<Budget>> {
    return this.request(
      () => ({ method: 'GET', path: `/v1/budgets/${pathId(id)}` }),
      budgetResponse,
      options,
    );
  }
}
