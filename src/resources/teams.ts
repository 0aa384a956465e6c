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

const teamSchema = z.looseObject({
  /** The team's id: a UUID, lower-case. */
  id: recordId,
  /** The team's display name. */
  name: z.string(),
  /** A longer text about the team, or null when it has none. */
  description: z.nullable(z.string()),
  /** How many users belong to it: a whole number, 0 or more. */
  member_count: integer(),
  /** When it was created: ISO 8601, UTC, such as `2026-11-21T09:30:00Z`. */
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
  get(id: string, options?: RequestOptions): ApiPromise<DataResponse<Team>> {
    return this.request(
      () => ({ method: 'GET', path: `/v1/teams/${pathId(id)}` }),
      teamResponse,
      options,
    );
  }
}
