import * as z from 'zod/mini';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request.js';
import { integer } from '../core/validation.js';
import { ApiResource, dataSchema, pathId } from '../core/resource.js';
import { openEnum, recordId, timestamp } from './shared.js';

const budgetSchema = z.looseObject({
  id: recordId,
  /** The team the budget belongs to, or null for the whole organization. */
  team_id: z.nullable(recordId),
  period: openEnum<'monthly' | 'quarterly' | 'annual'>(),
  /** Whole points, 0 or more; likewise `used_points` and `remaining_points`. */
  total_points: integer(),
  used_points: integer(),
  remaining_points: integer(),
  /** ISO 8601, UTC; likewise `ends_at`. */
  starts_at: timestamp,
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
  list(options?: RequestOptions): ApiPromise<{ data: Budget[] }> {
    return this.request(
      () => ({ method: 'GET', path: '/v1/budgets' }),
      budgetListResponse,
      options,
    );
  }

  /** Gets one budget: `GET /v1/budgets/{id}`. */
  get(id: string, options?: RequestOptions): ApiPromise<{ data: Budget }> {
    return this.request(
      () => ({ method: 'GET', path: `/v1/budgets/${pathId(id)}` }),
      budgetResponse,
      options,
    );
  }
}
