import * as z from 'zod/mini';
import { MESSAGE_MAX_LENGTH, POINTS_MAX } from '../contract.js';
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
import { convert, integer, parseInput, rule } from '../core/validation.js';
import { listParams, pageParamsShape, recordId, timestamp, uuidParam } from './shared.js';

/**
 * A user as a recognition names them: its sender or its recipient. The service description shows
 * `name`; `id` is the contract's assumption. Fields added later stay on the object at run time;
 * see {@link Recognition} for how to read one.
 */
export interface RecognitionParticipant {
  /** The user's id: a UUID, lower-case, such as `3f0c2b9e-8d4a-4c1e-9b7f-1a2b3c4d5e6f`. */
  id: string;
  /** The user's display name. */
  name: string;
}

/**
 * A message with points from one user (the credential's owner) to another. The service
 * description shows `id`, `sender.name`, `recipient.name`, `message` and `points`; the other
 * fields are the contract's assumptions (docs/assumptions.md).
 *
 * Fields the service adds later stay on the object at run time but are not part of this type, so
 * a misspelled field fails to compile. To read one, name it in a cast:
 * `(recognition as Recognition & { mood?: string }).mood`.
 */
export interface Recognition {
  /** The recognition's id: a UUID, lower-case. */
  id: string;
  /** Who gave it: the owner of the credential that created it. */
  sender: RecognitionParticipant;
  /** Who received it. */
  recipient: RecognitionParticipant;
  /** The text of the praise, as sent: 1–500 characters after trimming. */
  message: string;
  /** Points given with it: a whole number, 0 or more. */
  points: number;
  /** When it was given: an ISO 8601 UTC timestamp string, such as `2026-11-21T09:30:00Z`. */
  created_at: string;
}

/** The schema of {@link RecognitionParticipant}; loose, so fields added later are kept. */
export const participantSchema = z.looseObject({
  id: recordId,
  name: z.string(),
});

/** The schema of {@link Recognition}; loose, so fields added later are kept. */
export const recognitionSchema = z.looseObject({
  id: recordId,
  sender: participantSchema,
  recipient: participantSchema,
  message: z.string(),
  points: integer(),
  created_at: timestamp,
});

const DATE_PARAM_ERROR = 'must be a Date or an ISO 8601 date or date-time string';

// An ISO 8601 date, or a date-time with a Z or ±hh:mm offset. One regex rather than zod's two iso
// formats in a union: the same check for a fraction of the bundle size.
const ISO_DATE_OR_DATE_TIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d))?$/;

// A valid Date becomes its ISO string first, so one string check serves both forms. The cast
// declares what the checks guarantee: a Date or a string in, a string out.
const dateParam = z.unknown().check(
  convert((value) =>
    value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : value,
  ),
  rule((value) =>
    typeof value === 'string' && ISO_DATE_OR_DATE_TIME.test(value) ? undefined : DATE_PARAM_ERROR,
  ),
) as z.ZodMiniType<string, Date | string>;

/**
 * Filters and paging of {@link Recognitions.list}. Filters apply to every page; a null field
 * counts as absent.
 */
export interface RecognitionListParams extends PageParams {
  /** Earliest `created_at`, inclusive: a Date, or an ISO 8601 date (`2026-11-01`) or date-time. */
  from?: Date | string | undefined;
  /** Latest `created_at`, inclusive: a Date, or an ISO 8601 date (`2026-11-30`) or date-time. */
  to?: Date | string | undefined;
  /** Only recognitions given by this user: a UUID. */
  sender_id?: string | undefined;
  /** Only recognitions received by this user: a UUID. */
  recipient_id?: string | undefined;
}

/** The schema of {@link RecognitionListParams}: the query of `GET /v1/recognitions`. */
export const recognitionListParamsSchema = z.strictObject({
  ...pageParamsShape,
  from: z.optional(dateParam),
  to: z.optional(dateParam),
  sender_id: z.optional(uuidParam),
  recipient_id: z.optional(uuidParam),
});

// Lengths count code points after trimming, the lenient reading: the SDK must not refuse a
// message the service accepts. What is sent is the message as given, untrimmed.
const messageParam = z
  .string()
  .check(
    rule((message) =>
      message.trim() === ''
        ? 'must not be empty or only whitespace'
        : [...message.trim()].length > MESSAGE_MAX_LENGTH
          ? `must have at most ${MESSAGE_MAX_LENGTH} characters after trimming`
          : undefined,
    ),
  );

/** The body of {@link Recognitions.create}. */
export interface RecognitionCreateParams {
  /** The user to recognize: a UUID. Not the sender, who is the credential's owner. */
  recipient_id: string;
  /** The text of the praise: 1–500 characters after trimming; sent as given. */
  message: string;
  /** Points to give: a whole number from 0 to 1000. Absent or null, the service uses 0. */
  points?: number | null | undefined;
}

/** The schema of {@link RecognitionCreateParams}: the body of `POST /v1/recognitions`. */
export const recognitionCreateParamsSchema = z.strictObject({
  recipient_id: uuidParam,
  message: messageParam,
  // Null counts as absent: nothing is sent, and the service uses 0.
  points: z
    .optional(z.nullable(integer(0, POINTS_MAX)))
    .check(convert((points) => points ?? undefined)),
});

const recognitionResponse = dataSchema(recognitionSchema);
const recognitionPage = pageSchema(recognitionSchema);

/** Recognitions: sending, listing and withdrawing praise between users. */
export class Recognitions extends ApiResource {
  /**
   * Lists recognitions: `GET /v1/recognitions`. Await it for the first page, or iterate it with
   * `for await` for every recognition of every page; filters apply to every page.
   */
  list(
    params?: RecognitionListParams | null,
    options?: RequestOptions | null,
  ): PagePromise<Recognition, RecognitionListParams> {
    return this.requestPage(
      'recognitions.list',
      '/v1/recognitions',
      recognitionListParamsSchema,
      recognitionPage,
      listParams(params),
      options,
    );
  }

  /** Gets one recognition: `GET /v1/recognitions/{id}`. */
  get(id: string, options?: RequestOptions | null): ApiPromise<DataResponse<Recognition>> {
    return this.request(
      'recognitions.get',
      () => ({ method: 'GET', path: `/v1/recognitions/${pathId(id)}` }),
      recognitionResponse,
      options,
    );
  }

  /**
   * Recognizes a user: `POST /v1/recognitions`. The sender is the credential's owner. Sent with
   * an Idempotency-Key, so a retried call never recognizes twice.
   */
  create(
    params: RecognitionCreateParams,
    options?: RequestOptions | null,
  ): ApiPromise<DataResponse<Recognition>> {
    return this.request(
      'recognitions.create',
      () => ({
        method: 'POST',
        path: '/v1/recognitions',
        body: parseInput(recognitionCreateParamsSchema, params),
      }),
      recognitionResponse,
      options,
    );
  }

  /** Deletes a recognition: `DELETE /v1/recognitions/{id}`. Resolves to nothing (204). */
  delete(id: string, options?: RequestOptions | null): ApiPromise<void> {
    return this.request(
      'recognitions.delete',
      () => ({ method: 'DELETE', path: `/v1/recognitions/${pathId(id)}` }),
      null,
      options,
    );
  }
}
