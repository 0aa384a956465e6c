import * as z from 'zod/mini';
import type { ApiPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request.js';
import { integer } from '../core/validation.js';
import { ApiResource, dataSchema, pageSchema, pathId } from '../core/resource.js';
import { openEnum, pageParams, recordId, timestamp } from './shared.js';

const userSchema = z.looseObject({
  id: recordId,
  name: z.string(),
  email: z.string(),
  role: openEnum<'admin' | 'manager' | 'member'>(),
  status: openEnum<'active' | 'deactivated'>(),
  /** The user's team, or null when they belong to none. */
  team_id: z.nullable(recordId),
  /** Whole points the user holds. */
  points_balance: integer(),
  /** ISO 8601, UTC. */
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
  get(id: string, options?: RequestOptions): ApiPromise<{ data: User }> {
    return this.request(
      () => ({ method: 'GET', path: `/v1/users/${pathId(id)}` }),
      userResponse,
      options,
    );
  }
}
