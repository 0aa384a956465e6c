/**
 * A tool's structured result held to its output schema. The SDK returns a record that differs
 * from the contract as received (and logs the difference), so a call that succeeded stays a
 * success; MCP asks that `structuredContent` conform to the tool's `outputSchema`, and clients
 * such as the official SDK's check it. A field of a type the schema does not allow is therefore
 * left out of `structuredContent`, and named; the text form keeps the answer as received.
 *
 * Output schemas use `type` (or `anyOf` of types), `properties` and `items` only
 * (scripts/generate-tools.ts, `typesOnly`), and that is all this reads.
 */

interface TypeSchema {
  type?: string;
  anyOf?: TypeSchema[];
  const?: unknown;
  properties?: Record<string, TypeSchema>;
  items?: TypeSchema;
  required?: string[];
}

/** What {@link conform} made of a result. */
export interface Conformed {
  /** The result without the fields of another type, or undefined when the result itself is. */
  value: Record<string, unknown> | undefined;
  /** Where a field was left out, such as `data[3].points`. */
  omitted: string[];
}

const LEFT_OUT = Symbol('left out');

/** The result with every value the schema's types do not allow left out. */
export function conform(result: Record<string, unknown>, schema: TypeSchema): Conformed {
  const omitted: string[] = [];
  const value = walk(result, schema, '', omitted);
  const complete =
    value !== LEFT_OUT &&
    (schema.required ?? []).every((field) => Object.hasOwn(value as object, field));
  return {
    value: complete ? (value as Record<string, unknown>) : undefined,
    omitted,
  };
}

function walk(value: unknown, schema: TypeSchema, path: string, omitted: string[]): unknown {
  if (!allows(schema, value)) {
    omitted.push(path || '(the result)');
    return LEFT_OUT;
  }
  if (Array.isArray(value) && schema.items) {
    const items = schema.items;
    return value
      .map((item, index) => walk(item, items, `${path}[${index}]`, omitted))
      .filter((item) => item !== LEFT_OUT);
  }
  if (isObject(value) && schema.properties) {
    const properties = schema.properties;
    const kept: Record<string, unknown> = {};
    for (const [field, inner] of Object.entries(value)) {
      // Fields the schema does not describe (added by the service later) pass as they are.
      const described = Object.hasOwn(properties, field) ? properties[field] : undefined;
      const result = described
        ? walk(inner, described, path ? `${path}.${field}` : field, omitted)
        : inner;
      if (result !== LEFT_OUT) kept[field] = result;
    }
    return kept;
  }
  return value;
}

function allows(schema: TypeSchema, value: unknown): boolean {
  if ('const' in schema) return schema.const === value;
  if (schema.anyOf) return schema.anyOf.some((each) => allows(each, value));
  switch (schema.type) {
    case undefined:
      return true;
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'null':
      return value === null;
    default:
      return typeof value === schema.type;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
