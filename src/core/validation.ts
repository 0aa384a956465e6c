import * as z from 'zod/mini';
import {
  type ErrorDetail,
  InvalidResponseError,
  type ResponseIssue,
  localValidationError,
} from './errors.js';
import { type ApiRequest, NotJson, type RawResponse } from './request.js';

type Issue = z.core.$ZodIssue;

/**
 * A check that reports the problem `problemOf` finds, or nothing when it returns undefined. Every
 * rule beyond a field's type is one of these: a single kind of check costs less in the browser
 * bundle than zod's formats, ranges, refinements and enums, which each bring their own code
 * (docs/benchmarks.md), and the message is written where the rule is. Like a failed type check,
 * a broken rule ends the checking of its value and of the arrays and objects around it; other
 * fields are still checked, so each of them is reported.
 */
export function rule<T>(problemOf: (value: T) => string | undefined): z.core.$ZodCheck<T> {
  return z.check<T>((payload) => {
    const message = problemOf(payload.value);
    if (message !== undefined) {
      payload.issues.push({ code: 'custom', message, input: payload.value });
    }
  });
}

/**
 * A whole number from `min` to `max`. Integers beyond 2^53 count as not whole: they cannot be
 * held exactly. A fraction is reported alone, without the bounds.
 */
export function integer(min = -Infinity, max = Infinity): z.ZodMiniNumber<number> {
  return z
    .number()
    .check(
      rule((value) =>
        !Number.isSafeInteger(value)
          ? 'must be an integer'
          : value < min
            ? `must be at least ${min}`
            : value > max
              ? `must be at most ${max}`
              : undefined,
      ),
    );
}

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
  throw localValidationError(details);
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

/**
 * A short English reason. Rules (see {@link rule}) carry their own; what is left are zod's type
 * checks, which say only what was expected.
 */
function describe(issue: Issue): string {
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  if (issue.code === 'invalid_type') {
    return issue.input === undefined ? 'is required' : `must be ${article(issue.expected)}`;
  }
  return 'is invalid';
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}
