import * as z from 'zod/mini';
import type { ApiPromise } from '../core/api-promise.js';
import type { PageParams, PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/config.js';
import {
  ApiResource,
  type DataResponse,
  dataSchema,
  pageSchema,
  pathId,
} from '../core/resource.js';
import { integer } from '../core/validation.js';
import { boolean, listParams, pageParamsSchema, recordId, timestamp } from './shared.js';

/**
 * Something users can obtain for points. Every field is the contract's assumption: the service
 * description does not show the reward record (docs/assumptions.md).
 *
 * Fields the service adds later stay on the object at run time but are not part of this type; to
 * read one, name it in a cast: `(reward as Reward & { stock?: number }).stock`.
 */
export interface Reward {
  /** The reward's id: a UUID, lower-case. */
  id: string;
  /** The reward's display name. */
  name: string;
  /** A longer text about the reward, or null when it has none. */
  description: string | null;
  /** What it costs, in points: a whole number, 0 or more. */
  cost: number;
  /** Whether the reward can be obtained now. */
  available: boolean;
  /** When it was added: an ISO 8601 UTC timestamp string, such as `2026-11-21T09:30:00Z`. */
  created_at: string;
}

/** The schema of {@link Reward}; loose, so fields added later are kept. */
export const rewardSchema = z.looseObject({
  id: recordId,
  name: z.string(),
  description: z.nullable(z.string()),
  cost: integer(),
  available: boolean,
  created_at: timestamp,
});

const rewardResponse = dataSchema(rewardSchema);
const rewardPage = pageSchema(rewardSchema);

/** Paging of {@link Rewards.list}; a null field counts as absent. */
export interface RewardListParams extends PageParams {}

/** Rewards: what users can obtain for their points. */
export class Rewards extends ApiResource {
  /**
   * Lists rewards: `GET /v1/rewards`. Await it for the first page, or iterate it with
   * `for await` for every reward of every page.
   */
  list(
    params?: RewardListParams | null,
    options?: RequestOptions | null,
  ): PagePromise<Reward, RewardListParams> {
    return this.requestPage(
      'rewards.list',
      '/v1/rewards',
      pageParamsSchema,
      rewardPage,
      listParams(params),
      options,
    );
  }

  /** Gets one reward: `GET /v1/rewards/{id}`. */
  get(id: string, options?: RequestOptions | null): ApiPromise<DataResponse<Reward>> {
    return this.request(
      'rewards.get',
      () => ({ method: 'GET', path: `/v1/rewards/${pathId(id)}` }),
      rewardResponse,
      options,
    );
  }
}
