import * as z from 'zod/mini';
import type { ApiPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request.js';
import { integer } from '../core/validation.js';
import {
  ApiResource,
  type DataResponse,
  dataSchema,
  pageSchema,
  pathId,
} from '../core/resource.js';
import { pageParams, recordId, timestamp } from './shared.js';

const rewardSchema = z.looseObject({
  /** The reward's id: a UUID, lower-case. */
  id: recordId,
  /** The reward's display name. */
  name: z.string(),
  /** A longer text about the reward, or null when it has none. */
  description: z.nullable(z.string()),
  /** What it costs, in points: a whole number, 0 or more. */
  cost: integer(),
  /** Whether the reward can be obtained now. */
  available: z.boolean(),
  /** When it was added: ISO 8601, UTC, such as `2026-11-21T09:30:00Z`. */
  created_at: timestamp,
});

const rewardResponse = dataSchema(rewardSchema);
const rewardPage = pageSchema(rewardSchema);

/** Something users can obtain for points; `cost` is in points. */
export interface Reward extends z.output<typeof rewardSchema> {}

/** Paging of {@link Rewards.list}. */
export interface RewardListParams extends z.input<typeof pageParams> {}

/** Rewards: what users can obtain for their points. */
export class Rewards extends ApiResource {
  /**
   * Lists rewards: `GET /v1/rewards`. Await it for the first page, or iterate it with
   * `for await` for every reward of every page.
   */
  list(
    params: RewardListParams = {},
    options?: RequestOptions,
  ): PagePromise<Reward, RewardListParams> {
    return this.requestPage('/v1/rewards', pageParams, rewardPage, params, options);
  }

  /** Gets one reward: `GET /v1/rewards/{id}`. */
  get(id: string, options?: RequestOptions): ApiPromise<DataResponse<Reward>> {
    return this.request(
      () => ({ method: 'GET', path: `/v1/rewards/${pathId(id)}` }),
      rewardResponse,
      options,
    );
  }
}
