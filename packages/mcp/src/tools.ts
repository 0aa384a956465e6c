import {
  type Client,
  type DataResponse,
  type ErrorDetail,
  type Page,
  type PageParams,
  type RecognitionCreateParams,
  type RequestOptions,
  UnprocessableEntityError,
  type WebhookCreateParams,
  type WebhookUpdateParams,
} from '@employee-recognition/sdk';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import specs from './tools.json';

/** A tool's arguments as the client sent them: checked by {@link checkArguments}, then the SDK. */
type Arguments = Record<string, unknown>;

/** What a tool returns in `structuredContent`. */
export type Structured = Record<string, unknown>;

type Call = (
  client: Client,
  args: Arguments,
  options: RequestOptions,
  tool: string,
) => Promise<Structured>;

/**
 * The SDK method behind each tool, one line each. Arguments reach the SDK once they match the
 * tool's input schema ({@link checkArguments}); the SDK's own checks come after.
 */
const CALLS: Record<string, Call> = {
  recognitions_list: page((client, params, options) => client.recognitions.list(params, options)),
  recognitions_create: ({ recognitions }, { idempotency_key, ...body }, options) =>
    record(
      recognitions.create(body as unknown as RecognitionCreateParams, {
        ...options,
        idempotencyKey: idempotency_key as string | undefined,
      }),
    ),
  recognitions_get: ({ recognitions }, { id }, options) =>
    record(recognitions.get(id as string, options)),
  recognitions_delete: ({ recognitions }, { id }, options) =>
    deleted(id, recognitions.delete(id as string, options)),
  users_list: page((client, params, options) => client.users.list(params, options)),
  users_get: ({ users }, { id }, options) => record(users.get(id as string, options)),
  rewards_list: page((client, params, options) => client.rewards.list(params, options)),
  rewards_get: ({ rewards }, { id }, options) => record(rewards.get(id as string, options)),
  teams_list: page((client, params, options) => client.teams.list(params, options)),
  teams_get: ({ teams }, { id }, options) => record(teams.get(id as string, options)),
  webhooks_list: ({ webhooks }, _args, options) => record(webhooks.list(options)),
  webhooks_create: async ({ webhooks }, { idempotency_key, ...body }, options) => {
    const { data } = await webhooks.create(body as unknown as WebhookCreateParams, {
      ...options,
      idempotencyKey: idempotency_key as string | undefined,
    });
    return { data: withoutSecret(data) };
  },
  webhooks_get: ({ webhooks }, { id }, options) => record(webhooks.get(id as string, options)),
  webhooks_update: ({ webhooks }, { id, ...body }, options) =>
    record(webhooks.update(id as string, body as WebhookUpdateParams, options)),
  webhooks_delete: ({ webhooks }, { id }, options) =>
    deleted(id, webhooks.delete(id as string, options)),
  budgets_list: ({ budgets }, _args, options) => record(budgets.list(options)),
  budgets_get: ({ budgets }, { id }, options) => record(budgets.get(id as string, options)),
  analytics_summary: ({ analytics }, { period }, options) =>
    record(analytics.summary(period as string | undefined, options)),
};

async function record(call: Promise<DataResponse<unknown>>): Promise<Structured> {
  const { data } = await call;
  return { data };
}

/** The signing secret is a credential: it never enters a tool result (the tool says so). */
function withoutSecret(webhook: unknown): unknown {
  if (typeof webhook !== 'object' || webhook === null || Array.isArray(webhook)) return webhook;
  const { secret: _secret, ...rest } = webhook as Record<string, unknown>;
  return rest;
}

async function deleted(id: unknown, call: Promise<void>): Promise<Structured> {
  await call;
  return { deleted: true, id };
}

/**
 * One page of a list and the cursor of the next. The cursor is this server's own: the SDK's
 * parameters of the next page (the service's cursor where it gives one, else the page number,
 * with the filters and limit of the first call), so a client continues a list with `cursor`
 * alone and cannot carry it to another list.
 */
function page<Params extends PageParams>(
  list: (client: Client, params: Params, options: RequestOptions) => PromiseLike<Page<unknown>>,
): Call {
  return async (client, args, options, tool) => {
    const { cursor, ...given } = args;
    const params = cursor === undefined ? given : continued(tool, cursor, given);
    const current = await list(client, params as Params, options);
    const next = current.nextPageParams();
    return { data: current.data, next_cursor: next === null ? null : encodeCursor(tool, next) };
  };
}

function encodeCursor(tool: string, params: PageParams): string {
  return Buffer.from(JSON.stringify({ tool, params })).toString('base64url');
}

/**
 * The parameters a cursor continues with. Filters given beside it must be those it carries; a
 * `limit` may change the page size.
 */
function continued(tool: string, cursor: unknown, given: Arguments): Arguments {
  const params = decodeCursor(tool, cursor);
  for (const [field, value] of Object.entries(given)) {
    if (field !== 'limit' && value !== params[field]) {
      throw invalidArguments([
        {
          field,
          message:
            'must be left out with `cursor`, which continues the list with the filters of its first page',
        },
      ]);
    }
  }
  return { ...params, ...given };
}

function decodeCursor(tool: string, cursor: unknown): Arguments {
  try {
    const decoded = JSON.parse(Buffer.from(cursor as string, 'base64url').toString('utf8')) as {
      tool?: unknown;
      params?: unknown;
    };
    const { params } = decoded;
    if (
      decoded.tool === tool &&
      typeof params === 'object' &&
      params !== null &&
      !Array.isArray(params)
    ) {
      return params as Arguments;
    }
  } catch {
    // Not base64url JSON: reported below, as a cursor of another list is.
  }
  throw invalidArguments([
    { field: 'cursor', message: `must be a \`next_cursor\` that ${tool} returned` },
  ]);
}

/** A tool of this server: its MCP definition, whether it writes, and what it calls. */
export interface Tool {
  name: string;
  /** The SDK namespace, such as `recognitions`. */
  resource: string;
  /** True for the tools that change data, offered only with `allowWrites`. */
  write: boolean;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, object>; required?: string[] };
  outputSchema: { type: 'object'; properties: Record<string, object>; required?: string[] };
  annotations: ToolAnnotations;
  /** Checks the arguments a client sent and calls the SDK with them. */
  call(client: Client, args: Arguments, options: RequestOptions): Promise<Structured>;
}

// A write is destructive when it can lose data: a delete, or an update that overwrites fields.
// Deleting or updating twice has no further effect; creating twice creates twice (unless the
// caller passes an idempotency key, which annotations cannot express).
const ANNOTATIONS: Record<(typeof specs)[number]['access'], ToolAnnotations> = {
  read: { readOnlyHint: true },
  create: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  update: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  delete: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
};

/** The 18 tools, one per SDK method, resource by resource: reads and writes. */
export const TOOLS: readonly Tool[] = specs.map((spec) => {
  const call = CALLS[spec.name];
  if (!call) throw new Error(`No SDK call for the tool ${spec.name}`);
  const { inputSchema, outputSchema } = spec as unknown as Pick<
    Tool,
    'inputSchema' | 'outputSchema'
  >;
  // Compiled on the tool's first call: a server offers 18 tools, a session calls a few.
  let validate: ReturnType<AjvJsonSchemaValidator['getValidator']> | undefined;
  return {
    name: spec.name,
    resource: spec.resource,
    write: spec.access !== 'read',
    title: spec.title,
    description: spec.description,
    inputSchema,
    outputSchema,
    annotations: { title: spec.title, ...ANNOTATIONS[spec.access as keyof typeof ANNOTATIONS] },
    call: (client, args, options) => {
      checkArguments(inputSchema, args);
      validate ??= schemaValidator().getValidator(inputSchema as JsonSchemaType);
      const result = validate(args);
      if (!result.valid) throw invalidArguments(schemaDetails(result.errorMessage ?? ''));
      return call(client, args, options, spec.name);
    },
  };
});

/** The MCP SDK's JSON Schema validator (Ajv, formats such as `uuid` included), made on first use. */
let validator: AjvJsonSchemaValidator | undefined;
function schemaValidator(): AjvJsonSchemaValidator {
  return (validator ??= new AjvJsonSchemaValidator());
}

/**
 * Ajv's errors (`data/id must match format "uuid", data/limit must be <= 100`) as one detail per
 * argument. The alternatives of an `anyOf` (a date or a date-time) are joined with "or".
 */
function schemaDetails(text: string): ErrorDetail[] {
  const byField = new Map<string, string[]>();
  for (const error of text.split(/, (?=data[/ ])/)) {
    const [, path = '', message = error] = /^data(\S*) (.*)$/s.exec(error) ?? [];
    const field = path.slice(1).replaceAll('/', '.') || 'arguments';
    byField.set(field, [...(byField.get(field) ?? []), message]);
  }
  return [...byField].map(([field, messages]) => {
    const alternatives = messages.filter((message) => message !== 'must match a schema in anyOf');
    return {
      field,
      message: alternatives.join(alternatives.length < messages.length ? ' or ' : '; '),
    };
  });
}

/**
 * An argument the tool does not take (a method taking an id alone ignores the rest) and a missing
 * required one, named plainly; the schema's other rules (types, bounds, formats such as `uuid`)
 * are checked after, so that nothing the schema refuses is sent (docs/mcp.md).
 */
function checkArguments(schema: Tool['inputSchema'], args: Arguments): void {
  const details: ErrorDetail[] = [
    ...Object.keys(args)
      .filter((field) => !Object.hasOwn(schema.properties, field))
      .map((field) => ({ field, message: 'is not an argument of this tool' })),
    ...(schema.required ?? [])
      .filter((field) => args[field] === undefined)
      .map((field) => ({ field, message: 'is required' })),
  ];
  if (details.length) throw invalidArguments(details);
}

/** The SDK's own error for input it refuses before sending, so every refusal reads alike. */
function invalidArguments(details: ErrorDetail[]): UnprocessableEntityError {
  return new UnprocessableEntityError({
    status: 422,
    message: details.map((detail) => `${detail.field}: ${detail.message}`).join('; '),
    details,
    local: true,
  });
}
