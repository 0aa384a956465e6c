import * as z from 'zod/mini';
import { HEADER_REQUEST_ID } from '../contract.js';
import {
  type ErrorDetail,
  InvalidResponseError,
  type ResponseIssue,
  localBadRequestError,
  localValidationError,
} from './errors.js';
import {
  type ApiRequest,
  NotJson,
  type RawResponse,
  type ResponseValidation,
} from '../internal/exchange.js';

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
 * A check that replaces the value with what `change` makes of it, for the checks after it and for
 * the output. It is what zod's `overwrite` does, written on the kind of check {@link rule} already
 * brings: `overwrite` brings a check kind of its own, 38 bytes of the Client app min+gzip.
 */
export function convert<T>(change: (value: T) => T): z.core.$ZodCheck<T> {
  return z.check<T>((payload) => {
    payload.value = change(payload.value);
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

/** Marks the issue of a value an enumeration does not list yet: a note, never a failure. */
const UNKNOWN_VALUE = 'unknown_value';

/**
 * An enumeration of a response the service may extend (contract §3): any string is accepted, so
 * a value added later never fails a call, while the type still offers the known values for
 * completion. A value outside `known` is noted (logged once) so that it does not go unseen.
 */
export function openEnum<const Known extends string>(
  known: readonly Known[],
): z.ZodMiniType<Known | (string & {})> {
  const list = known.join(', ');
  return z.string().check(
    z.check<string>((payload) => {
      if ((known as readonly string[]).includes(payload.value)) return;
      payload.issues.push({
        code: 'custom',
        message: `is ${quote(payload.value)}, a value this SDK does not know (it knows ${list})`,
        input: payload.value,
        params: { [UNKNOWN_VALUE]: true },
        continue: true,
      });
    }),
  );
}

/**
 * Checks a method's body against its schema before anything is sent. A failure is the same
 * UnprocessableEntityError the service would answer (422 `validation_error`), with `local: true`
 * and a detail per field.
 */
export function parseInput<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  return checkInput(schema, input, localValidationError);
}

/**
 * Checks a method's query parameters (paging, filters, period) before anything is sent. A
 * failure is the same BadRequestError the service would answer (400 `invalid_request`), with
 * `local: true` and a detail per field.
 */
export function parseQuery<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  return checkInput(schema, input, localBadRequestError);
}

function checkInput<S extends z.ZodMiniType>(
  schema: S,
  input: unknown,
  toError: (details: ErrorDetail[]) => Error,
): z.output<S> {
  // reportInput: zod drops `input` from issues otherwise, and describe() needs it to tell
  // "is required" from "must be an integer".
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw toError(result.error.issues.flatMap(toDetails));
}

/**
 * Reads a 2xx body: checks it against the contract's shape as `validation` says, and returns it
 * as received (unknown fields included). What the SDK itself depends on, the envelope (`data`,
 * `pagination`, a record's `id`), fails a read in every mode; the rest of a record follows the
 * mode. A write never fails here: its answer's problems are logged.
 */
export function parseResponse<S extends z.ZodMiniType>(
  schema: S,
  raw: RawResponse,
  request: ApiRequest,
  validation: ResponseValidation,
): z.output<S> {
  const { response, body } = raw;
  const found = findings(schema, body);
  if (found.length === 0) return body as z.output<S>;

  const isWrite = request.method !== 'GET';
  const failures = found.filter(
    (finding) =>
      finding.kind === 'envelope' || (finding.kind === 'record' && validation.mode === 'strict'),
  );
  if (failures.length > 0 && !isWrite) {
    const issues = failures.map(({ path, message }) => ({ path, message }));
    const summary = issues.map((issue) => `${issue.path} ${issue.message}`).join('; ');
    const requestId = response.headers.get(HEADER_REQUEST_ID);
    throw new InvalidResponseError({
      message: `Unexpected response to ${request.method} ${request.path} (status ${response.status}): ${summary}`,
      status: response.status,
      // The service's words, where it may have echoed the credential (the summary is the SDK's).
      requestId: requestId === null ? undefined : (raw.redact ?? String)(requestId),
      issues,
    });
  }

  const operation = `${request.method} ${request.path}`;
  for (const finding of found) {
    if (finding.kind !== 'envelope' && validation.mode === 'off') continue;
    const key = `${request.method} ${template(request.path)} ${finding.path.replace(/\.\d+(?=\.|$)/g, '.*')}`;
    if (validation.warned.has(key)) continue;
    validation.warned.add(key);
    // The warning quotes the answer (an unknown enumeration value), where a service may have
    // echoed the credential.
    validation.warn((raw.redact ?? String)(`${operation}: ${warning(finding, isWrite)}`));
  }
  return (body instanceof NotJson ? undefined : body) as z.output<S>;
}

interface Finding extends ResponseIssue {
  /**
   * `envelope`: what the SDK depends on; `record`: a field beyond it that differs from the
   * contract; `note`: an enumeration value the SDK does not know, which the contract allows.
   */
  kind: 'envelope' | 'record' | 'note';
  /** What was received, such as `is a string`. */
  received: string;
  /** Where the assumption is written: the contract's section. */
  section: string;
}

function findings(schema: z.ZodMiniType, body: unknown): Finding[] {
  // Not JSON, or nothing at all (an empty 2xx where a body was due): the whole body is at fault.
  if (body instanceof NotJson || body === undefined) {
    const [message, received] =
      body === undefined ? ['must not be empty', 'is empty'] : ['must be JSON', 'is not JSON'];
    return [{ kind: 'envelope', path: '(body)', message, received, section: '§4' }];
  }
  if (passes(schema, body)) return [];
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    const path = issue.path.length === 0 ? '(body)' : pathOf(issue.path);
    const received = describeReceived(issue.input);
    const message = describe(issue);
    if (issue.code === 'custom' && issue.params?.[UNKNOWN_VALUE]) {
      return { kind: 'note', path, message, received, section: '§3' };
    }
    const envelope = isEnvelope(issue.path);
    return {
      kind: envelope ? 'envelope' : 'record',
      path,
      message,
      received,
      section: issue.path[0] === 'pagination' ? '§5' : envelope && !isId(issue.path) ? '§4' : '§3',
    };
  });
}

/** Whether zod would find no issue in a value, for one schema. */
type Verdict = (value: unknown) => boolean;

const verdicts = new WeakMap<z.core.$ZodType, Verdict>();

/**
 * Whether zod would find no issue in `value`: the verdict alone, without zod's output, which
 * parseResponse does not use (it returns the body as received). zod/mini parses with its
 * interpreter, which builds a copy of every object; this judges a valid 20-record page about four
 * times faster (docs/benchmarks.md), with no generated code, so in every runtime. A false is never
 * reported: zod parses again, and its issues are the findings. So this may answer false where it
 * is unsure, but true only where zod would find nothing: it walks the objects and arrays itself
 * and leaves every other part (strings, numbers and their rules, enumerations, optional and
 * nullable fields) to zod's own parser.
 */
function passes(schema: z.core.$ZodType, value: unknown): boolean {
  let verdict = verdicts.get(schema);
  if (!verdict) verdicts.set(schema, (verdict = verdictOf(schema)));
  return verdict(value);
}

function verdictOf(schema: z.core.$ZodType): Verdict {
  const def = schema._zod.def as z.core.$ZodTypes['_zod']['def'];
  const walked = def.checks?.length
    ? undefined
    : def.type === 'object'
      ? objectVerdict(def)
      : def.type === 'array'
        ? arrayVerdict(def)
        : undefined;
  return (
    walked ??
    ((value) => {
      const result = schema._zod.run({ value, issues: [] }, { async: false });
      return !(result instanceof Promise) && result.issues.length === 0;
    })
  );
}

function arrayVerdict({ element }: z.core.$ZodArrayDef): Verdict {
  const verdict = partVerdict(element);
  return (value) => {
    if (!Array.isArray(value)) return false;
    for (const item of value) if (!verdict(item)) return false;
    return true;
  };
}

/**
 * A loose or plain object's verdict: each field present and passing, or absent and optional. A
 * field zod may fill in when absent (a default) counts as required: a false only defers to zod.
 */
function objectVerdict({ shape, catchall }: z.core.$ZodObjectDef): Verdict | undefined {
  if (catchall && catchall._zod.def.type !== 'unknown') return undefined;
  const fields: [string, boolean, Verdict][] = [];
  for (const key of Reflect.ownKeys(shape)) {
    if (typeof key !== 'string') return undefined;
    const field = shape[key] as z.core.$ZodType;
    const { optin, optout } = field._zod;
    fields.push([key, optin === 'optional' && optout === 'optional', partVerdict(field)]);
  }
  return (value) => {
    if (typeof value !== 'object' || !value || Array.isArray(value)) return false;
    for (const [key, optional, verdict] of fields) {
      if (key in value ? !verdict((value as Record<string, unknown>)[key]) : !optional) {
        return false;
      }
    }
    return true;
  };
}

/** A part's verdict, built on its first use, so that a schema may contain itself. */
function partVerdict(schema: z.core.$ZodType): Verdict {
  let verdict: Verdict | undefined;
  return (value) => (verdict ??= verdicts.get(schema) ?? verdictOf(schema))(value);
}

/**
 * The parts of a body the SDK relies on: the body itself, `data`, each record of a list as an
 * object, a record's `id`, and `pagination` with its fields.
 */
function isEnvelope(path: readonly PropertyKey[]): boolean {
  const [top, second, third] = path;
  if (path.length <= 1 || top === 'pagination') return true;
  if (top !== 'data') return false;
  if (path.length === 2) return typeof second === 'number' || second === 'id';
  return path.length === 3 && typeof second === 'number' && third === 'id';
}

function isId(path: readonly PropertyKey[]): boolean {
  return path[path.length - 1] === 'id';
}

function warning(finding: Finding, isWrite: boolean): string {
  const outcome = isWrite
    ? 'The write succeeded, so the call resolves with the body as received; do not repeat it.'
    : 'The record is returned as received.';
  if (finding.kind === 'note') {
    return `${finding.path} ${finding.message}; enumerations may gain values (contract §3). ${outcome}`;
  }
  return `${finding.path} ${finding.received}, but the SDK assumes it ${finding.message} (contract ${finding.section}). ${outcome}`;
}

/** The path of a request with ids replaced, such as `/v1/users/{id}`: ids follow the collection. */
export function template(path: string): string {
  return path.replace(/^(\/v1\/[^/]+)\/.+$/, '$1/{id}');
}

function describeReceived(input: unknown): string {
  if (input === undefined) return 'is missing';
  if (input === null) return 'is null';
  return Array.isArray(input) ? 'is an array' : `is ${article(typeof input)}`;
}

/**
 * A value of the answer for a warning: whole, or not at all when long. A cut value could be the
 * start of an echoed credential, which redaction (by the whole value) would no longer find.
 */
function quote(value: string): string {
  return value.length > 40 ? `a ${value.length}-character string` : JSON.stringify(value);
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
