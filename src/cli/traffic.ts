import { readFile, writeFile } from 'node:fs/promises';
import type { Recorder } from '@employee-recognition/sdk/testing';
import type * as DoctorEntryModule from '@employee-recognition/sdk/doctor';
import type {
  DoctorCheck,
  DoctorReport,
  NewField,
  RecordDifference,
} from '@employee-recognition/sdk/doctor';
import { HEADER_DEPRECATION, HEADER_REQUEST_ID, HEADER_SUNSET } from '../contract.js';
import { ENUM_FIELDS, personalFieldsOf } from '../resources/fields.js';
import {
  type Har,
  type HarEntry,
  HarError,
  harHeader,
  operationOf,
  parseHar,
  parseJson,
} from '../testing/har.js';
import { type Command, describe, EXIT, parseCommandArgs, UsageError } from './command.js';

/** `employee-recognition traffic`: drift between the service's answers and the SDK's, in HAR recordings. */
export const traffic: Command = {
  name: 'traffic',
  summary: 'Check recorded traffic (HAR) against the SDK, or compare two recordings',
  help: `Usage: employee-recognition traffic check <file.har> [--json | --markdown]
       employee-recognition traffic diff <old.har> <new.har> [--json]

  traffic check <file.har>
      Checks every recorded answer against the SDK's assumptions: each record against the SDK's
      schemas (fields missing, retyped, unknown enumeration values; new fields listed), the
      envelope of lists and single records, the error body, and the headers (x-request-id,
      rate-limit headers, deprecation notices). Prints the doctor's report. Exits 0 when no
      check failed, 1 when one did, 2 on bad usage or a file that is not a HAR.

  traffic diff <old.har> <new.har>
      Compares the shapes of the answers of two recordings (such as last week's and today's smoke
session, recorded with createRecorder() or node --import @employee-recognition/sdk/record), by
      operation, not their values: fields added, removed, retyped or become nullable, enumeration
      values new to the second, headers that appeared or went. Exits 1 when the shapes differ, 0
      when they match, 2 on bad usage or a file that is not a HAR.

Recordings come from createRecorder() of @employee-recognition/sdk/testing, from
node --import @employee-recognition/sdk/record, or from --record of api and doctor.

Options:
  --json         The report, or the differences, as JSON
  --markdown     The check's report in Markdown, to paste into a support ticket
  -h, --help     Show this help

Examples:
  employee-recognition traffic check smoke.har
  employee-recognition traffic diff smoke-last.har smoke.har`,
  async run(args) {
    const parsed = parseCommandArgs(this, args, {
      json: { type: 'boolean' },
      markdown: { type: 'boolean' },
    });
    if (!parsed) return EXIT.ok;
    const { values } = parsed;
    const [subcommand, ...files] = parsed.positionals;
    if (values.json && values.markdown)
      throw new UsageError('Choose one of --json and --markdown.');
    const doctor = await import('@employee-recognition/sdk/doctor');
    if (subcommand === 'check') {
      if (files.length !== 1) throw new UsageError('check takes one file: <file.har>.');
      const report = doctor.createReport(checkRecording(await readHar(files[0]!), doctor));
      return printReport(report, values);
    }
    if (subcommand !== 'diff') {
      throw new UsageError(
        subcommand === undefined
          ? 'Give a subcommand: check or diff.'
          : `Unknown subcommand "${subcommand}": use check or diff.`,
      );
    }
    if (values.markdown) throw new UsageError('--markdown goes with check.');
    if (files.length !== 2) throw new UsageError('diff takes two files: <old.har> <new.har>.');
    const [before, after] = await Promise.all(files.map(readHar));
    const differences = diffShapes(shapesOf(before!), shapesOf(after!));
    if (values.json) {
      process.stdout.write(
        `${JSON.stringify({ same: differences.length === 0, differences }, null, 2)}\n`,
      );
    } else {
      process.stdout.write(renderDifferences(differences, files[0]!, files[1]!, doctor.printable));
    }
    return differences.length ? EXIT.failure : EXIT.ok;
  },
};

/**
 * Prints a doctor's report (doctor, traffic check) as `--json` or `--markdown` ask, else for a
 * terminal; resolves to the exit code: 1 when a check failed.
 */
export async function printReport(
  report: DoctorReport,
  format: { json?: boolean | undefined; markdown?: boolean | undefined },
): Promise<number> {
  const doctor = await import('@employee-recognition/sdk/doctor');
  process.stdout.write(
    format.json
      ? doctor.renderJson(report)
      : format.markdown
        ? doctor.renderMarkdown(report)
        : doctor.renderTerminal(report),
  );
  return report.ok ? EXIT.ok : EXIT.failure;
}

/**
 * The recorder of `--record <file>` (api, doctor): the command's calls, redacted, streamed to the
 * file, a HAR once closed; undefined without the option. A file that cannot be written is a
 * usage error before anything is sent.
 */
export async function recorderFor(file: string | undefined): Promise<Recorder | undefined> {
  if (file === undefined) return undefined;
  try {
    await writeFile(file, '');
  } catch (error) {
    throw new UsageError(`--record: cannot write ${file}: ${describe(error)}`);
  }
  const { createRecorder } = await import('@employee-recognition/sdk/testing');
  return createRecorder({ file });
}

/**
 * A HAR file through the one reader (src/testing/har.ts), a recorder's `.partial` included; what
 * the reader says of it goes to stderr. Anything else is a usage error naming the file.
 */
async function readHar(path: string): Promise<Har> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${path}: ${describe(error)}`);
  }
  try {
    const { har, notes } = parseHar(text, path);
    for (const note of notes) process.stderr.write(`${note}\n`);
    return har;
  } catch (error) {
    if (error instanceof HarError) throw new UsageError(error.message);
    throw error;
  }
}

/** The shape of the answers to one operation (and status) across a recording. */
interface Shape {
  /** Each field's path (`data[].role`) and the JSON types seen there. */
  fields: Map<string, Set<string>>;
  /** The values seen at the SDK's enumeration fields, by path. */
  values: Map<string, Set<string>>;
  /** The response headers' names, lower-case. */
  headers: Set<string>;
}

/** One difference between two recordings. */
interface ShapeDifference {
  /** `users.list`, or `users.get 404` for an answer that is not a 2xx. */
  operation: string;
  kind:
    'removed' | 'added' | 'retyped' | 'nullable' | 'enum value' | 'header added' | 'header removed';
  /** The field's path or the header's name. */
  path: string;
  /** What changed: `string → number`, or the new value. */
  detail?: string | undefined;
}

// The transport's headers, which say nothing of the service.
const TRANSPORT = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'date',
]);

// The key of an entry: its operation (or method and path for another request), and the status
// when not a 2xx, so an error's shape is compared with errors of the same kind.
function operationKey(entry: HarEntry): string | undefined {
  const { status } = entry.response;
  if (status === 0) return undefined;
  const name =
    operationOf(entry.request.method, entry.request.url) ??
    `${entry.request.method} ${new URL(entry.request.url).pathname}`;
  return status >= 200 && status < 300 ? name : `${name} ${status}`;
}

function shapesOf(har: Har): Map<string, Shape> {
  const shapes = new Map<string, Shape>();
  for (const entry of har.log.entries) {
    const key = operationKey(entry);
    if (key === undefined) continue;
    let shape = shapes.get(key);
    if (!shape) {
      shape = { fields: new Map(), values: new Map(), headers: new Set() };
      shapes.set(key, shape);
    }
    for (const { name } of entry.response.headers) {
      if (!TRANSPORT.has(name.toLowerCase())) shape.headers.add(name.toLowerCase());
    }
    // A body cut at the recorder's cap cannot be parsed, and says nothing of the shape.
    const body = parseJson(entry.response.content.text);
    if (body === undefined) continue;
    const group = key.split('.')[0]!;
    const enums = new Set(
      (ENUM_FIELDS[group] ?? []).flatMap((field) => [`data.${field}`, `data[].${field}`]),
    );
    walk(body, '', shape, enums);
  }
  return shapes;
}

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

const list = (types: Set<string>) => [...types].sort().join(' or ');

/** What differs between the shapes of two recordings, for the operations both hold. */
function diffShapes(before: Map<string, Shape>, after: Map<string, Shape>): ShapeDifference[] {
  const out: ShapeDifference[] = [];
  for (const [operation, old] of before) {
    const now = after.get(operation);
    if (!now) continue;
    for (const [path, types] of old.fields) {
      const newTypes = now.fields.get(path);
      if (!newTypes) {
        out.push({ operation, kind: 'removed', path, detail: list(types) });
        continue;
      }
      const gained = [...newTypes].filter((type) => !types.has(type));
      if (gained.length === 1 && gained[0] === 'null') {
        out.push({
          operation,
          kind: 'nullable',
          path,
          detail: `${list(types)} → ${list(newTypes)}`,
        });
      } else if (gained.length) {
        out.push({
          operation,
          kind: 'retyped',
          path,
          detail: `${list(types)} → ${list(newTypes)}`,
        });
      }
    }
    for (const [path, types] of now.fields) {
      // A field below a new one is part of it: reported once, at its top.
      const parent = parentOf(path);
      if (old.fields.has(path) || (parent !== '' && !old.fields.has(parent))) continue;
      out.push({ operation, kind: 'added', path, detail: list(types) });
    }
    for (const [path, values] of now.values) {
      const known = old.values.get(path) ?? new Set();
      for (const value of values) {
        if (!known.has(value)) out.push({ operation, kind: 'enum value', path, detail: value });
      }
    }
    for (const name of now.headers) {
      if (!old.headers.has(name)) out.push({ operation, kind: 'header added', path: name });
    }
    for (const name of old.headers) {
      if (!now.headers.has(name)) out.push({ operation, kind: 'header removed', path: name });
    }
  }
  return out;
}

// `data[].team` of `data[].team.name`, `data` of `data[]`, '' of a top-level field.
function parentOf(path: string): string {
  const parent = path.replace(/(?:\[\]|\.[^.[\]]+)$/, '');
  return parent === path ? '' : parent;
}

// Field names and values come from the service: `printable` keeps them to one harmless line.
function renderDifferences(
  differences: ShapeDifference[],
  before: string,
  after: string,
  printable: (text: string) => string,
): string {
  if (differences.length === 0) {
    return `The answers of ${after} have the shapes of ${before}'s.\n`;
  }
  const lines: string[] = [];
  let operation: string | undefined;
  for (const difference of differences) {
    if (difference.operation !== operation) {
      operation = difference.operation;
      lines.push(`${printable(operation)}:`);
    }
    const detail = difference.detail === undefined ? '' : `: ${difference.detail}`;
    lines.push(`  ${difference.kind.padEnd(14)} ${printable(`${difference.path}${detail}`)}`);
  }
  const count = differences.length;
  lines.push('', `${count} difference${count === 1 ? '' : 's'} between ${before} and ${after}.`);
  return `${lines.join('\n')}\n`;
}

type DoctorEntry = typeof DoctorEntryModule;

/**
 * The checks of `traffic check`: the doctor's, run on every recorded answer rather than on one
 * probe each. Only names, types and counts go into the report, never a recorded value.
 */
function checkRecording(har: Har, doctor: DoctorEntry): DoctorCheck[] {
  const { ASSUMPTIONS } = doctor;
  const entries = har.log.entries.map((entry) => ({
    entry,
    operation: operationOf(entry.request.method, entry.request.url),
    status: entry.response.status,
    body: parseJson(entry.response.content.text),
    truncated: entry.response.content.comment?.startsWith('truncated') ?? false,
  }));
  const api = entries.filter((each) => each.operation !== undefined && each.status !== 0);
  const ok = api.filter((each) => each.status >= 200 && each.status < 300);
  const errors = api.filter((each) => each.status >= 400);
  const operations = [...new Set(api.map((each) => each.operation!))];
  const checks: DoctorCheck[] = [
    {
      id: 'recording',
      status: api.length ? 'ok' : 'skip',
      summary: api.length
        ? `${har.log.entries.length} entries, ${api.length} API answers of ${operations.length} operation${operations.length === 1 ? '' : 's'}${
            entries.some((each) => each.truncated)
              ? `; ${entries.filter((each) => each.truncated).length} cut at the size cap (not checked)`
              : ''
          }`
        : 'no answer of the API in the recording',
      details: {
        entries: har.log.entries.length,
        operations,
        truncated: entries.filter((each) => each.truncated).length,
        noAnswer: entries.filter((each) => each.status === 0).length,
      },
    },
  ];

  // Records: every 2xx answer's records against the SDK's schemas, each field reported once.
  const differences = new Map<string, RecordDifference>();
  const newFields = new Map<string, NewField>();
  for (const { operation, body, truncated } of ok) {
    if (truncated || body === undefined) continue;
    const found = doctor.checkRecords(operation!, body);
    for (const each of found.differences) differences.set(`${each.operation} ${each.path}`, each);
    for (const each of found.newFields) newFields.set(`${each.operation} ${each.path}`, each);
  }
  const named = [...differences.values()]
    .slice(0, 3)
    .map((each) => `${each.operation} ${each.path} ${each.problem}`);
  const fresh = [...newFields.values()];
  checks.push({
    id: 'records',
    status: differences.size ? 'fail' : ok.length ? 'ok' : 'skip',
    summary: differences.size
      ? `${differences.size} field${differences.size === 1 ? '' : 's'} differ from the SDK's types: ${named.join('; ')}${differences.size > 3 ? '; …' : ''}`
      : ok.length
        ? `every record of ${ok.length} answers matches the SDK's types${
            fresh.length
              ? `; ${fresh.length} new field${fresh.length === 1 ? '' : 's'} (${fresh
                  .slice(0, 4)
                  .map((each) => `${each.operation} ${each.path}`)
                  .join(', ')}${fresh.length > 4 ? ', …' : ''})`
              : ''
          }`
        : 'no successful answer to check',
    ...(differences.size
      ? {
          fix: 'Code that reads these fields gets another type than the SDK declares: read them defensively, and report the difference (docs/doctor.md, “Reporting a difference”).',
        }
      : {}),
    assumption: ASSUMPTIONS.records,
    details: { differences: [...differences.values()], newFields: fresh },
  });

  // Envelope: a list is { data: [...], pagination } or a Link rel="next"; one record { data: {...} }.
  const envelope: { operation: string; problem: string }[] = [];
  for (const { entry, operation, body, truncated } of ok) {
    if (truncated || entry.response.status === 204) continue;
    const data = (body as { data?: unknown } | undefined)?.data;
    const list = operation!.endsWith('.list');
    if (
      list ? !Array.isArray(data) : data === null || typeof data !== 'object' || Array.isArray(data)
    ) {
      envelope.push({
        operation: operation!,
        problem: list ? 'data is not an array' : 'data is not an object',
      });
    } else if (list) {
      const pagination = (body as { pagination?: unknown }).pagination;
      const link = /rel="?next"?/i.test(harHeader(entry.response.headers, 'link') ?? '');
      if (
        (pagination === null || typeof pagination !== 'object') &&
        !link &&
        operation !== 'budgets.list' &&
        operation !== 'webhooks.list'
      ) {
        envelope.push({
          operation: operation!,
          problem: 'no pagination object and no Link rel="next"',
        });
      }
    }
  }
  checks.push(
    listCheck(
      'envelope',
      ok.length,
      envelope,
      ASSUMPTIONS.pagination,
      'fail',
      'every answer is { data } around its records, a list with its pagination',
      "The SDK's methods fail on these answers (InvalidResponseError): report the envelope the service sends (docs/doctor.md).",
    ),
  );

  // Errors: the SDK's { error: { code, message } } or RFC 9457 problem+json.
  const badErrors: { operation: string; problem: string }[] = [];
  for (const { entry, operation, body } of errors) {
    const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    const problem = body as { title?: unknown; detail?: unknown } | undefined;
    const contract = typeof error?.code === 'string' && typeof error.message === 'string';
    const rfc9457 =
      /application\/problem\+json/i.test(harHeader(entry.response.headers, 'content-type') ?? '') ||
      typeof problem?.title === 'string' ||
      typeof problem?.detail === 'string';
    if (!contract && !rfc9457)
      badErrors.push({
        operation: `${operation!} ${entry.response.status}`,
        problem: 'neither { error: { code, message } } nor problem+json',
      });
  }
  checks.push(
    listCheck(
      'errors',
      errors.length,
      badErrors,
      ASSUMPTIONS.errorBody,
      'warn',
      `${errors.length} error answer${errors.length === 1 ? '' : 's'} in the SDK's error body or RFC 9457 problem+json`,
      'These errors carry the raw body as their message and the status’s code: branch on the error classes and `status`.',
    ),
  );

  // Headers: a request id and rate-limit headers on every answer; deprecation notices named.
  const noRequestId = new Set<string>();
  const noRateLimit = new Set<string>();
  const deprecated = new Set<string>();
  const families = new Set<string>();
  for (const { entry, operation } of api) {
    const names = entry.response.headers.map((header) => header.name.toLowerCase());
    if (!names.includes(HEADER_REQUEST_ID)) noRequestId.add(operation!);
    const rateLimit = names.filter((name) => /^(x-)?ratelimit(-|$)/.test(name));
    if (rateLimit.length === 0) noRateLimit.add(operation!);
    for (const name of rateLimit)
      families.add(name.startsWith('x-') ? 'X-RateLimit-*' : 'RateLimit');
    if (names.includes(HEADER_DEPRECATION) || names.includes(HEADER_SUNSET))
      deprecated.add(operation!);
  }
  const headerProblems = [
    ...(noRequestId.size ? [`no ${HEADER_REQUEST_ID} on ${[...noRequestId].join(', ')}`] : []),
    ...(noRateLimit.size ? [`no rate-limit headers on ${[...noRateLimit].join(', ')}`] : []),
  ];
  checks.push({
    id: 'headers',
    status: api.length === 0 ? 'skip' : headerProblems.length ? 'warn' : 'ok',
    summary:
      api.length === 0
        ? 'no answer of the API in the recording'
        : headerProblems.length
          ? headerProblems.join('; ')
          : `${HEADER_REQUEST_ID} and rate-limit headers (${[...families].join(', ')}) on every answer`,
    ...(headerProblems.length
      ? {
          fix: 'Without these the SDK paces by its own count and errors carry no request id for support.',
        }
      : {}),
    assumption: ASSUMPTIONS.rateLimit,
    details: {
      noRequestId: [...noRequestId],
      noRateLimit: [...noRateLimit],
      families: [...families],
    },
  });
  checks.push({
    id: 'deprecations',
    status: deprecated.size ? 'warn' : api.length ? 'ok' : 'skip',
    summary: deprecated.size
      ? `the service announces the deprecation of ${[...deprecated].join(', ')}`
      : api.length
        ? 'no operation is announced as deprecated'
        : 'no answer of the API in the recording',
    ...(deprecated.size
      ? { fix: 'Move off these operations before their sunset (docs/errors-and-retries.md).' }
      : {}),
    assumption: ASSUMPTIONS.deprecations,
    details: { deprecated: [...deprecated] },
  });
  checks.push(privacyCheck(har, entries));
  return checks;
}

// What a recording made with the default redaction holds in its personal fields.
const PSEUDONYM = /^(?:Person\d+(?: Person\d+)*|person\d+@redacted\.invalid)$/;
// Secrets by their shape: what the redaction never leaves in a file.
const SECRET_SHAPE = /whsec_[A-Za-z0-9+/=]{8,}|rk_(?:live|test)_[A-Za-z0-9]{24,}/;

/**
 * Whether the file can be shared: no secret by its shape anywhere, and pseudonyms in the
 * personal fields of the list beside the schemas (src/resources/fields.ts). Counts and field
 * names only: the report never shows what was found.
 */
function privacyCheck(
  har: Har,
  entries: { entry: HarEntry; operation: string | undefined; body: unknown }[],
): DoctorCheck {
  const secrets = har.log.entries.filter((entry) =>
    SECRET_SHAPE.test(JSON.stringify(entry)),
  ).length;
  const personal = new Set<string>();
  for (const { operation, body } of entries) {
    for (const { parent, key, path } of personalFieldsOf(operation?.split('.')[0], body)) {
      const value = parent[key];
      if (typeof value === 'string' && !PSEUDONYM.test(value)) personal.add(`${operation} ${path}`);
    }
  }
  const details = { entriesWithSecrets: secrets, personalFields: [...personal] };
  if (secrets > 0) {
    return {
      id: 'privacy',
      status: 'fail',
      summary: `${secrets} entr${secrets === 1 ? 'y holds' : 'ies hold'} a webhook secret or an API key: do not share this file`,
      fix: 'Record again with the default redaction (createRecorder, the preload or --record), which removes them.',
      details,
    };
  }
  if (personal.size > 0) {
    return {
      id: 'privacy',
      status: 'warn',
      summary: `names or emails in ${[...personal].slice(0, 3).join(', ')}${personal.size > 3 ? ', …' : ''} are not pseudonyms: the file holds personal data`,
      fix: 'Record with redact.personal left on (the default) before the file leaves the machine.',
      details,
    };
  }
  return {
    id: 'privacy',
    status: 'ok',
    summary: 'no secret by its shape, and pseudonyms in every personal field',
    details,
  };
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
  if (checked === 0)
    return {
      id,
      status: 'skip',
      summary: 'no answer of this kind in the recording',
      assumption,
      details: { problems: [] },
    };
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
