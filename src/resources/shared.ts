/**
 * Schema pieces several resources share: how records are read and how lists are paged.
 *
 * The schemas are the SDK's internal statement of the contract: each resource exports a plain
 * interface for customers, and test/types proves the two agree. Responses are checked for shape
 * (types, required fields), not for ranges or formats: the service is the authority on its own
 * values, and how a difference is reported follows the client's `validateResponses`. Inputs are
 * checked fully, before anything is sent.
 */
import * as z from 'zod/mini';
import { PAGE_LIMIT_MAX, PAGE_LIMIT_MIN } from '../contract.js';
import type { PageParams } from '../core/pagination.js';
import { integer, rule } from '../core/validation.js';

/** A record id (a UUID on the wire), kept as sent. */
export const recordId = z.string();

/** An ISO 8601 UTC timestamp such as `2026-11-21T09:30:00Z`, kept as the string sent. */
export const timestamp = z.string();

/**
 * A boolean, such as a reward's `available`. Checked by a rule rather than `z.boolean()`, whose
 * schema kind the bundle would carry for these few fields alone (76 bytes of the Client app
 * min+gzip); the messages are zod's own: `is required` when absent, else `must be a boolean`.
 */
export const boolean = z
  .unknown()
  .check(
    rule((value) =>
      typeof value === 'boolean'
        ? undefined
        : value === undefined
          ? 'is required'
          : 'must be a boolean',
    ),
  ) as z.ZodMiniType<boolean, boolean>;

// Any UUID layout (versions and variants alike), as the service's ids may take any.
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** A record id given as input: a string in UUID form. */
export const uuidParam = z
  .string()
  .check(rule((id) => (UUID.test(id) ? undefined : 'must be a UUID')));

/** The paging parameters of every paginated list (contract §4, §5), to spread into a list's params. */
export const pageParamsShape = {
  page: z.optional(integer(1)),
  limit: z.optional(integer(PAGE_LIMIT_MIN, PAGE_LIMIT_MAX)),
  cursor: z.optional(
    z
      .string()
      .check(rule((cursor) => (cursor === '' ? 'must have at least 1 character' : undefined))),
  ),
};

/** The params of a list that takes paging parameters only, such as `users.list()`. */
export const pageParamsSchema = z.strictObject(pageParamsShape);

/**
 * A list's params as the core pages through them: none (`undefined` or `null`) is no params, and
 * a null field is an absent one, so neither is sent nor carried to the next page. Anything but a
 * plain object goes to the schema as it is, to be reported there.
 */
export function listParams<Params extends PageParams>(params: Params | null | undefined): Params {
  if (params === null || params === undefined) return {} as Params;
  if (typeof params !== 'object' || Array.isArray(params)) return params;
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== null)) as Params;
}
