import type * as z from 'zod/mini';
import {
  type ErrorDetail,
  InvalidResponseError,
  type ResponseIssue,
  UnprocessableEntityError,
} from './errors.js';
import { type ApiRequest, NotJson, type RawResponse } from './request.js';

type Issue = z.core.$ZodIssue;

/**
 * Checks a method's input against its schema before anything is sent. A failure is the same
 * UnprocessableEntityError the service would answer, with `local: true` and a detail per field.
 */
export function parseInput<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  // reportInput: zod drops `input` from issues otherwise, and describe() needs it to tell
  // "is required" from "must be an integer".
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const details = result.error.issues.flatMap(toDetails);
  throw new UnprocessableEntityError({
    status: 422,
    code: 'validation_error',
    message: details.map((detail) => `${detail.field}: ${detail.message}`).join('; '),
    details,
    local: true,
  });
}

/** Checks a 2xx body against the contract's shape, naming each mismatch by its path in the body. */
export function parseResponse<S extends z.ZodMiniType>(
  schema: S,
  raw: RawResponse,
  request: ApiRequest,
): z.output<S> {
  const { response, body } = raw;
  const result =
    body instanceof NotJson ? undefined : schema.safeParse(body, { reportInput: true });
  if (result?.success) return result.data;
  const issues: ResponseIssue[] = result
    ? result.error.issues.map((issue) => ({ path: pathOf(issue.path), message: describe(issue) }))
    : [{ path: '(body)', message: 'is not JSON' }];
  const summary = issues.map((issue) => `${issue.path} ${issue.message}`).join('; ');
  throw new InvalidResponseError({
    message: `Unexpected response to ${request.method} ${request.path} (status ${response.status}): ${summary}`,
    status: response.status,
    requestId: response.headers.get('x-request-id') ?? undefined,
    issues,
  });
}

function toDetails(issue: Issue): ErrorDetail[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({
      field: pathOf([...issue.path, key]),
      message: 'is not a parameter of this operation',
    }));
  }
  return [{ field: pathOf(issue.path), message: describe(issue) }];
}

function pathOf(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(root)' : path.map(String).join('.');
}

const FORMAT_NAMES: Record<string, string> = {
  guid: 'a UUID',
  uuid: 'a UUID',
  url: 'an https URL',
  date: 'an ISO 8601 date',
  datetime: 'an ISO 8601 date-time',
  regex: 'in the expected form',
};

/** A short English reason. Schemas give their own where the generic one would be vague. */
function describe(issue: Issue): string {
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${article(issue.expected)}`;
    case 'invalid_format':
      return `must be ${FORMAT_NAMES[issue.format] ?? issue.format}`;
    case 'too_small':
      return issue.origin === 'string' || issue.origin === 'array'
        ? `must have at least ${issue.minimum} ${issue.origin === 'string' ? 'character' : 'item'}${issue.minimum === 1 ? '' : 's'}`
        : `must be at least ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array'
        ? `must have at most ${issue.maximum} ${issue.origin === 'string' ? 'characters' : 'items'}`
        : `must be at most ${issue.maximum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    default:
      return 'is invalid';
  }
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}
