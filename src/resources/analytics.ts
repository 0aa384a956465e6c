import * as z from 'zod/mini';
import { DEFAULT_PERIOD, PERIOD_MAX_DAYS } from '../contract.js';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/config.js';
import { ApiResource, type DataResponse, dataSchema } from '../core/resource.js';
import { integer, parseQuery, rule } from '../core/validation.js';

/**
 * Recognition statistics for a period. The service description shows `total_recognitions` and
 * `participation_rate`; `period` and `total_points` are the contract's assumptions
 * (docs/assumptions.md).
 *
 * Fields the service adds later stay on the object at run time but are not part of this type; to
 * read one, name it in a cast: `(summary as AnalyticsSummary & { median_points?: number }).median_points`.
 */
export interface AnalyticsSummary {
  /** The period summarized: a number of days followed by `d`, such as `30d`. */
  period: string;
  /** Recognitions given in the period: a whole number. */
  total_recognitions: number;
  /** The share of users who took part in the period, in percent: a number from 0 to 100. */
  participation_rate: number;
  /** Points given in the period: a whole number. */
  total_points: number;
}

/** The schema of {@link AnalyticsSummary}; loose, so fields added later are kept. */
export const analyticsSummarySchema = z.looseObject({
  period: z.string(),
  total_recognitions: integer(),
  participation_rate: z.number(),
  total_points: integer(),
});

const summaryResponse = dataSchema(analyticsSummarySchema);

/** The schema of the query of `GET /v1/analytics/summary`: `period`, `<N>d` with N from 1 to 365. */
export const analyticsParamsSchema = z.strictObject({
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

/** Analytics: aggregated recognition statistics. */
export class Analytics extends ApiResource {
  /**
   * Gets the recognition statistics of a period: `GET /v1/analytics/summary?period=30d`.
   *
   * @param period `<N>d` with N from 1 to 365; absent or null, `30d`.
   */
  summary(
    period?: string | null,
    options?: RequestOptions | null,
  ): ApiPromise<DataResponse<AnalyticsSummary>> {
    return this.request(
      'analytics.summary',
      () => ({
        method: 'GET',
        path: '/v1/analytics/summary',
        query: parseQuery(analyticsParamsSchema, { period: period ?? DEFAULT_PERIOD }),
      }),
      summaryResponse,
      options,
    );
  }
}
