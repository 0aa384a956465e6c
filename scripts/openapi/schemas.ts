/**
 * The SDK's zod/mini schemas as JSON Schema (2020-12, the dialect of OpenAPI 3.1).
 *
 * Structure (fields, which are required, types, nullability, open or closed objects) is read
 * from the schemas themselves. What the schemas do not carry is added from contract.ts: the
 * SDK checks inputs with custom rules (`rule()` in src/core/validation.ts), which have no
 * introspectable bounds, and checks responses for shape only, so formats, ranges and known
 * enumeration values of records exist in the contract alone. Every bound given to an input is
 * proven against the SDK's own schema before it is written (see `prove`), so the document
 * cannot promise a bound the SDK does not enforce.
 */
import type * as z from 'zod/mini';
import { boolean, recordId, timestamp, uuidParam } from '../../src/resources/shared.js';

/** A JSON Schema object, as far as this generator writes one. */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * What the contract says about a field beyond its type, merged over the generated schema: `items`
 * merges into an array's element schema, `notNull: true` drops a null the SDK accepts from
 * callers but never sends.
 */
type FieldFacts = JsonSchema;

/** Facts for the fields of one object, by field name. */
export type ObjectFacts = Record<string, FieldFacts>;

/** The options of one conversion. */
interface ConvertOptions {
  /** Objects written as a `$ref` to a component instead of inline, by schema identity. */
  refs?: ReadonlyMap<z.ZodMiniType, string>;
  /** Facts for this object's own fields (not for nested objects, which have their own). */
  facts?: ObjectFacts;
  /** Inputs have their bounds proven against the schema; outputs only their enumerations. */
  direction: 'input' | 'output';
}

// Shared pieces whose meaning the contract states once (§3): ids are UUIDs, times ISO 8601 UTC;
// and booleans, which the SDK checks with a rule (see `boolean`), so their type is not in the def.
const SHARED_FORMATS = new Map<z.ZodMiniType, JsonSchema>([
  [recordId, { type: 'string', format: 'uuid' }],
  [uuidParam, { type: 'string', format: 'uuid' }],
  [timestamp, { type: 'string', format: 'date-time' }],
  [boolean, { type: 'boolean' }],
]);

interface Def {
  type: string;
  shape?: Record<string, z.ZodMiniType>;
  catchall?: z.ZodMiniType;
  innerType?: z.ZodMiniType;
  element?: z.ZodMiniType;
}

function defOf(schema: z.ZodMiniType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** Converts one zod/mini schema; throws on a construct this generator does not know. */
export function toJsonSchema(schema: z.ZodMiniType, options: ConvertOptions): JsonSchema {
  const ref = options.refs?.get(schema);
  if (ref) return { $ref: `#/components/schemas/${ref}` };
  const shared = SHARED_FORMATS.get(schema);
  if (shared) return { ...shared };
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return objectSchema(schema, def, options);
    case 'nullable':
      return nullable(toJsonSchema(def.innerType!, { ...options, facts: undefined }));
    case 'array':
      return {
        type: 'array',
        items: toJsonSchema(def.element!, { ...options, facts: undefined }),
      };
    case 'string':
    case 'boolean':
      return { type: def.type };
    case 'number':
      // integer() is a number with a rule; what it accepts tells which it is.
      return { type: isInteger(schema) ? 'integer' : 'number' };
    case 'unknown':
      // A rule-checked value (a date, an event type): the facts give its type.
      return {};
    default:
      throw new Error(`openapi: no JSON Schema for a zod "${def.type}" schema`);
  }
}

function objectSchema(schema: z.ZodMiniType, def: Def, options: ConvertOptions): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const facts = options.facts ?? {};
  for (const name of Object.keys(facts)) {
    if (!(name in def.shape!)) throw new Error(`openapi: facts name "${name}", not a field`);
  }
  for (const [name, field] of Object.entries(def.shape!)) {
    const optional = defOf(field).type === 'optional';
    const inner = optional ? defOf(field).innerType! : field;
    let property = toJsonSchema(inner, { ...options, facts: undefined });
    const fact = facts[name];
    if (fact) {
      property = withFacts(property, fact);
      prove(schema, name, fact, optional, options.direction);
    }
    properties[name] = property;
    if (!optional) required.push(name);
  }
  const closed = def.catchall !== undefined && defOf(def.catchall).type === 'never';
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    // Records may gain fields (contract §3): open, as the JSON Schema default is. Inputs are
    // strict objects in the SDK, which refuses unknown parameters before sending.
    ...(closed ? { additionalProperties: false } : {}),
  };
}

function withFacts(property: JsonSchema, fact: FieldFacts): JsonSchema {
  const { items, notNull, ...own } = fact as FieldFacts & { items?: FieldFacts; notNull?: true };
  let merged: JsonSchema = property;
  if (items) merged = { ...merged, items: { ...(merged.items as JsonSchema), ...items } };
  const types = merged.type;
  if (Array.isArray(types) && types.includes('null')) {
    // A nullable field: the facts describe the value when it is not null.
    const base = types.find((type) => type !== 'null');
    return notNull
      ? { ...merged, type: base, ...own }
      : nullable({ ...merged, type: base, ...own });
  }
  return { ...merged, ...own };
}

function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string' && !('enum' in schema)) {
    return { ...schema, type: [schema.type, 'null'] };
  }
  return { anyOf: [schema, { type: 'null' }] };
}

function isInteger(schema: z.ZodMiniType): boolean {
  const accepts = (value: number) => schema.safeParse(value).success;
  return !accepts(0.5) && !accepts(1.5) && (accepts(0) || accepts(1));
}

/**
 * Proves the facts about a field against the SDK's schema. Inputs: every bound is accepted at the
 * edge and refused one step beyond, every enumerated value accepted and a stranger refused.
 * Outputs: every enumerated value is one the SDK knows, and a stranger is noted as unknown. zod
 * reports each field on its own, so a proof reads only the issues about its field.
 */
function prove(
  object: z.ZodMiniType,
  field: string,
  fact: FieldFacts,
  optional: boolean,
  direction: 'input' | 'output',
): void {
  const ok = (value: unknown) => !fieldIssue(object, field, value);
  const fail = (what: string) => {
    throw new Error(`openapi: the SDK's schema disagrees with the document: ${field} ${what}`);
  };
  const items = fact.items as FieldFacts | undefined;
  const facts = items ?? fact;
  const wrap = (value: unknown) => (items ? [value] : value);
  if (Array.isArray(facts.enum)) {
    for (const value of facts.enum) if (!ok(wrap(value))) fail(`does not know ${String(value)}`);
    if (ok(wrap('not-a-known-value'))) fail('takes values outside its enum');
  }
  if (direction === 'output') return;
  if (optional && !ok(undefined)) fail('is optional in the document, required in the SDK');
  if (typeof facts.minimum === 'number') {
    if (!ok(wrap(facts.minimum)) || ok(wrap(facts.minimum - 1))) fail(`minimum ${facts.minimum}`);
  }
  if (typeof facts.maximum === 'number') {
    if (!ok(wrap(facts.maximum)) || ok(wrap(facts.maximum + 1))) fail(`maximum ${facts.maximum}`);
  }
  if (typeof facts.maxLength === 'number') {
    const longest = 'a'.repeat(facts.maxLength);
    if (!ok(wrap(longest)) || ok(wrap(`${longest}a`))) fail(`maxLength ${facts.maxLength}`);
  }
  if (typeof facts.minLength === 'number' && facts.minLength > 0) {
    if (ok(wrap('a'.repeat(facts.minLength - 1)))) fail(`minLength ${facts.minLength}`);
  }
  if (typeof fact.minItems === 'number' && fact.minItems > 0 && ok([])) {
    fail(`minItems ${fact.minItems}`);
  }
  if (facts.format === 'uuid') {
    if (!ok(wrap('0b6c2f8e-8a5e-4c9f-9a53-8f1f2f3c4d5e')) || ok(wrap('not-a-uuid'))) {
      fail('is not checked as a UUID');
    }
  }
}

function fieldIssue(object: z.ZodMiniType, field: string, value: unknown): boolean {
  const result = object.safeParse({ [field]: value });
  if (result.success) return false;
  return result.error.issues.some((issue) => issue.path[0] === field);
}
