/**
 * Writes src/tools.json, the name, title, description and schemas of each of the 18 tools:
 * `npm run generate -w @employee-recognition/mcp`. With `--check`, writes nothing and exits 1
 * when the committed file differs from a fresh generation (test/tools-json.test.ts runs it).
 *
 * Every fact comes from the SDK, nothing is restated here:
 * - input schemas: the SDK's openapi.json, generated from its zod schemas with each bound proven
 *   equal to the schema's (scripts/openapi/ of the repository). The zod schemas themselves are
 *   internal to the SDK and stripped from its published types;
 * - descriptions: the first sentence of the doc comment of the SDK method each tool calls, read
 *   with the TypeScript parser, then what the tool does differently from the method (one page
 *   per call, the idempotency key, the withheld webhook secret), then the scope it needs;
 * - output schemas: the record schemas of openapi.json, with their descriptions and JSON types
 *   but no other constraint (see `typesOnly`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import ts from 'typescript';

type Schema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  description?: string;
  schema: Schema;
}

interface Operation {
  operationId: string;
  tags: [string];
  summary: string;
  security: { ApiKey: [string] }[];
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { content: { 'application/json': { schema: Schema } } };
  responses: Record<string, { content?: { 'application/json': { schema: Schema } } }>;
}

/** One tool as src/tools.json holds it. */
export interface ToolSpec {
  name: string;
  /** The SDK namespace, such as `recognitions`. */
  resource: string;
  /** What the tool does to the service: `read`, or the kind of write. */
  access: 'read' | 'create' | 'update' | 'delete';
  /** One page per call (takes `cursor` and `limit`, returns `next_cursor`). */
  paginated: boolean;
  title: string;
  description: string;
  inputSchema: Schema;
  outputSchema: Schema;
}

const root = new URL('../../../', import.meta.url);
const target = new URL('../src/tools.json', import.meta.url);
const openapi = JSON.parse(readFileSync(new URL('openapi.json', root), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { parameters: Record<string, Parameter> };
};

const ACCESS: Record<string, ToolSpec['access']> = {
  get: 'read',
  post: 'create',
  patch: 'update',
  delete: 'delete',
};

// The tool's own arguments, beside the SDK method's parameters.
const CURSOR: Schema = {
  type: 'string',
  minLength: 1,
  description:
    'The `next_cursor` of the previous page, to continue the list there; leave it out for the first page. It carries the filters of the first page.',
};
const IDEMPOTENCY_KEY_TEXT =
  'Any unique string, such as a UUID, to make repeating this call safe: for 24 hours a repeat with the same key and arguments returns the first result instead of creating again; the same key with other arguments fails with 409 `conflict`. Without one, each call creates.';

// Sentences about what differs from the SDK method: the tool returns one page, not an iterator.
const PAGE_TEXT =
  'Returns one page of records and `next_cursor`: call again with it as `cursor` for the next page; null means this is the last page.';
const UNPAGED_TEXT = 'Not paginated: returns them all.';
const SECRET_TEXT =
  'The signing secret the service returns is withheld from the result, as every credential is: to verify deliveries, register the webhook with the SDK or its CLI instead.';
const DELETE_TEXT = 'It cannot be undone.';

/** The tools, in the order of openapi.json (resource by resource). */
export function buildTools(): ToolSpec[] {
  const tools: ToolSpec[] = [];
  for (const operations of Object.values(openapi.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const access = ACCESS[method];
      if (!access) throw new Error(`tools: no access for method ${method}`);
      tools.push(tool(operation, access));
    }
  }
  return tools;
}

function tool(operation: Operation, access: ToolSpec['access']): ToolSpec {
  const name = operation.operationId;
  const [resource] = operation.tags;
  const parameters = (operation.parameters ?? []).map(deref<Parameter>);
  const paginated = parameters.some((parameter) => parameter.name === 'cursor');

  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const parameter of parameters) {
    if (parameter.in === 'header') continue;
    // The tool pages by cursor alone: `next_cursor` of the previous page, as MCP lists page.
    if (parameter.name === 'page') continue;
    properties[parameter.name] =
      parameter.name === 'cursor'
        ? CURSOR
        : { ...parameter.schema, description: parameter.description };
    if (parameter.required) required.push(parameter.name);
  }
  const body = operation.requestBody?.content['application/json'].schema;
  if (body) {
    const { properties: fields, required: needed = [] } = deref<Schema>(body) as {
      properties: Record<string, Schema>;
      required?: string[];
    };
    Object.assign(properties, fields);
    required.push(...needed);
  }
  if (access === 'create') {
    const header = parameters.find((parameter) => parameter.in === 'header');
    if (!header) throw new Error(`tools: ${name} takes no Idempotency-Key`);
    properties.idempotency_key = { ...header.schema, description: IDEMPOTENCY_KEY_TEXT };
  }

  const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
  const returned = success?.[1].content?.['application/json'].schema;
  const scope = operation.security[0]!.ApiKey[0];
  const notes = [
    paginated ? PAGE_TEXT : '',
    name.endsWith('_list') && !paginated ? UNPAGED_TEXT : '',
    name === 'webhooks_create' ? SECRET_TEXT : '',
    access === 'delete' ? DELETE_TEXT : '',
    `Needs the scope \`${scope}\`.`,
  ].filter(Boolean);

  return {
    name,
    resource,
    access,
    paginated,
    title: operation.summary,
    description: [methodSummary(name), ...notes].join(' '),
    inputSchema: {
      type: 'object',
      properties: portable(resolveAll(properties)),
      ...(required.length ? { required } : {}),
      additionalProperties: false,
    },
    outputSchema: outputSchema(name, returned, paginated),
  };
}

/**
 * What the tool returns in `structuredContent`: the answer's `data` (one page of it for a
 * paginated list, with `next_cursor`), or for a delete the id deleted.
 */
function outputSchema(name: string, returned: Schema | undefined, paginated: boolean): Schema {
  if (!returned) {
    return {
      type: 'object',
      properties: {
        deleted: { const: true, description: 'The record no longer exists.' },
        id: { type: 'string', description: 'The id of the deleted record.' },
      },
      required: ['deleted', 'id'],
    };
  }
  const body = deref<Schema>(returned) as { properties: { data: Schema } };
  // webhooks_create withholds the secret (SECRET_TEXT): it returns the webhook as a read does.
  const record =
    name === 'webhooks_create' ? { $ref: '#/components/schemas/Webhook' } : body.properties.data;
  const data = typesOnly(resolveAll(record) as Schema);
  if (!paginated) {
    return { type: 'object', properties: { data }, required: ['data'] };
  }
  return {
    type: 'object',
    properties: {
      data,
      next_cursor: {
        anyOf: [{ type: 'string' }, { type: 'null' }],
        description: 'Pass it as `cursor` to get the next page; null when this is the last page.',
      },
    },
    required: ['data', 'next_cursor'],
  };
}

/**
 * A record's schema as a tool's output states it: its descriptions, structure and JSON types,
 * without formats, enumerations, bounds or required fields. A record the service sends may differ
 * from the contract: the SDK returns it as received and logs the difference (its
 * `validateResponses` default, 'warn'), and never fails a call for it, a write above all. The
 * server leaves a field of another type out of `structuredContent` (src/conform.ts); a missing
 * field, a new enumeration value or an odd timestamp pass as they are.
 */
function typesOnly(schema: Schema): Schema {
  const kept: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties') {
      kept.properties = Object.fromEntries(
        Object.entries(value as Record<string, Schema>).map(([field, property]) => [
          field,
          typesOnly(property),
        ]),
      );
    } else if (key === 'items') {
      kept.items = typesOnly(value as Schema);
    } else if (key === 'description' && 'properties' in schema) {
      // A record's first sentence says what it is; the rest speaks of the SDK's assumptions.
      kept.description = /^.*?\.(?=\s|$)/.exec(String(value))?.[0] ?? value;
    } else if (key === 'description' || key === 'type') {
      kept[key] = value;
    }
  }
  return portable(kept);
}

/**
 * `type: ["string", "null"]` as `anyOf` of single types, the same schema in the spelling every
 * client's dialect reads (the MCP Inspector's `--strict` check flags the array form).
 */
function portable(schema: unknown): Schema {
  if (Array.isArray(schema)) return schema.map(portable) as unknown as Schema;
  if (schema === null || typeof schema !== 'object') return schema as Schema;
  const { type, ...rest } = schema as Schema;
  const converted = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, portable(value)]),
  );
  if (!Array.isArray(type)) return type === undefined ? converted : { type, ...converted };
  return { anyOf: type.map((each: unknown) => ({ type: each })), ...converted };
}

/** `{ $ref: '#/components/…' }` resolved one level; anything else as it is. */
function deref<T>(value: T | { $ref: string }): T {
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref !== 'string') return value as T;
  let target: unknown = openapi;
  for (const part of ref.replace(/^#\//, '').split('/')) {
    target = (target as Record<string, unknown>)[part];
  }
  if (target === undefined) throw new Error(`tools: ${ref} is not in openapi.json`);
  // A $ref's sibling description says what the reference means here: it wins.
  const { $ref: _, ...siblings } = value as Record<string, unknown>;
  return { ...(target as object), ...siblings } as T;
}

/** Every $ref inside the schema resolved: a tool's schemas stand alone, without components. */
function resolveAll(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(resolveAll);
  if (value === null || typeof value !== 'object') return value;
  const resolved = deref(value as Schema);
  return Object.fromEntries(
    Object.entries(resolved).map(([key, inner]) => [key, resolveAll(inner)]),
  );
}

const summaries = new Map<string, string>();

/**
 * The first sentence of the doc comment of the SDK method a tool calls (`recognitions_list`:
 * `Recognitions.list` in src/resources/recognitions.ts): what it does and its route. What follows
 * in the comment speaks to TypeScript callers (awaiting, iterating, what it resolves to).
 */
function methodSummary(name: string): string {
  if (summaries.size === 0) {
    for (const resource of new Set(buildToolNames().map((tool) => tool.split('_')[0]!))) {
      readMethodSummaries(resource);
    }
  }
  const summary = summaries.get(name);
  if (!summary) throw new Error(`tools: no doc comment for the SDK method of ${name}`);
  return summary;
}

function buildToolNames(): string[] {
  return Object.values(openapi.paths).flatMap((operations) =>
    Object.values(operations).map((operation) => operation.operationId),
  );
}

function readMethodSummaries(resource: string): void {
  const file = new URL(`src/resources/${resource}.ts`, root);
  const source = ts.createSourceFile(
    fileURLToPath(file),
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  for (const statement of source.statements) {
    if (!ts.isClassDeclaration(statement)) continue;
    for (const member of statement.members) {
      if (!ts.isMethodDeclaration(member) || !ts.isIdentifier(member.name)) continue;
      const text = ts
        .getJSDocCommentsAndTags(member)
        .filter(ts.isJSDoc)
        .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '')
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim();
      const sentence = /^.*?\.(?=\s|$)/.exec(text)?.[0];
      if (sentence) summaries.set(`${resource}_${member.name.text}`, sentence);
    }
  }
}

/** The file as committed: JSON laid out by the repository's prettier settings. */
export async function renderTools(): Promise<string> {
  const path = fileURLToPath(target);
  const options = await resolveConfig(path);
  return format(JSON.stringify(buildTools()), { ...options, filepath: path });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const fresh = await renderTools();
  if (process.argv.includes('--check')) {
    if (readFileSync(target, 'utf8') !== fresh) {
      console.error('src/tools.json differs from a fresh generation: run `npm run generate`.');
      process.exit(1);
    }
  } else {
    writeFileSync(target, fresh);
  }
}
