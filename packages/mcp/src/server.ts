import {
  ApiError,
  type Client,
  ConfigurationError,
  EmployeeRecognitionError,
  RateLimitError,
} from '@employee-recognition/sdk';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { version } from '../package.json';
import { conform } from './conform.js';
import { type Structured, type Tool, TOOLS } from './tools.js';

/** Which tools a server offers. With none of these set, the 13 read tools. */
export interface McpServerOptions {
  /** Also offer the 5 tools that create, change or delete data. Default false: read-only. */
  allowWrites?: boolean | undefined;
  /** Only these tools, by name, such as `recognitions_list`. */
  tools?: readonly string[] | undefined;
  /** Only the tools of these resources, such as `recognitions` or `users`. */
  resources?: readonly string[] | undefined;
  /** Not these tools, by name. */
  excludeTools?: readonly string[] | undefined;
  /**
   * Told of every tool call, such as `openTelemetry()` from `@employee-recognition/sdk/otel` for
   * a span per tool call, with the API calls it makes beneath it.
   */
  instrumentation?: McpInstrumentation | undefined;
}

/** The server's observer point: told of each tool call as it starts. */
export interface McpInstrumentation {
  /** A tool call starts; returns its observer. */
  toolCall(name: string): ToolCallObserver | undefined;
}

/** Told what becomes of one tool call. None of its methods may throw. */
export interface ToolCallObserver {
  /** Runs the tool (in the call's context, say) and returns what it returns. */
  run<T>(tool: () => Promise<T>): Promise<T>;
  /** The call ended: with the error it threw, or with `isError` when its result is an error. */
  end(outcome: { error?: unknown; isError?: boolean | undefined }): void;
}

/**
 * Names in the options that no tool or resource has, or a write named without `allowWrites`: a
 * `ConfigurationError` of the SDK (so an `EmployeeRecognitionError`), whose `option` names the
 * option at fault.
 */
export class ToolSelectionError extends ConfigurationError {
  override name = 'ToolSelectionError';
}

/** The resources tools belong to, such as `recognitions`, in the order tools are listed. */
export const RESOURCES: readonly string[] = [...new Set(TOOLS.map((tool) => tool.resource))];

/**
 * The tools the options select: the read tools, plus the writes with `allowWrites`, narrowed by
 * `tools`, `resources` and `excludeTools`. A name no tool or resource has is an error, and so is
 * a write named in `tools` without `allowWrites`: a typo never silently changes the set.
 */
export function selectTools(options: McpServerOptions = {}): Tool[] {
  const { allowWrites = false, tools, resources, excludeTools } = options;
  const names = TOOLS.map((tool) => tool.name);
  for (const [option, given, known] of [
    ['tools', tools, names],
    ['excludeTools', excludeTools, names],
    ['resources', resources, RESOURCES],
  ] as const) {
    const unknown = given?.filter((name) => !known.includes(name)) ?? [];
    if (unknown.length) {
      throw new ToolSelectionError(
        option,
        `No ${option === 'resources' ? 'resource' : 'tool'} is named ${unknown.join(', ')}. Known: ${known.join(', ')}.`,
      );
    }
  }
  const writes = TOOLS.filter((tool) => tool.write && tools?.includes(tool.name));
  if (!allowWrites && writes.length) {
    throw new ToolSelectionError(
      'tools',
      `${writes.map((tool) => tool.name).join(', ')} change data: allow writes (--allow-writes) to offer them.`,
    );
  }
  return TOOLS.filter(
    (tool) =>
      (allowWrites || !tool.write) &&
      (!tools || tools.includes(tool.name)) &&
      (!resources || resources.includes(tool.resource)) &&
      !excludeTools?.includes(tool.name),
  );
}

const INSTRUCTIONS = `Tools of the Employee Recognition API: recognitions (praise with points between colleagues), users, teams, rewards, budgets, webhooks and analytics. Records are named by UUID: find a person's id with users_list before recognizing them. Lists return one page at a time with next_cursor.`;

/**
 * An MCP server whose tools call the API through `client`, with its credential, pacing, retries
 * and timeouts. Connect it to a transport: `await createMcpServer(client).connect(transport)`.
 * A server serves one connection; for stateless HTTP make one per request (it is cheap).
 *
 * A call that fails is a tool result with `isError: true`: the error's type, status, code,
 * message and request id as JSON, never a stack. The credential never appears in a result.
 */
export function createMcpServer(client: Client, options: McpServerOptions = {}): Server {
  const tools = selectTools(options);
  // The low-level server: tools carry the JSON Schemas generated from the SDK's own schemas
  // (src/tools.json), which McpServer would re-derive from zod schemas the SDK does not publish.
  const server = new Server(
    { name: 'employee-recognition', title: 'Employee Recognition', version },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({
      name,
      title,
      description,
      inputSchema,
      outputSchema,
      annotations,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }, { signal }) => {
    const tool = tools.find((each) => each.name === params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `No tool is named ${params.name}.`);
    const observer = options.instrumentation?.toolCall(tool.name);
    const call = () => tool.call(client, params.arguments ?? {}, { signal });
    try {
      const result = success(tool, await (observer ? observer.run(call) : call()));
      observer?.end({ isError: result.isError === true });
      return result;
    } catch (error) {
      observer?.end({ error });
      return failure(error);
    }
  });
  return server;
}

/**
 * The structured result, and the answer as text for clients that show only text. A field of a
 * type the output schema does not allow is left out of the structured result (src/conform.ts).
 */
function success(tool: Tool, structured: Structured): CallToolResult {
  const { value, omitted } = conform(structured, tool.outputSchema);
  const text = JSON.stringify(structured);
  if (!value) {
    // Not even the envelope is as the contract gives it: nothing can stand as the result.
    return errorResult({
      type: 'InvalidResponseError',
      message: `The call succeeded, but the service's answer does not have the shape of its contract (${omitted.join(', ')}). As received: ${text}`,
    });
  }
  const lines = [text];
  if (omitted.length) {
    lines.unshift(
      `Left out of the structured result, not of the type the API contract gives: ${omitted.join(', ')}.`,
    );
  }
  const { data, next_cursor: next } = value;
  if (Array.isArray(data)) {
    const paging =
      'next_cursor' in value
        ? next === null
          ? ' This is the last page.'
          : ' More follow: call again with cursor set to next_cursor.'
        : '';
    lines.unshift(`${data.length} ${tool.resource}.${paging}`);
  }
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: value };
}

/**
 * A failed call as a tool result the model can read and act on. Not a protocol error: the model
 * sees what went wrong, such as a field to fix or a wait to respect.
 */
function failure(error: unknown): CallToolResult {
  return errorResult(describeError(error));
}

function errorResult(error: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }] };
}

// Option names of the SDK's per-call options, as the tools name the argument.
const ARGUMENT_OF_OPTION: Record<string, string> = { idempotencyKey: 'idempotency_key' };

function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof ApiError) {
    return {
      type: error.name,
      status: error.status,
      code: error.code,
      message: error.message,
      request_id: error.requestId ?? null,
      // The SDK refused the arguments itself: nothing was sent.
      ...(error.local ? { sent: false } : {}),
      ...(error.details?.length ? { details: error.details } : {}),
      ...(error instanceof RateLimitError && error.retryAfter !== undefined
        ? { retry_after_seconds: Math.ceil(error.retryAfter / 1000) }
        : {}),
    };
  }
  if (error instanceof ConfigurationError) {
    // Always the SDK's own check of an argument (the idempotency key): nothing was sent.
    const field = ARGUMENT_OF_OPTION[error.option] ?? error.option;
    return {
      type: error.name,
      message: error.message,
      sent: false,
      details: [{ field, message: error.message }],
    };
  }
  if (error instanceof EmployeeRecognitionError) {
    return { type: error.name, message: error.message };
  }
  // A defect of this server, not of the call: logged (on stderr) for whoever runs it.
  console.error(
    `employee-recognition-mcp: a tool failed unexpectedly: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
  );
  return { type: 'InternalError', message: 'The tool failed unexpectedly; the server logged it.' };
}
