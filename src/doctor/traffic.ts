/**
 * The checks of recorded traffic (`employee-recognition traffic check` and `traffic diff`,
 * docs/testing.md "Watching drift"), callable from code: every recorded answer judged by the SDK
 * itself (judge.ts), the headers read by its own parsers, the file's privacy by the recording's
 * own redaction; and two recordings compared by what the SDK's schemas make of the change. Only
 * names, types, counts and dates go into a report, never a recorded value.
 */
import type { Client } from '../client.js';
import { HEADER_REQUEST_ID, type OperationName } from '../contract.js';
import { parseDeprecation } from '../internal/deprecation.js';
import { parseRateLimit } from '../internal/headers.js';
import { ENUM_FIELDS } from '../resources/fields.js';
import { decodeBase64Bytes, type Har, type HarEntry, operationOf } from '../testing/har.js';
import { createRedactor } from '../testing/redact.js';
import { ASSUMPTIONS } from './assumptions.js';
import { type Answer, judge, type Judgement, MAX_NESTING, nestsTooDeep, parsed } from './judge.js';
import {
  checkRecords,
  fieldAccepts,
  fieldRequired,
  type NewField,
  plural,
  type RecordDifference,
  recordsCheck,
} from './records.js';
import type { DoctorCheck } from './report.js';

/** The checks of {@link checkTraffic}, in the order of its report. */
export const TRAFFIC_CHECK_IDS = [
  'recording',
  'records',
  'envelope',
  'errors',
  'headers',
  'deprecations',
  'privacy',
] as const;

/** One answer of the API in a recording, as the checks read it. */
interface Recorded {
  index: number;
  entry: HarEntry;
  operation: OperationName;
  status: number;
  headers: Headers;
  body: Answer['body'];
  /** Cut at the recorder's size cap, or nested too deep to walk: not judged. */
  unreadable: boolean;
}

/** The answers of the API in a recording (an answer of status 0 is none: skipped, as browsers export it). */
function answersOf(har: Har): Recorded[] {
  const answers: Recorded[] = [];
  har.log.entries.forEach((entry, index) => {
    const operation = operationOf(entry.request.method, entry.request.url);
    const { status, content } = entry.response;
    if (!operation || status === 0) return;
    const body =
      content.text === undefined
        ? undefined
        : content.encoding === 'base64'
          ? decodeBase64Bytes(content.text)
          : content.text;
    const text = typeof body === 'string' ? body : undefined;
    answers.push({
      index,
      entry,
      operation,
      status,
      headers: headersOf(entry.response.headers),
      body,
      unreadable:
        (content.comment?.startsWith('truncated') ?? false) ||
        (text !== undefined && nestsTooDeep(text)),
    });
  });
  return answers;
}

/** A HAR header list as Headers; a name or value no HTTP answer can carry is left out. */
function headersOf(list: readonly { name: string; value: string }[]): Headers {
  const headers = new Headers();
  for (const { name, value } of list) {
    try {
      headers.append(name, value);
    } catch {
      // Not a header fetch could have received.
    }
  }
  return headers;
}

const isOk = (status: number) => status >= 200 && status < 300;

/**
 * The checks of a recording (`traffic check`): each answer of the API judged by the SDK itself
 * through `client` (nothing is sent), then the records, the envelope, the error bodies, the
 * headers, the deprecation notices, and whether the file can be shared. `now` dates a sunset.
 */
export async function checkTraffic(
  client: Client,
  har: Har,
  now: number = Date.now(),
): Promise<DoctorCheck[]> {
  const answers = answersOf(har);
  const judged: { answer: Recorded; judgement: Judgement }[] = [];
  for (const answer of answers) {
    // A redirect leads to another entry, which is judged there.
    if (answer.unreadable || (answer.status >= 300 && answer.status < 400)) continue;
    const page = answer.entry.request.queryString.find((each) => each.name === 'page')?.value;
    const judgement = await judge(
      client,
      answer.operation,
      answer.entry.request.url,
      { status: answer.status, headers: answer.headers, body: answer.body },
      page && /^\d{1,9}$/.test(page) ? Number(page) : undefined,
    );
    judged.push({ answer, judgement });
  }
  const ok = judged.filter(({ answer }) => isOk(answer.status));
  const errors = judged.filter(({ answer }) => answer.status >= 400);
  const operations = [...new Set(answers.map((each) => each.operation))];
  const unreadable = answers.filter((each) => each.unreadable).length;
  const entries = har.log.entries.length;
  const checks: DoctorCheck[] = [
    {
      id: 'recording',
      status: 'ok',
      summary: `${plural(entries, 'entry', 'entries')}, ${plural(answers.length, 'API answer')} of ${plural(operations.length, 'operation')}${
        unreadable ? `; ${unreadable} cut at the size cap or nested too deep (not checked)` : ''
      }`,
      details: {
        entries,
        operations,
        truncated: unreadable,
        noAnswer: har.log.entries.filter((entry) => entry.response.status === 0).length,
      },
    },
  ];

  // Records: every 2xx answer's records against the SDK's schemas, each field reported once.
  const differences = new Map<string, RecordDifference>();
  const newFields = new Map<string, NewField>();
  const unknownValues = new Map<string, RecordDifference>();
  for (const { answer } of ok) {
    // Strictly against the SDK's schemas: what `validateResponses: 'strict'` refuses.
    const found = checkRecords(answer.operation, parsed(answer.body));
    const key = (each: { operation: string; path: string }) => `${each.operation} ${each.path}`;
    for (const each of found.differences) differences.set(key(each), each);
    for (const each of found.newFields) newFields.set(key(each), each);
    for (const each of found.unknownValues)
      unknownValues.set(key(each), differences.get(key(each))!);
  }
  const recordDetails = {
    differences: [...differences.values()],
    newFields: [...newFields.values()],
    unknownValues: [...unknownValues.values()],
  };
  checks.push(
    ok.length === 0
      ? skip('records', 'no successful answer to check', ASSUMPTIONS.records, recordDetails)
      : recordsCheck(
          { ...recordDetails, failing: [] },
          recordDetails,
          ASSUMPTIONS.records,
          `every record of ${plural(ok.length, 'answer')} ${ok.length === 1 ? 'matches' : 'match'}`,
        ),
  );

  // Envelope: what fails the call itself, or its paging to the end, as the SDK reads the answer.
  checks.push(
    listCheck(
      'envelope',
      ok.length,
      ok.flatMap(({ answer, judgement }) =>
        judgement.error
          ? [
              {
                operation: answer.operation,
                problem: `the call fails with ${judgement.error.name}: ${judgement.error.message}`,
              },
            ]
          : [],
      ),
      ASSUMPTIONS.pagination,
      'fail',
      `the SDK reads every answer${pagingNamed(ok.map(({ judgement }) => judgement))}`,
      'Every call of these operations fails with that error: report the answer the service sends (docs/doctor.md, “Reporting a difference”); meanwhile read them with client.get().',
    ),
  );

  // Errors: the body form the SDK read each error answer in.
  checks.push(
    listCheck(
      'errors',
      errors.length,
      errors.flatMap(({ answer, judgement }) =>
        judgement.errorShape === 'other'
          ? [
              {
                operation: `${answer.operation} ${answer.status}`,
                problem: `neither { error: { code, message } } nor problem+json: the call gets ${judgement.error?.name ?? 'an ApiError'} with code ${judgement.error?.code ?? 'of the status'} and the raw body as message`,
              },
            ]
          : [],
      ),
      ASSUMPTIONS.errorBody,
      'warn',
      `${plural(errors.length, 'error answer')} in the SDK's error body or RFC 9457 problem+json`,
      'These errors carry the raw body as their message and the status’s code: branch on the error classes and `status`.',
    ),
  );
  checks.push(headersCheck(answers), deprecationsCheck(answers, now), privacyCheck(har));
  return checks;
}

/** How the lists of a recording paged, as the SDK followed them: Link paging named. */
function pagingNamed(judgements: Judgement[]): string {
  const modes = new Set(judgements.map((each) => each.paging).filter((mode) => mode !== 'last'));
  modes.delete(undefined);
  if (modes.size === 0) return '';
  const names = { link: 'Link paging (RFC 8288)', cursor: 'cursor paging', page: 'page numbers' };
  return `; lists page on by ${[...modes].map((mode) => names[mode as keyof typeof names]).join(' and ')}`;
}

function skip(
  id: string,
  summary: string,
  assumption: string,
  details: Record<string, unknown>,
): DoctorCheck {
  return { id, status: 'skip', summary, assumption, details };
}

/** Request ids and the rate-limit window on every answer, each read by the SDK's own parsers. */
function headersCheck(answers: Recorded[]): DoctorCheck {
  const noRequestId = new Set<string>();
  const noRateLimit = new Set<string>();
  const unread = new Set<string>();
  const families = new Set<string>();
  for (const { operation, headers } of answers) {
    if (!headers.has(HEADER_REQUEST_ID)) noRequestId.add(operation);
    const window = parseRateLimit(headers);
    if (window) families.add(window.family ?? 'x-ratelimit');
    else if ([...headers.keys()].some((name) => /^(x-)?ratelimit(-|$)/.test(name)))
      unread.add(operation);
    else noRateLimit.add(operation);
  }
  const problems = [
    ...(noRequestId.size ? [`no ${HEADER_REQUEST_ID} on ${[...noRequestId].join(', ')}`] : []),
    ...(noRateLimit.size ? [`no rate-limit headers on ${[...noRateLimit].join(', ')}`] : []),
    ...(unread.size
      ? [`rate-limit headers in a form the SDK does not read on ${[...unread].join(', ')}`]
      : []),
  ];
  const details = {
    noRequestId: [...noRequestId],
    noRateLimit: [...noRateLimit, ...unread],
    families: [...families],
  };
  if (answers.length === 0) {
    return skip('headers', 'no answer of the API in the recording', ASSUMPTIONS.rateLimit, details);
  }
  return {
    id: 'headers',
    status: problems.length ? 'warn' : 'ok',
    summary: problems.length
      ? problems.join('; ')
      : `${HEADER_REQUEST_ID} and rate-limit headers (${[...families].join(', ')}) on every answer, read by the SDK`,
    ...(problems.length && {
      fix: 'Without a window the SDK paces by its own count (pacing is off), and errors without a request id carry none for support.',
    }),
    assumption: ASSUMPTIONS.rateLimit,
    details,
  };
}

/** Every Deprecation and Sunset notice, read as the SDK reads it; a passed sunset fails. */
function deprecationsCheck(answers: Recorded[], now: number): DoctorCheck {
  const notices = new Map<string, { sunsetAt: Date | undefined; link: string | undefined }>();
  for (const { operation, headers, entry } of answers) {
    const notice = parseDeprecation(headers, entry.request.url, now);
    if (notice && !notices.has(operation)) {
      notices.set(operation, { sunsetAt: notice.sunsetAt, link: notice.deprecationLink });
    }
  }
  const details = {
    deprecated: [...notices.keys()],
    notices: [...notices].map(([operation, { sunsetAt, link }]) => ({
      operation,
      sunsetAt: sunsetAt?.toISOString() ?? null,
      link: link ?? null,
    })),
  };
  if (answers.length === 0) {
    return skip(
      'deprecations',
      'no answer of the API in the recording',
      ASSUMPTIONS.deprecations,
      details,
    );
  }
  if (notices.size === 0) {
    return {
      id: 'deprecations',
      status: 'ok',
      summary: 'no operation is announced as deprecated',
      assumption: ASSUMPTIONS.deprecations,
      details,
    };
  }
  const passed = [...notices].filter(([, { sunsetAt }]) => sunsetAt && sunsetAt.getTime() <= now);
  return {
    id: 'deprecations',
    status: passed.length ? 'fail' : 'warn',
    summary: [...notices]
      .map(
        ([operation, { sunsetAt }]) =>
          `${operation} deprecated${
            sunsetAt
              ? sunsetAt.getTime() <= now
                ? `, its sunset passed on ${sunsetAt.toISOString()}`
                : `, sunset ${sunsetAt.toISOString()}`
              : ''
          }`,
      )
      .join('; '),
    fix: `${
      passed.length
        ? 'The sunset has passed: these operations may stop answering at any time; move off them now.'
        : 'Move off these operations before their sunset.'
    }${linksOf(notices)}`,
    assumption: ASSUMPTIONS.deprecations,
    details,
  };
}

function linksOf(notices: Map<string, { link: string | undefined }>): string {
  const links = [...notices].filter(([, { link }]) => link);
  return links.length
    ? ` The service’s pages: ${links.map(([operation, { link }]) => `${operation} ${link}`).join(', ')}.`
    : '';
}

// What the recording's redaction leaves in a value that is already redacted: it may write them
// again with other numbers, which is no finding.
const REDACTED_FORMS = /REDACTED|person\d+@redacted\.invalid|person\d+/gi;

/**
 * Whether the file can be shared, by the recording's own redaction (src/testing/redact.ts): each
 * entry is redacted again, and every value the redaction would change, beyond renumbering the
 * pseudonyms it wrote, holds a secret or a person's data. Entry and field are named, never the
 * value. A file made by the recorder passes; one another tool wrote with a key in it fails.
 */
function privacyCheck(har: Har): DoctorCheck {
  const redactor = createRedactor();
  const findings: string[] = [];
  har.log.entries.forEach((entry, index) => {
    let text: string;
    try {
      text = JSON.stringify(entry);
    } catch {
      // A field of its own (`_…`) nested past what the stack holds.
      text = '['.repeat(MAX_NESTING + 1);
    }
    const bodies = [entry.request.postData?.text, entry.response.content.text];
    if (nestsTooDeep(text) || bodies.some((body) => body !== undefined && nestsTooDeep(body))) {
      findings.push(`entry ${index} (nested deeper than ${MAX_NESTING}: not checked)`);
      return;
    }
    const copy = JSON.parse(text) as HarEntry;
    const redacted = redactor.redact(structuredClone(copy));
    for (const path of changedPaths(copy, redacted, '')) findings.push(`entry ${index} ${path}`);
  });
  const details = { findings: findings.slice(0, 100), entriesWithSecrets: findings.length };
  if (findings.length > 0) {
    return {
      id: 'privacy',
      status: 'fail',
      summary: `${plural(findings.length, 'value')} the recording's redaction removes: ${findings.slice(0, 3).join('; ')}${findings.length > 3 ? '; …' : ''}: do not share this file`,
      fix: 'Record again with the default redaction (createRecorder, the preload or --record), which removes credentials, secrets, names and emails.',
      details,
    };
  }
  return {
    id: 'privacy',
    status: 'ok',
    summary: 'nothing the recording’s redaction would remove: no credential, secret, name or email',
    details,
  };
}

/** The paths where `after` differs from `before`, beyond what redaction already wrote. */
function changedPaths(before: unknown, after: unknown, path: string): string[] {
  if (typeof before === 'string') {
    const plain = (value: unknown) =>
      typeof value === 'string' ? value.replace(REDACTED_FORMS, '') : value;
    return plain(before) === plain(after) ? [] : [path || '(entry)'];
  }
  if (before === null || typeof before !== 'object') return [];
  if (after === null || typeof after !== 'object') return [path];
  if (Array.isArray(before)) {
    const list = after as unknown[];
    return before.flatMap((item, index) => {
      // A header, query parameter or form field is named by its name.
      const name = (item as { name?: unknown } | null)?.name;
      const step = typeof name === 'string' ? `${path}.${name}` : `${path}[${index}]`;
      return changedPaths(item, list[index], step);
    });
  }
  const record = after as Record<string, unknown>;
  return Object.entries(before).flatMap(([key, value]) =>
    changedPaths(value, record[key], path ? `${path}.${key}` : key),
  );
}

// A check over a list of problems: `ok` with `summary` when there are none.
function listCheck(
  id: string,
  checked: number,
  problems: { operation: string; problem: string }[],
  assumption: string,
  severity: 'warn' | 'fail',
  summary: string,
  fix: string,
): DoctorCheck {
  const unique = [
    ...new Map(problems.map((each) => [`${each.operation} ${each.problem}`, each])).values(),
  ];
  if (checked === 0) {
    return skip(id, 'no answer of this kind in the recording', assumption, { problems: [] });
  }
  if (unique.length === 0)
    return { id, status: 'ok', summary, assumption, details: { problems: [] } };
  return {
    id,
    status: severity,
    summary:
      unique
        .slice(0, 3)
        .map((each) => `${each.operation}: ${each.problem}`)
        .join('; ') + (unique.length > 3 ? '; …' : ''),
    fix,
    assumption,
    details: { problems: unique },
  };
}

/** One difference between two recordings (`traffic diff --json`'s `differences[]`). */
export interface TrafficDifference {
  /** `users.list`, or `users.get 404` for an answer that is not a 2xx. */
  operation: string;
  /** What changed; the values docs/versioning.md lists. */
  kind:
    'removed' | 'added' | 'retyped' | 'nullable' | 'enum value' | 'header added' | 'header removed';
  /** The field's path (`data[].role`) or the header's name. */
  path: string;
  /** What changed: `string → number`, or the new value. */
  detail?: string | undefined;
  /** Of a note: why the SDK is not affected (`the SDK's schema allows null`). */
  note?: string | undefined;
}

/** A header that appeared or went, once, with every operation it touched. */
export interface HeaderChange {
  /** The header's name, lower-case. */
  header: string;
  /** Whether it appeared in the new recording or went. */
  kind: 'header added' | 'header removed';
  /** Each operation (and status, for an error) whose answers it touched. */
  operations: string[];
  /** The family of headers the SDK reads it as, if any: `rate-limit`, `paging`, `deprecation`, `request id`. */
  family: string | undefined;
  /** Whether it is drift: the SDK no longer reads what it read, or a deprecation was announced. */
  drift: boolean;
}

/** What `traffic diff` found between two recordings. */
export interface TrafficDiff {
  /** No drift: nothing missing, no difference (notes aside). */
  same: boolean;
  /** The drift, each by operation: what the SDK's schemas or parsers no longer accept. */
  differences: TrafficDifference[];
  /** Operations recorded in the old file and not in the new one (drift), and the new ones. */
  coverage: { missing: string[]; added: string[] };
  /** Changes the SDK reads all the same: a null its schema allows, a field it does not declare. */
  notes: TrafficDifference[];
  /** Each header change once, with the operations it touched. */
  headers: HeaderChange[];
}

/** The shape of the answers to one operation (and status) across a recording. */
interface Shape {
  /** Each field's path (`data[].role`) and the JSON types seen there. */
  fields: Map<string, Set<string>>;
  /** The values seen at the SDK's enumeration fields, by path. */
  values: Map<string, Set<string>>;
  /** The response headers' names, lower-case. */
  headers: Set<string>;
  /** Whether every answer with a rate-limit window in it was read by the SDK. */
  windows: boolean;
  /** Of error answers: the forms the SDK read their bodies in. */
  errorForms: Set<string>;
  /** Of 2xx answers: whether the SDK's call fails on one of them (the judge's verdict). */
  fails: boolean;
}

// The transport's headers, which say nothing of the service.
const TRANSPORT = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'date',
]);

// The family of headers the SDK reads a header as, if any. A function rather than a table of
// patterns: nothing here runs when the doctor entry is loaded for diagnose() alone.
function familyOf(name: string): string | undefined {
  return /^(?:x-)?ratelimit(?:-|$)|^retry-after$/.test(name)
    ? 'rate-limit'
    : name === 'link'
      ? 'paging'
      : name === 'deprecation' || name === 'sunset'
        ? 'deprecation'
        : name === HEADER_REQUEST_ID
          ? 'request id'
          : undefined;
}

// The key of an answer: its operation, and the status when not a 2xx, so an error's shape is
// compared with errors of the same kind.
const keyOf = (answer: Recorded) =>
  isOk(answer.status) ? answer.operation : `${answer.operation} ${answer.status}`;

async function shapesOf(client: Client, har: Har): Promise<Map<string, Shape>> {
  const shapes = new Map<string, Shape>();
  for (const answer of answersOf(har)) {
    const key = keyOf(answer);
    let shape = shapes.get(key);
    if (!shape) {
      shape = {
        fields: new Map(),
        values: new Map(),
        headers: new Set(),
        windows: true,
        errorForms: new Set(),
        fails: false,
      };
      shapes.set(key, shape);
    }
    if ((answer.status >= 400 || isOk(answer.status)) && !answer.unreadable) {
      const { error, errorShape } = await judge(
        client,
        answer.operation,
        answer.entry.request.url,
        answer,
      );
      if (answer.status >= 400) shape.errorForms.add(errorShape ?? 'other');
      else if (error) shape.fails = true;
    }
    for (const name of answer.headers.keys()) if (!TRANSPORT.has(name)) shape.headers.add(name);
    const hasWindow = [...answer.headers.keys()].some((name) => /^(?:x-)?ratelimit/.test(name));
    if (hasWindow && !parseRateLimit(answer.headers)) shape.windows = false;
    // A body cut at the recorder's cap, or nested too deep, says nothing of the shape.
    const body = answer.unreadable ? undefined : parsed(answer.body);
    if (body === undefined) continue;
    const group = answer.operation.split('.')[0]!;
    const enums = new Set(
      (ENUM_FIELDS[group] ?? []).flatMap((field) => [`data.${field}`, `data[].${field}`]),
    );
    walk(body, '', shape, enums);
  }
  return shapes;
}

// Recursive, but only on bodies within MAX_NESTING (answersOf marks deeper ones unreadable).
function walk(value: unknown, path: string, shape: Shape, enums: Set<string>): void {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  if (path) {
    let types = shape.fields.get(path);
    if (!types) shape.fields.set(path, (types = new Set()));
    types.add(type);
  }
  if (typeof value === 'string' && enums.has(path)) {
    let values = shape.values.get(path);
    if (!values) shape.values.set(path, (values = new Set()));
    values.add(value);
  }
  if (Array.isArray(value)) {
    for (const item of value) walk(item, `${path}[]`, shape, enums);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      walk(item, path ? `${path}.${key}` : key, shape, enums);
    }
  }
}

const typeList = (types: Set<string>) => [...types].sort().join(' or ');

// `data[].team` of `data[].team.name`, `data` of `data[]`, '' of a top-level field.
function parentOf(path: string): string {
  const parent = path.replace(/(?:\[\]|\.[^.[\]]+)$/, '');
  return parent === path ? '' : parent;
}

/**
 * Compares two recordings of the same calls by what the SDK makes of the change: an operation
 * missing from `after`, a field the SDK needs gone or retyped, a null its schema does not allow,
 * an enumeration value it does not know, a header family it no longer reads, a deprecation
 * announced: drift. A change the SDK reads all the same is a note. Throws a RangeError when
 * `after` holds no answer of the API: there is nothing to compare.
 */
export async function diffTraffic(client: Client, before: Har, after: Har): Promise<TrafficDiff> {
  const old = await shapesOf(client, before);
  const now = await shapesOf(client, after);
  if (now.size === 0) throw new RangeError('holds no answer of the API: nothing to compare');
  const differences: TrafficDifference[] = [];
  const notes: TrafficDifference[] = [];
  const operationOfKey = (key: string) => key.split(' ')[0]!;
  // A change is a note only while the SDK still reads the new answers of its operation.
  let reads = true;
  const judged = (difference: TrafficDifference, note: string | undefined) => {
    if (note === undefined || !reads) differences.push(difference);
    else notes.push({ ...difference, note });
  };
  const headerChanges = new Map<string, HeaderChange>();
  for (const [key, was] of old) {
    const is = now.get(key);
    if (!is) continue;
    const operation = operationOfKey(key);
    const ok = !key.includes(' ');
    reads = !is.fails || was.fails;
    // An error body in another form the SDK reads as well (RFC 9457 for its own): no drift.
    const errorForm =
      !ok && is.errorForms.size > 0 && !is.errorForms.has('other')
        ? `an error body in ${[...is.errorForms].join(' and ')} form, which the SDK reads`
        : undefined;
    for (const [path, types] of was.fields) {
      const newTypes = is.fields.get(path);
      const parent = parentOf(path);
      if (!newTypes) {
        // A field below one that went is part of it: reported once, at its top.
        if (parent !== '' && !is.fields.has(parent)) continue;
        judged(
          { operation: key, kind: 'removed', path, detail: typeList(types) },
          path.endsWith('[]')
            ? 'the list is empty in the new recording: nothing to compare'
            : ok && !fieldRequired(operation, path)
              ? 'the SDK does not need it: its schema has it optional or undeclared'
              : errorForm,
        );
        continue;
      }
      const gained = [...newTypes].filter((type) => !types.has(type));
      if (gained.length === 0) continue;
      const detail = `${typeList(types)} → ${typeList(newTypes)}`;
      if (gained.length === 1 && gained[0] === 'null') {
        judged(
          { operation: key, kind: 'nullable', path, detail },
          ok && fieldAccepts(operation, path, null) !== false
            ? 'the SDK’s schema allows null here'
            : errorForm,
        );
      } else {
        judged(
          { operation: key, kind: 'retyped', path, detail },
          ok && fieldAccepts(operation, path, undefined) === undefined
            ? 'a field the SDK does not declare'
            : errorForm,
        );
      }
    }
    for (const [path, types] of is.fields) {
      const parent = parentOf(path);
      if (was.fields.has(path) || (parent !== '' && !was.fields.has(parent))) continue;
      notes.push({
        operation: key,
        kind: 'added',
        path,
        detail: typeList(types),
        note: 'a field the SDK reads past (it keeps it on the record)',
      });
    }
    for (const [path, values] of is.values) {
      const known = was.values.get(path) ?? new Set();
      for (const value of values) {
        if (known.has(value)) continue;
        judged(
          { operation: key, kind: 'enum value', path, detail: value },
          fieldAccepts(operation, path, value) ? 'a value the SDK knows' : undefined,
        );
      }
    }
    const changed = [
      ...[...is.headers]
        .filter((name) => !was.headers.has(name))
        .map((name) => [name, 'header added'] as const),
      ...[...was.headers]
        .filter((name) => !is.headers.has(name))
        .map((name) => [name, 'header removed'] as const),
    ];
    for (const [name, kind] of changed) {
      const family = familyOf(name);
      const drift =
        (family === 'rate-limit' && !is.windows) ||
        (family === 'request id' && kind === 'header removed') ||
        (family === 'deprecation' && kind === 'header added');
      const id = `${kind} ${name}`;
      const change = headerChanges.get(id) ?? { header: name, kind, operations: [], family, drift };
      change.operations.push(key);
      change.drift ||= drift;
      headerChanges.set(id, change);
    }
  }
  const headers = [...headerChanges.values()];
  // Drift keeps today's form, once per operation; every header change is in `headers` once.
  for (const change of headers.filter((each) => each.drift)) {
    for (const operation of change.operations) {
      differences.push({ operation, kind: change.kind, path: change.header });
    }
  }
  const missing = [...old.keys()].filter((key) => !now.has(key) && !key.includes(' '));
  const added = [...now.keys()].filter((key) => !old.has(key) && !key.includes(' '));
  return {
    same: differences.length === 0 && missing.length === 0,
    differences,
    coverage: { missing, added },
    notes,
    headers,
  };
}
