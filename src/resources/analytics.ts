import * as z from 'zod/mini';
import { DEFAULT_PERIOD, PERIOD_MAX_DAYS } from '../contract.js';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request.js';
import { ApiResource, type DataResponse, dataSchema } from '../core/resource.js';
import { integer, parseInput, rule } from '../core/validation.js';

const summarySchema = z.looseObject({
  /** The period summarized, such as `30d`. */
  period: z.string(),
  /** Recognitions given in the period. */
  total_recognitions: integer(),
  /** A percentage, 0–100. */
  participation_rate: z.number(),
  /** Points given in the period. */
  total_points: integer(),
});

const summaryResponse = dataSchema(summarySchema);

const summaryParamsSchema = z.strictObject({
  period: z
    .string()
    .check(
      rule((period) =>
        /^[1-9]\d{0,2}d$/.test(period) && Number.parseInt(period, 10) <= PERIOD_MAX_DAYS
          ? undefined
          : `must be <N>d with N from 1 to ${PERIOD_MAX_DAYS}, such as "30d"`,
      ),
    ),
});

/** Recognition statistics for a period; `participation_rate` is a percentage (0–100). */
export interface AnalyticsSummary extends z.output<typeof summarySchema> {}

/** Analytics: aggregated recognition statistics. */
export class Analytics extends ApiResource {
  /**
   * Gets the recognition statistics of a period: `GET /v1/analytics/summary?period=30d`.
   *
   * @param period `<N>d` with N from 1 to 365; defaults to `30d`.
   */
  summary(
    period: string = DEFAULT_PERIOD,
    options?: RequestOptions,
  ): ApiPromise<DataResponse<AnalyticsSummary>> {
    return this.request(
      () => ({
        method: 'GET',
        path: '/v1/analytics/summary',
        query: parseInput(summaryParamsSchema, { period }),
      }),
      summaryResponse,
      options,
    );
  }
}
