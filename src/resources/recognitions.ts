import * as z from 'zod/mini';
import { MESSAGE_MAX_LENGTH, POINTS_MAX } from '../contract.js';
import type { ApiPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request.js';
import {
  ApiResource,
  type DataResponse,
  dataSchema,
  pageSchema,
  pathId,
} from '../core/resource.js';
import { integer, parseInput, rule } from '../core/validation.js';
import { pageParamsShape, recordId, timestamp, uuidParam } from './shared.js';

const participantSchema = z.looseObject({
  /** The user's id: a UUID, lower-case. */
  id: recordId,
  /** The user's display name. */
  name: z.string(),
});

const recognitionSchema = z.looseObject({
  /** The recognition's id: a UUID, lower-case. */
  id: recordId,
  /** Who gave it: the owner of the credential that created it. */
  sender: participantSchema,
  /** Who received it. */
  recipient: participantSchema,
  /** The text of the praise, as sent: 1–500 characters after trimming. */
  message: z.string(),
  /** Points given with it: a whole number, 0 or more. */
  points: integer(),
  /** When it was given: ISO 8601, UTC, such as `2026-11-21T09:30:00Z`. */
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
  z.overwrite((value) =>
    value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : value,
  ),
  rule((value) =>
    typeof value === 'string' && ISO_DATE_OR_DATE_TIME.test(value) ? undefined : DATE_PARAM_ERROR,
  ),
) as z.ZodMiniType<string, Date | string>;

const listParamsSchema = z.strictObject({
  ...pageParamsShape,
  /** Earliest `created_at`, inclusive: a Date or an ISO 8601 date or date-time. */
  from: z.optional(dateParam),
  /** Latest `created_at`, inclusive: a Date or an ISO 8601 date or date-time. */
  to: z.optional(dateParam),
  /** Only recognitions given by this user (a UUID). */
  sender_id: z.optional(uuidParam),
  /** Only recognitions received by this user (a UUID). */
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

const createParamsSchema = z.strictObject({
  /** The user to recognize (a UUID); not the sender, who is the credential's owner. */
  recipient_id: uuidParam,
  /** 1–500 characters after trimming; sent as given. */
  message: messageParam,
  /** A whole number from 0 to 1000; the service uses 0 when absent. */
  points: z.optional(integer(0, POINTS_MAX)),
});

const recognitionResponse = dataSchema(recognitionSchema);
const recognitionPage = pageSchema(recognitionSchema);

/** A user as a recognition names them: its sender or its recipient. */
export interface RecognitionParticipant extends z.output<typeof participantSchema> {}

/** A message with points from one user (the credential's owner) to another. */
export interface Recognition extends z.output<typeof recognitionSchema> {
  /** Who gave it: the owner of the credential that created it. */
  sender: RecognitionParticipant;
  /** Who received it. */
  recipient: RecognitionParticipant;
}

/**
 * Filters and paging of {@link Recognitions.list}. `from` and `to` bound `created_at`
 * inclusively; each takes a Date or an ISO 8601 date or date-time string.
 */
export interface RecognitionListParams extends z.input<typeof listParamsSchema> {}

/**
 * The body of {@link Recognitions.create}: `message` has 1–500 characters after trimming,
 * `points` is a whole number from 0 to 1000 (the service uses 0 when absent).
 */
export interface RecognitionCreateParams extends z.input<typeof createParamsSchema> {}

/** Recognitions: sending, listing and withdrawing praise between users. */
export class Recognitions extends ApiResource {
  /**
   * Lists recognitions: `GET /v1/recognitions`. Await it for the first page, or iterate it with
   * `for await` for every recognition of every page; filters apply to every page.
   */
  list(
    params: RecognitionListParams = {},
    options?: RequestOptions,
  ): PagePromise<Recognition, RecognitionListParams> {
    return this.requestPage('/v1/recognitions', listParamsSchema, recognitionPage, params, options);
  }

  /** Gets one recognition: `GET /v1/recognitions/{id}`. */
  get(id: string, options?: RequestOptions): ApiPromise<DataResponse<Recognition>> {
    return this.request(
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
    options?: RequestOptions,
  ): ApiPromise<DataResponse<Recognition>> {
    return this.request(
      () => ({
        method: 'POST',
        path: '/v1/recognitions',
        body: parseInput(createParamsSchema, params),
      }),
      recognitionResponse,
      options,
    );
  }

  /** Deletes a recognition: `DELETE /v1/recognitions/{id}`. Resolves to nothing (204). */
  delete(id: string, options?: RequestOptions): ApiPromise<void> {
    return this.request(
      () => ({ method: 'DELETE', path: `/v1/recognitions/${pathId(id)}` }),
      null,
      options,
    );
  }
}
