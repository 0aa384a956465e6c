import { readFile } from 'node:fs/promises';
import { ENUM_FIELDS } from '../resources/fields.js';
import { type Har, type HarEntry, operationOf, parseJson } from '../testing/har.js';
import { type Command, describe, EXIT, parseCommandArgs, UsageError } from './command.js';

/** `employee-recognition traffic`: drift between the service's answers and the SDK's, in HAR recordings. */
export const traffic: Command = {
  name: 'traffic',
  summary: 'Check recorded traffic (HAR) against the SDK, or compare two recordings',
  help: `Usage: employee-recognition traffic diff <old.har> <new.har> [options]

Compares the shapes of the answers of two recordings (such as last week's and today's smoke
session, recorded with createRecorder() or node --import @employee-recognition/sdk/record), by
operation, not their values: fields added, removed, retyped or become nullable, enumeration
values new to the second, headers that appeared or went. Exits 1 when the shapes differ, 0 when
they match, 2 on bad usage or a file that is not a HAR.

Options:
  --json         Print the differences as JSON
  -h, --help     Show this help

Example:
  employee-recognition traffic diff smoke-last.har smoke.har`,
  async run(args) {
    const parsed = parseCommandArgs(this, args, { json: { type: 'boolean' } });
    if (!parsed) return EXIT.ok;
    const [subcommand, ...files] = parsed.positionals;
    if (subcommand !== 'diff') {
      throw new UsageError(
        subcommand === undefined
          ? 'Give a subcommand: diff.'
          : `Unknown subcommand "${subcommand}": use diff.`,
      );
    }
    if (files.length !== 2) throw new UsageError('diff takes two files: <old.har> <new.har>.');
    const [before, after] = await Promise.all(files.map(readHar));
    const differences = diffShapes(shapesOf(before!), shapesOf(after!));
    if (parsed.values.json) {
      process.stdout.write(
        `${JSON.stringify({ same: differences.length === 0, differences }, null, 2)}\n`,
      );
    } else {
      process.stdout.write(renderDifferences(differences, files[0]!, files[1]!));
    }
    return differences.length ? EXIT.failure : EXIT.ok;
  },
};

/** A HAR file's JSON; anything else is a usage error naming the file. */
export async function readHar(path: string): Promise<Har> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${path}: ${describe(error)}`);
  }
  const har = parseJson(text) as Har | undefined;
  if (!Array.isArray(har?.log?.entries)) {
    throw new UsageError(`${path} is not a HAR file: it has no log.entries.`);
  }
  return har;
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
export interface ShapeDifference {
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

function renderDifferences(differences: ShapeDifference[], before: string, after: string): string {
  if (differences.length === 0) {
    return `The answers of ${after} have the shapes of ${before}'s.\n`;
  }
  const lines: string[] = [];
  let operation: string | undefined;
  for (const difference of differences) {
    if (difference.operation !== operation) {
      operation = difference.operation;
      lines.push(`${operation}:`);
    }
    const detail = difference.detail === undefined ? '' : `: ${difference.detail}`;
    lines.push(`  ${difference.kind.padEnd(14)} ${difference.path}${detail}`);
  }
  const count = differences.length;
  lines.push('', `${count} difference${count === 1 ? '' : 's'} between ${before} and ${after}.`);
  return `${lines.join('\n')}\n`;
}
