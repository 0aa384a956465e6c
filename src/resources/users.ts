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
import { integer, openEnum } from '../core/validation.js';
import { listParams, pageParamsSchema, recordId, timestamp } from './shared.js';

/**
 * A member of the organization. Every field is the contract's assumption: the service
 * description does not show the user record (docs/assumptions.md).
 *
 * Fields the service adds later stay on the object at run time but are not part of this type; to
 * read one, name it in a cast: `(user as User & { pronouns?: string }).pronouns`.
 */
export interface User {
  /** The user's id: a UUID, lower-case. */
  id: string;
  /** The user's display name. */
  name: string;
  /** The user's email address. */
  email: string;
  /** What the user may do: `admin`, `manager` or `member`; may gain values later. */
  role: 'admin' | 'manager' | 'member' | (string & {});
  /** Whether the user can take part: `active` or `deactivated`; may gain values later. */
  status: 'active' | 'deactivated' | (string & {});
  /** The id (a UUID) of the user's team, or null when they belong to none. */
  team_id: string | null;
  /** Points the user holds: a whole number. */
  points_balance: number;
  /** When the user was created: an ISO 8601 UTC timestamp string, such as `2026-11-21T09:30:00Z`. */
  created_at: string;
}

/** The schema of {@link User}; loose, so fields added later are kept. */
export const userSchema = z.looseObject({
  id: recordId,
  name: z.string(),
  email: z.string(),
  role: openEnum(['admin', 'manager', 'member']),
  status: openEnum(['active', 'deactivated']),
  team_id: z.nullable(recordId),
  points_balance: integer(),
  created_at: timestamp,
});

const userResponse = dataSchema(userSchema);
const userPage = pageSchema(userSchema);

/** Paging of {@link Users.list}; a null field counts as absent. */
export interface UserListParams extends PageParams {}

/** Users: the members of the organization. */
export class Users extends ApiResource {
  /**
   * Lists users: `GET /v1/users`. Await it for the first page, or iterate it with `for await`
   * for every user of every page.
   */
  list(
    params?: UserListParams | null,
    options?: RequestOptions | null,
  ): PagePromise<User, UserListParams> {
    return this.requestPage(
      'users.list',
      '/v1/users',
      pageParamsSchema,
      userPage,
      listParams(params),
      options,
    );
  }

  /** Gets one user: `GET /v1/users/{id}`. */
  get(id: string, options?: RequestOptions | null): ApiPromise<DataResponse<User>> {
    return this.request(
      'users.get',
      () => ({ method: 'GET', path: `/v1/users/${pathId(id)}` }),
      userResponse,
      options,
    );
  }
}
