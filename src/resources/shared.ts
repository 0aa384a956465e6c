/**
 * Schema pieces several resources share: how records are read and how lists are paged.
 *
 * Responses are checked for shape (types, required fields), not for ranges or formats: the
 * service is the authority on its own values, and a stricter check would only turn a harmless
 * difference into a failure in customer code. Inputs are checked fully, before anything is sent.
 */
import * as z from 'zod/mini';
import { PAGE_LIMIT_MAX, PAGE_LIMIT_MIN } from '../contract.js';
import { integer, rule } from '../core/validation.js';

/**
 * An enumeration the service may extend (contract §3): any string parses, so a value added later
 * never fails a response, while the type still offers the known values for completion.
 */
export function openEnum<Known extends string>(): z.ZodMiniType<Known | (string & {})> {
  return z.string();
}

/** A record id (a UUID on the wire), kept as sent. */
export const recordId = z.string();

/** An ISO 8601 UTC timestamp such as `2026-11-21T09:30:00Z`, kept as the string sent. */
export const timestamp = z.string();

// Any UUID layout (versions and variants alike), as the service's ids may take any.
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** A record id given as input: a string in UUID form. */
export const uuidParam = z
  .string()
  .check(rule((id) => (UUID.test(id) ? undefined : 'must be a UUID')));

/** The paging parameters of every paginated list (contract §4, §5), to spread into a list's params. */
export const pageParamsShape = {
  /** Page number, from 1 (the default). Asking for a page switches the list to page mode. */
  page: z.optional(integer(1)),
  /** Records per page, 1–100; the service's default is 20. */
  limit: z.optional(integer(PAGE_LIMIT_MIN, PAGE_LIMIT_MAX)),
  /** The opaque `next_cursor` of an earlier page, to continue from there. */
  cursor: z.optional(
    z
      .string()
      .check(rule((cursor) => (cursor === '' ? 'must have at least 1 character' : undefined))),
  ),
};

/** The params of a list that takes paging parameters only. */
export const pageParams = z.strictObject(pageParamsShape);
