import * as z from 'zod/mini';
import type { ApiPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request.js';
import { integer } from '../core/validation.js';
import { ApiResource, dataSchema, pageSchema, pathId } from '../core/resource.js';
import { pageParams, recordId, timestamp } from './shared.js';

const teamSchema = z.looseObject({
  id: recordId,
  name: z.string(),
  description: z.nullable(z.string()),
  /** Whole number, 0 or more. */
  member_count: integer(),
  /** ISO 8601, UTC. */
  created_at: timestamp,
});

const teamResponse = dataSchema(teamSchema);
const teamPage = pageSchema(teamSchema);

/** A group of users. */
export interface Team extends z.output<typeof teamSchema> {}

/** Paging of {@link Teams.list}. */
export interface TeamListParams extends z.input<typeof pageParams> {}

/** Teams: groups of users. */
export class Teams extends ApiResource {
  /**
   * Lists teams: `GET /v1/teams`. Await it for the first page, or iterate it with `for await`
   * for every team of every page.
   */
  list(params: TeamListParams = {}, options?: RequestOptions): PagePromise<Team, TeamListParams> {
    return this.requestPage('/v1/teams', pageParams, teamPage, params, options);
  }

  /** Gets one team: `GET /v1/teams/{id}`. */
  get(id: string, options?: RequestOptions): ApiPromise<{ data: Team }> {
    return this.request(
      () => ({ method: 'GET', path: `/v1/teams/${pathId(id)}` }),
      teamResponse,
      options,
    );
  }
}
