/**
 * The strict record check: an answer's records against the SDK's own schemas (src/resources/),
 * every difference named by operation, field path and problem, and every field the SDK does not
 * declare listed as new. Only names and types are ever reported, never a value: records hold
 * people's names and emails, and a report is pasted into tickets.
 */
import * as z from 'zod/mini';
import type { OperationName } from '../contract.js';
import { recordAssumption } from './assumptions.js';
import type { DoctorCheck } from './report.js';
import { analyticsSummarySchema } from '../resources/analytics.js';
import { budgetSchema } from '../resources/budgets.js';
import { recognitionSchema } from '../resources/recognitions.js';
import { rewardSchema } from '../resources/rewards.js';
import { teamSchema } from '../resources/teams.js';
import { userSchema } from '../resources/users.js';
import { webhookSchema, webhookWithSecretSchema } from '../resources/webhooks.js';

/** A field of a record that differs from what the SDK assumes. */
export interface RecordDifference {
  /** The operation whose answer held the record, such as `users.list`. */
  operation: string;
  /** The field's path in the answer's body, a list's index as `*`: `data.*.points`. */
  path: string;
  /** What differs, in names and types only: `is a string, but the SDK assumes a number`. */
  problem: string;
  /** The anchor of the docs/assumptions.md row it breaks, such as `recognition-points`. */
  assumption: string;
}

/** A field the service sent that the SDK's type does not declare. */
export interface NewField {
  /** The operation whose answer held it. */
  operation: string;
  /** The field's path in the answer's body, a list's index as `*`: `data.*.mood`. */
  path: string;
  /** Its JSON type: `string`, `number`, `boolean`, `object`, `array` or `null`. */
  type: string;
}

/** What {@link checkRecords} found in one answer: empty lists when it matches. */
export interface RecordCheck {
  differences: RecordDifference[];
  newFields: NewField[];
  /**
   * The differences that are an enumeration value the SDK does not know: the SDK reads every
   * enumeration as open (contract §3), so a call still succeeds; the checks report them as notes.
   */
  unknownValues: RecordDifference[];
}

type Schema = z.core.$ZodType;

/** The most differences and new fields one answer reports: a hostile body cannot flood a report. */
const MAX_FINDINGS = 100;
/** The longest path reported: a field's name is the service's text. */
const MAX_PATH_LENGTH = 200;

// A list's `pagination` is declared here as anything: the pagination check judges it.
const list = (record: Schema) =>
  z.looseObject({ data: z.array(record), pagination: z.optional(z.unknown()) });
const single = (record: Schema) => z.looseObject({ data: record });

/**
 * The body schema of each operation that answers with records, checked as the SDK declares it:
 * a list's `data` (its `pagination` is the pagination check's), a single record's `data`.
 */
const ANSWERS: Partial<Record<OperationName, Schema>> = {
  'recognitions.list': list(recognitionSchema),
  'recognitions.get': single(recognitionSchema),
  'recognitions.create': single(recognitionSchema),
  'users.list': list(userSchema),
  'users.get': single(userSchema),
  'rewards.list': list(rewardSchema),
  'rewards.get': single(rewardSchema),
  'teams.list': list(teamSchema),
  'teams.get': single(teamSchema),
  'webhooks.list': list(webhookSchema),
  'webhooks.get': single(webhookSchema),
  'webhooks.create': single(webhookWithSecretSchema),
  'webhooks.update': single(webhookSchema),
  'budgets.list': list(budgetSchema),
  'budgets.get': single(budgetSchema),
  'analytics.summary': single(analyticsSummarySchema),
};

/** Whether {@link checkRecords} knows the records of `operation`'s answer. */
export function answersWithRecords(operation: string): operation is OperationName {
  return Object.hasOwn(ANSWERS, operation);
}

/**
 * Checks the body of a 2xx answer to `operation` strictly against the SDK's schemas: every field
 * missing, of another type, or holding an enumeration value the SDK does not know is a
 * difference; every field the SDK does not declare is new. The same field of several records of
 * a list is reported once. An operation without records (a delete) gives empty lists.
 */
export function checkRecords(operation: string, body: unknown): RecordCheck {
  const schema = answersWithRecords(operation) ? ANSWERS[operation] : undefined;
  if (!schema) return { differences: [], newFields: [], unknownValues: [] };
  const differences = new Map<string, RecordDifference>();
  const unknownValues = new Map<string, RecordDifference>();
  const result = z.safeParse(schema, body, { reportInput: true });
  if (!result.success) {
    for (const issue of result.error.issues) {
      const path = pathOf(issue.path);
      if (!differences.has(path) && differences.size < MAX_FINDINGS) {
        const assumption = recordAssumption(operation, path);
        const problem = problemOf(issue, isNullable(schema, issue.path));
        const difference = { operation, path, problem, assumption };
        differences.set(path, difference);
        if (problem.includes(UNKNOWN_VALUE)) unknownValues.set(path, difference);
      }
    }
  }
  const newFields = new Map<string, NewField>();
  collectNew(schema, body, [], (path, value) => {
    const key = pathOf(path);
    if (!newFields.has(key) && newFields.size < MAX_FINDINGS) {
      newFields.set(key, { operation, path: key, type: typeOf(value) });
    }
  });
  return {
    differences: [...differences.values()],
    newFields: [...newFields.values()],
    unknownValues: [...unknownValues.values()],
  };
}

/** Calls `found` with the path and value of every field of `value` that `schema` does not declare. */
function collectNew(
  schema: Schema,
  value: unknown,
  path: PropertyKey[],
  found: (path: PropertyKey[], value: unknown) => void,
): void {
  const def = schema._zod.def as z.core.$ZodTypes['_zod']['def'];
  if (def.type === 'optional' || def.type === 'nullable') {
    collectNew(def.innerType, value, path, found);
  } else if (def.type === 'array' && Array.isArray(value)) {
    value.forEach((item, index) => collectNew(def.element, item, [...path, index], found));
  } else if (def.type === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, field] of Object.entries(value)) {
      const declared = Object.hasOwn(def.shape, key) ? (def.shape[key] as Schema) : undefined;
      if (declared) collectNew(declared, field, [...path, key], found);
      else found([...path, key], field);
    }
  }
}

/** Whether the field at `path` of `schema` may be null, as `team_id` may. */
function isNullable(schema: Schema, path: readonly PropertyKey[]): boolean {
  let part: Schema | undefined = schema;
  for (const key of path) {
    let def = part?._zod.def as z.core.$ZodTypes['_zod']['def'] | undefined;
    while (def?.type === 'optional' || def?.type === 'nullable') {
      def = def.innerType._zod.def as z.core.$ZodTypes['_zod']['def'];
    }
    part =
      def?.type === 'array'
        ? def.element
        : def?.type === 'object' && typeof key === 'string' && Object.hasOwn(def.shape, key)
          ? (def.shape[key] as Schema)
          : undefined;
  }
  return part?._zod.def.type === 'nullable';
}

/** A path with list indexes as `*`: `data.*.sender.id`. */
function pathOf(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(body)';
  const joined = path.map((part) => (typeof part === 'number' ? '*' : String(part))).join('.');
  return joined.length > MAX_PATH_LENGTH ? `${joined.slice(0, MAX_PATH_LENGTH)}…` : joined;
}

/** A value's JSON type, never the value. */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const UNKNOWN_VALUE = 'a value this SDK does not know';

/** The problem in names and types: the messages of the SDK's rules hold no value, but one does. */
function problemOf(issue: z.core.$ZodIssue, nullable: boolean): string {
  const received = issue.input === undefined ? 'is missing' : `is ${article(typeOf(issue.input))}`;
  if (issue.code === 'invalid_type') {
    return `${received}, but the SDK assumes ${article(issue.expected)}${nullable ? ' or null' : ''}`;
  }
  const { message } = issue;
  // An open enumeration's message quotes the value: keep only what it knows.
  const unknown = message.indexOf(UNKNOWN_VALUE);
  if (unknown !== -1) return `holds ${message.slice(unknown)}`;
  if (issue.code === 'custom' && message) return `${received}, but the SDK assumes it ${message}`;
  return `${received}, which the SDK's schema does not accept`;
}

function article(type: string): string {
  return type === 'null' ? 'null' : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** What the records check of the doctor and of `traffic check` found, before it is worded. */
export interface RecordFindings extends RecordCheck {
  /** Answers the SDK cannot read at all, each as `operation: ErrorClass (message)`. */
  failing: string[];
}

export const plural = (count: number, one: string, many = `${one}s`) =>
  `${count} ${count === 1 ? one : many}`;

const REPORT = 'report the difference (docs/doctor.md, “Reporting a difference”)';

/**
 * The `records` check of what was found: `fail` when a call fails on an answer (the judge's
 * verdict) or a field differs from the SDK's types (what `validateResponses: 'strict'` refuses);
 * `warn` for an enumeration value the SDK does not know (it reads enumerations as open); `ok`
 * otherwise, `matched` saying what matched. A missing field beside a new one of its type in the
 * same record is named as a likely rename.
 */
export function recordsCheck(
  found: RecordFindings,
  details: Record<string, unknown>,
  assumption: string,
  matched: string,
): DoctorCheck {
  const { failing, newFields, unknownValues } = found;
  const differences = found.differences.filter((each) => !unknownValues.includes(each));
  const parent = (path: string) => path.replace(/\.[^.]*$/, '');
  const named = (list: RecordDifference[]) =>
    list
      .slice(0, 3)
      .map((each) => {
        const renamed = each.problem.startsWith('is missing')
          ? newFields.find(
              (field) =>
                field.operation === each.operation &&
                parent(field.path) === parent(each.path) &&
                each.problem.endsWith(` ${field.type}`),
            )
          : undefined;
        return `${each.operation} ${each.path} ${each.problem}${renamed ? ` (likely renamed to ${renamed.path.slice(parent(each.path).length + 1)})` : ''}`;
      })
      .join('; ') + (list.length > 3 ? '; …' : '');
  const fresh = newFields.length
    ? `; ${plural(newFields.length, 'new field')}: ${newFields
        .slice(0, 4)
        .map((each) => `${each.operation} ${each.path}`)
        .join(', ')}${newFields.length > 4 ? ', …' : ''}`
    : '';
  const [status, summary, fix] = failing.length
    ? [
        'fail',
        `the SDK cannot read ${plural(failing.length, 'answer')}: ${failing.slice(0, 3).join('; ')}`,
        `Calls fail with that error: ${REPORT}.`,
      ]
    : differences.length
      ? [
          'fail',
          `${plural(differences.length, 'field')} differ${differences.length === 1 ? 's' : ''} from the SDK's types: ${named(differences)}${fresh}`,
          `Under validateResponses: 'strict' calls fail (InvalidResponseError); 'warn' logs each. Read these fields defensively; ${REPORT}.`,
        ]
      : unknownValues.length
        ? [
            'warn',
            `an enumeration value the SDK does not know: ${named(unknownValues)}${fresh}`,
            'Calls succeed (enumerations are open): give a switch on them a default branch.',
          ]
        : ['ok', `${matched} the SDK's types${fresh}`, undefined];
  return { id: 'records', status: status as 'ok', summary, fix, assumption, details };
}

/**
 * The SDK's schema of the field at `path` of `operation`'s answer (`data[].role`, a list's items
 * as `[]`), and whether the field may be absent; undefined where the SDK declares no such field.
 */
function fieldAt(
  operation: string,
  path: string,
): { schema: Schema; optional: boolean } | undefined {
  let part: Schema | undefined = answersWithRecords(operation) ? ANSWERS[operation] : undefined;
  let optional = false;
  for (const step of path.split('.')) {
    const [key, ...items] = step.split('[]');
    for (const name of [key!, ...items.map(() => 0)]) {
      if (name === '') continue;
      let def = part?._zod.def as z.core.$ZodTypes['_zod']['def'] | undefined;
      while (def?.type === 'optional' || def?.type === 'nullable') {
        def = def.innerType._zod.def as z.core.$ZodTypes['_zod']['def'];
      }
      part =
        def?.type === 'array' && name === 0
          ? def.element
          : def?.type === 'object' && typeof name === 'string' && Object.hasOwn(def.shape, name)
            ? (def.shape[name] as Schema)
            : undefined;
      if (!part) return undefined;
      optional = part._zod.optin === 'optional';
    }
  }
  return part && { schema: part, optional };
}

/**
 * Whether the SDK's schema takes `value` at `path` of `operation`'s answer (a known enumeration
 * value, a null where null is allowed): true or false, or undefined for a field the SDK does not
 * declare (it reads nothing there).
 */
export function fieldAccepts(operation: string, path: string, value: unknown): boolean | undefined {
  const field = fieldAt(operation, path);
  return field && z.safeParse(field.schema, value).success;
}

/** Whether the SDK declares the field at `path` of `operation`'s answer as always present. */
export function fieldRequired(operation: string, path: string): boolean {
  const field = fieldAt(operation, path);
  return field !== undefined && !field.optional;
}
