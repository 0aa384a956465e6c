import * as z from 'zod/mini';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/config.js';
import { ApiResource, type DataResponse, dataSchema, pathId } from '../core/resource.js';
import { integer, openEnum } from '../core/validation.js';
import { recordId, timestamp } from './shared.js';

/**
 * Points to give during a period, for a team or for the whole organization. Every field is the
 * contract's assumption: the service description does not show the budget record
 * (docs/assumptions.md).
 *
 * Fields the service adds later stay on the object at run time but are not part of this type; to
 * read one, name it in a cast: `(budget as Budget & { currency?: string }).currency`.
 */
export interface Budget {
  /** The budget's id: a UUID, lower-case. */
  id: string;
  /** The id (a UUID) of the team the budget belongs to, or null for the whole organization. */
  team_id: string | null;
  /** How long the budget runs: `monthly`, `quarterly` or `annual`; may gain values later. */
  period: 'monthly' | 'quarterly' | 'annual' | (string & {});
  /** Points to give in the period: a whole number, 0 or more. */
  total_points: number;
  /** Points already given in the period: a whole number, 0 or more. */
  used_points: number;
  /** Points still to give in the period: a whole number, 0 or more. */
  remaining_points: number;
  /** When the period starts: an ISO 8601 UTC timestamp string, such as `2026-11-01T00:00:00Z`. */
  starts_at: string;
  /** When the period ends: an ISO 8601 UTC timestamp string, such as `2026-11-30T23:59:59Z`. */
  ends_at: string;
}

/** The schema of {@link Budget}; loose, so fields added later are kept. */
export const budgetSchema = z.looseObject({
  id: recordId,
  team_id: z.nullable(recordId),
  period: openEnum(['monthly', 'quarterly', 'annual']),
  total_points: integer(),
  used_points: integer(),
  remaining_points: integer(),
  starts_at: timestamp,
  ends_at: timestamp,
});

const budgetResponse = dataSchema(budgetSchema);
const budgetListResponse = dataSchema(z.array(budgetSchema));

/** Budgets: the points available for recognitions in a period. */
export class Budgets extends ApiResource {
  /** Lists every budget: `GET /v1/budgets`. Not paginated: one answer holds them all. */
  list(options?: RequestOptions | null): ApiPromise<DataResponse<Budget[]>> {
    return this.request(
      'budgets.list',
      () => ({ method: 'GET', path: '/v1/budgets' }),
      budgetListResponse,
      options,
    );
  }

  /** Gets one budget: `GET /v1/budgets/{id}`. */
  get(id: string, options?: RequestOptions | null): ApiPromise<DataResponse<Budget>> {
    return this.request(
      'budgets.get',
      () => ({ method: 'GET', path: `/v1/budgets/${pathId(id)}` }),
      budgetResponse,
      options,
    );
  }
}
