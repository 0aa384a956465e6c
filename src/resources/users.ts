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
import { openEnum, pageParams, recordId, timestamp } from './shared.js';

const userSchema = z.looseObject({
  /** The user's id: a UUID, lower-case. */
  id: recordId,
  /** The user's display name. */
  name: z.string(),
  /** The user's email address. */
  email: z.string(),
  /** `admin`, `manager` or `member`; may gain values later. */
  role: openEnum<'admin' | 'manager' | 'member'>(),
  /** `active` or `deactivated`; may gain values later. */
  status: openEnum<'active' | 'deactivated'>(),
  /** The id (a UUID) of the user's team, or null when they belong to none. */
  team_id: z.nullable(recordId),
  /** Points the user holds: a whole number. */
  points_balance: integer(),
  /** When the user was created: ISO 8601, UTC, such as `2026-11-21T09:30:00Z`. */
  created_at: timestamp,
});

const userResponse = dataSchema(userSchema);
const userPage = pageSchema(userSchema);

/** A member of the organization. `role` and `status` may take values added later. */
export interface User extends z.output<typeof userSchema> {}

/** Paging of {@link Users.list}. */
export interface UserListParams extends z.input<typeof pageParams> {}

/** Users: the members of the organization. */
export class Users extends ApiResource {
  /**
   * Lists users: `GET /v1/users`. Await it for the first page, or iterate it with `for await`
   * for every user of every page.
   */
  list(params: UserListParams = {}, options?: RequestOptions): PagePromise<User, UserListParams> {
    return this.requestPage('/v1/users', pageParams, userPage, params, options);
  }

  /** Gets one user: `GET /v1/users/{id}`. */
  get(id: string, options?: RequestOptions): ApiPromise<DataResponse<User>> {
    return this.request(
      () => ({ method: 'GET', path: `/v1/users/${pathId(id)}` }),
      userResponse,
      options,
    );
  }
}
