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
import { listParams, pageParamsSchema, recordId, timestamp } from './shared.js';

/**
 * A group of users. Every field is the contract's assumption: the service description does not
 * show the team record (docs/assumptions.md).
 *
 * Fields the service adds later stay on the object at run time but are not part of this type; to
 * read one, name it in a cast: `(team as Team & { lead_id?: string }).lead_id`.
 */
export interface Team {
  /** The team's id: a UUID, lower-case. */
  id: string;
  /** The team's display name. */
  name: string;
  /** A longer text about the team, or null when it has none. */
  description: string | null;
  /** How many users belong to it: a whole number, 0 or more. */
  member_count: number;
  /** When it was created: an ISO 8601 UTC timestamp string, such as `2026-11-21T09:30:00Z`. */
  created_at: string;
}

/** The schema of {@link Team}; loose, so fields added later are kept. */
export const teamSchema = z.looseObject({
  id: recordId,
  name: z.string(),
  description: z.nullable(z.string()),
  member_count: integer(),
  created_at: timestamp,
});

const teamResponse = dataSchema(teamSchema);
const teamPage = pageSchema(teamSchema);

/** Paging of {@link Teams.list}; a null field counts as absent. */
export interface TeamListParams extends PageParams {}

/** Teams: groups of users. */
export class Teams extends ApiResource {
  /**
   * Lists teams: `GET /v1/teams`. Await it for the first page, or iterate it with `for await`
   * for every team of every page.
   */
  list(
    params?: TeamListParams | null,
    options?: RequestOptions | null,
  ): PagePromise<Team, TeamListParams> {
    return this.requestPage(
      'teams.list',
      '/v1/teams',
      pageParamsSchema,
      teamPage,
      listParams(params),
      options,
    );
  }

  /** Gets one team: `GET /v1/teams/{id}`. */
  get(id: string, options?: RequestOptions | null): ApiPromise<DataResponse<Team>> {
    return this.request(
      'teams.get',
      () => ({ method: 'GET', path: `/v1/teams/${pathId(id)}` }),
      teamResponse,
      options,
    );
  }
}
