// The mock speaking the standard variants a real service may use instead of the contract's
// forms (the `dialect` option): other rate-limit headers (rate-limit.ts writes them), RFC 9457
// problem details, RFC 8288 `Link` paging, a skewed `Date`, and record fields under other names.
// docs/testing.md, "Dialects"; the SDK's side is docs/assumptions.md's variants column.
import type { ErrorBody } from '../internal/wire.js';
import type { Answer } from './operation.js';
import type { MockRateLimitHeaders } from './rate-limit.js';

/** A kind of record, named as in the path of its operations. */
export type MockRecordType =
  'recognitions' | 'users' | 'rewards' | 'teams' | 'budgets' | 'webhooks' | 'analytics';

/**
 * How the mock differs from the contract's forms, to test an app (or the SDK, or
 * `employee-recognition doctor`) against a service that speaks a standard variant. Every member
 * is optional; the default of each is the contract's form, so `{}` is the plain mock.
 */
export interface MockDialect {
  /**
   * Which headers carry the rate-limit window: `x-ratelimit` (default, Unix-seconds reset),
   * `x-ratelimit-seconds` (the same names, reset in seconds from now), `ratelimit` (the IETF
   * draft's `RateLimit-Limit`, `-Remaining`, `-Reset`), `ratelimit-structured` (its `RateLimit`
   * and `RateLimit-Policy` fields) or `none`.
   */
  rateLimitHeaders?: MockRateLimitHeaders | undefined;
  /**
   * The error body: `contract` (default, `{ error: { code, message, details } }`) or `problem`,
   * RFC 9457 `application/problem+json` with `type`, `title`, `status`, `detail`, and the field
   * problems in an `errors` member of `{ pointer, detail }` items. It has no `code` member.
   */
  errors?: 'contract' | 'problem' | undefined;
  /**
   * How a list answer leads to the next page: `cursor` (default, `pagination.next_cursor`) or
   * `link`: a `Link: <url>; rel="next"` header (RFC 8288) to the next page, by cursor or by page
   * number as the request was, and no `next_cursor` in the body. `link-only`: the same header,
   * and no `pagination` object at all, as some services page (the SDK's lists need the object).
   */
  pagination?: 'cursor' | 'link' | 'link-only' | undefined;
  /**
   * Seconds the service's clock is off: its `Date` header, the `webhook-timestamp` of its
   * deliveries and the `created_at` of its events are that far ahead (or, negative, behind) of
   * the mock's `now`. Default 0.
   */
  clockSkewSeconds?: number | undefined;
  /**
   * Record fields the answers carry under another name, by kind of record: `{ users: { email:
   * 'mail' } }` sends each user's `email` as `mail`. Top-level fields only; requests still use
   * the contract's names.
   */
  renamedFields?:
    Readonly<Partial<Record<MockRecordType, Readonly<Record<string, string>>>>> | undefined;
}

/** A dialect with its defaults applied and checked. */
export interface ResolvedDialect {
  rateLimitHeaders: MockRateLimitHeaders;
  errors: 'contract' | 'problem';
  pagination: 'cursor' | 'link' | 'link-only';
  clockSkewMs: number;
  renamedFields: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

const RATE_LIMIT_HEADERS: readonly MockRateLimitHeaders[] = [
  'x-ratelimit',
  'x-ratelimit-seconds',
  'ratelimit',
  'ratelimit-structured',
  'none',
];
const RECORD_TYPES: readonly MockRecordType[] = [
  'recognitions',
  'users',
  'rewards',
  'teams',
  'budgets',
  'webhooks',
  'analytics',
];
// A year either way: more is no clock, and a Date header must stay a real date.
const MAX_SKEW_SECONDS = 366 * 24 * 3600;
// RFC 9110 §15's reason phrases of the statuses the mock answers, as a problem's `title`.
const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** Applies the defaults, throwing a TypeError or RangeError that names the member at fault. */
export function resolveDialect(dialect: MockDialect = {}): ResolvedDialect {
  const { rateLimitHeaders = 'x-ratelimit', errors = 'contract', pagination = 'cursor' } = dialect;
  const skew = dialect.clockSkewSeconds ?? 0;
  oneOf('rateLimitHeaders', rateLimitHeaders, RATE_LIMIT_HEADERS);
  oneOf('errors', errors, ['contract', 'problem']);
  oneOf('pagination', pagination, ['cursor', 'link', 'link-only']);
  if (!(typeof skew === 'number' && Math.abs(skew) <= MAX_SKEW_SECONDS)) {
    throw new RangeError(`dialect.clockSkewSeconds must be a number of seconds within a year`);
  }
  const renamedFields = new Map<string, Map<string, string>>();
  for (const [type, fields] of Object.entries(dialect.renamedFields ?? {})) {
    oneOf('renamedFields key', type, RECORD_TYPES);
    const names = new Map<string, string>();
    for (const [from, to] of Object.entries(fields ?? {})) {
      if (typeof to !== 'string' || to === '' || from === '') {
        throw new TypeError(
          `dialect.renamedFields.${type}.${from}: a field is renamed to a non-empty string`,
        );
      }
      names.set(from, to);
    }
    renamedFields.set(type, names);
  }
  return { rateLimitHeaders, errors, pagination, clockSkewMs: skew * 1000, renamedFields };
}

function oneOf<T>(name: string, value: unknown, allowed: readonly T[]): void {
  if (!allowed.includes(value as T)) {
    throw new TypeError(
      `dialect.${name} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}, not ${JSON.stringify(value)}`,
    );
  }
}

/** Where an answer goes: what the dialect needs to rewrite it. */
interface AnswerTarget {
  /** The mock's base URL, without `/v1`. */
  baseUrl: string;
  /** The request's path below the base URL, such as `/v1/users`. */
  path: string;
  query: URLSearchParams;
}

/** `answer` as the dialect says it: the error body, the list's way to the next page, field names. */
export function speakDialect(
  answer: Answer,
  dialect: ResolvedDialect,
  target: AnswerTarget,
): Answer {
  const body = answer.body as Record<string, unknown> | undefined;
  if (typeof body !== 'object' || body === null) return answer;
  if (answer.status >= 400) {
    return dialect.errors === 'problem'
      ? problem(answer, body as unknown as ErrorBody, target)
      : answer;
  }
  let spoken = answer;
  if (dialect.pagination !== 'cursor') {
    spoken = linkPaging(spoken, body, target, dialect.pagination === 'link-only');
  }
  const renames = dialect.renamedFields.get(target.path.split('/')[2] ?? '');
  if (renames?.size) {
    const data = (spoken.body as { data?: unknown }).data;
    const rename = (record: unknown) => renamed(record, renames);
    spoken = {
      ...spoken,
      body: {
        ...(spoken.body as object),
        data: Array.isArray(data) ? data.map(rename) : rename(data),
      },
    };
  }
  return spoken;
}

/** The contract's error body as an RFC 9457 problem, sent as `application/problem+json`. */
function problem(answer: Answer, body: ErrorBody, target: AnswerTarget): Answer {
  const { error } = body;
  if (typeof error !== 'object' || error === null) return answer;
  const problemBody = {
    type: `${target.baseUrl}/problems/${error.code}`,
    title: TITLES[answer.status] ?? `HTTP ${answer.status}`,
    status: answer.status,
    detail: error.message,
    ...(error.details?.length && {
      errors: error.details.map((detail) => ({
        pointer: `#/${detail.field
          .split('.')
          .map((token) => token.replaceAll('~', '~0').replaceAll('/', '~1'))
          .join('/')}`,
        detail: detail.message,
      })),
    }),
  };
  return {
    ...answer,
    body: problemBody,
    headers: { ...answer.headers, 'content-type': 'application/problem+json' },
  };
}

/**
 * A list answer whose next page is named by `Link: rel="next"` instead of `next_cursor`; with
 * `linkOnly`, without its `pagination` object too.
 */
function linkPaging(
  answer: Answer,
  body: Record<string, unknown>,
  target: AnswerTarget,
  linkOnly: boolean,
): Answer {
  const pagination = body.pagination as
    { page: number; total_pages: number; next_cursor?: string | null } | undefined;
  if (typeof pagination !== 'object' || pagination === null) return answer;
  const { next_cursor: cursor, ...rest } = pagination;
  const next = new URLSearchParams(target.query);
  if (typeof cursor === 'string') next.set('cursor', cursor);
  else if (next.has('page') && rest.page < rest.total_pages) {
    next.set('page', String(rest.page + 1));
  }
  const headers = { ...answer.headers };
  // The last page names no next one.
  if (next.toString() !== target.query.toString()) {
    headers.link = `<${target.baseUrl}${target.path}?${next}>; rel="next"`;
  }
  if (!linkOnly) return { ...answer, body: { ...body, pagination: rest }, headers };
  const { pagination: _dropped, ...withoutPagination } = body;
  return { ...answer, body: withoutPagination, headers };
}

/** A record with its fields renamed; anything but an object as it is. */
function renamed(record: unknown, renames: ReadonlyMap<string, string>): unknown {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return record;
  return Object.fromEntries(
    Object.entries(record).map(([name, value]) => [renames.get(name) ?? name, value]),
  );
}
