#!/usr/bin/env node
/**
 * The `employee-recognition-mcp` bin: the API's tools over stdio (the default) or Streamable
 * HTTP. Stdout is the protocol on stdio, so everything this program says goes to stderr.
 */
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import {
  Client,
  ConfigurationError,
  EmployeeRecognitionError,
  type Logger,
} from '@employee-recognition/sdk';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { version } from '../package.json';
import {
  createMcpServer,
  type McpServerOptions,
  RESOURCES,
  selectTools,
  ToolSelectionError,
} from './server.js';

const NAME = 'employee-recognition-mcp';
const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];
const HTTP_PATH = '/mcp';

const HELP = `Usage: ${NAME} [options]

An MCP server for the Employee Recognition API, built on its official SDK: one tool per API
operation. It reads the credential and service address from RECOGNITION_API_KEY and
RECOGNITION_BASE_URL, and logs to stderr (RECOGNITION_LOG sets the SDK's level).

Read-only by default: only the 13 tools that read data are offered.

Options:
  --allow-writes         Also offer the 5 tools that create, change or delete data
  --tools <names>        Only these tools (comma-separated), such as recognitions_list,users_get
  --resources <names>    Only the tools of these resources: ${RESOURCES.join(', ')}
  --exclude-tools <names>  Not these tools
  --list                 Print the tools these options offer, and exit
  --http                 Serve Streamable HTTP at http://<host>:<port>${HTTP_PATH} instead of stdio
  --port <n>             The HTTP port; default 3000, 0 for any free port
  --host <address>       The HTTP address; default 127.0.0.1 (this machine only)
  -h, --help             Show this help
  -v, --version          Show the version`;

class UsageError extends Error {}

interface Cli {
  selection: McpServerOptions;
  list: boolean;
  http: { port: number; host: string } | undefined;
}

function parse(args: string[]): Cli | 'help' | 'version' {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        'allow-writes': { type: 'boolean' },
        tools: { type: 'string', multiple: true },
        resources: { type: 'string', multiple: true },
        'exclude-tools': { type: 'string', multiple: true },
        list: { type: 'boolean' },
        http: { type: 'boolean' },
        port: { type: 'string' },
        host: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';
  if (values.version) return 'version';
  if (!values.http && (values.port !== undefined || values.host !== undefined)) {
    throw new UsageError('--port and --host go with --http.');
  }
  return {
    selection: {
      allowWrites: values['allow-writes'] ?? false,
      tools: names(values.tools),
      resources: names(values.resources),
      excludeTools: names(values['exclude-tools']),
    },
    list: values.list ?? false,
    http: values.http ? { port: port(values.port), host: values.host ?? '127.0.0.1' } : undefined,
  };
}

/** `--tools a,b --tools c` as [a, b, c]; undefined when the option is absent. */
function names(given: string[] | undefined): string[] | undefined {
  return given
    ?.flatMap((value) => value.split(','))
    .map((name) => name.trim())
    .filter(Boolean);
}

function port(given: string | undefined): number {
  if (given === undefined) return 3000;
  const number = /^\d+$/.test(given) ? Number(given) : NaN;
  if (!(number >= 0 && number <= 65_535)) {
    throw new UsageError(`--port must be a whole number from 0 to 65535, not "${given}".`);
  }
  return number;
}

const log = (line: string) => process.stderr.write(`${line}\n`);
// The SDK's log lines (RECOGNITION_LOG) on stderr: its default, console, writes info to stdout.
const stderrLogger: Logger = { debug: log, info: log, warn: log, error: log };

/** The client of RECOGNITION_API_KEY and RECOGNITION_BASE_URL; without a key, nothing is served. */
function createClient(): Client {
  try {
    return new Client({ logger: stderrLogger });
  } catch (error) {
    if (error instanceof ConfigurationError && error.option === 'apiKey') {
      // The SDK's message speaks to code (`new Client({ apiKey })`); here it is the environment.
      throw new UsageError(
        `${error.message.replace(/:.*$/, '')}: set RECOGNITION_API_KEY in the environment of the server (the "env" of its entry in the MCP client's configuration).`,
      );
    }
    throw error;
  }
}

async function main(args: string[]): Promise<number> {
  const cli = parse(args);
  if (cli === 'help') {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (cli === 'version') {
    process.stdout.write(`${version}\n`);
    return 0;
  }
  const tools = selectTools(cli.selection);
  if (cli.list) {
    const width = Math.max(...tools.map((tool) => tool.name.length));
    for (const tool of tools) {
      process.stdout.write(
        `${tool.name.padEnd(width)}  ${tool.write ? 'write' : 'read '}  ${tool.title}\n`,
      );
    }
    return 0;
  }
  const client = createClient();
  const mode = cli.selection.allowWrites ? 'reads and writes' : 'read-only';
  if (!cli.http) {
    await createMcpServer(client, cli.selection).connect(new StdioServerTransport());
    log(`${NAME}: ${tools.length} tools (${mode}) on stdio, calling ${client.baseUrl}`);
    return 0;
  }
  await serveHttp(client, cli.selection, cli.http);
  log(`${NAME}: ${tools.length} tools (${mode}), calling ${client.baseUrl}`);
  return 0;
}

/**
 * Streamable HTTP, stateless: every POST gets a server and transport of its own, as the tools
 * keep no state between calls (a list's cursor travels in the arguments). On a loopback address
 * the Host header must name this machine, against DNS rebinding from web pages.
 */
async function serveHttp(
  client: Client,
  selection: McpServerOptions,
  { port, host }: { port: number; host: string },
): Promise<void> {
  const app = createMcpExpressApp({ host });
  app.post(HTTP_PATH, async (request, response) => {
    const server = createMcpServer(client, selection);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request, response, request.body);
    } catch (error) {
      log(`${NAME}: a request failed: ${(error as Error).message}`);
      if (!response.headersSent) {
        response.status(500).json({
          jsonrpc: '2.0',
          error: { code: -32603, message: 'Internal server error' },
          id: null,
        });
      }
    }
  });
  // Stateless: no stream to resume (GET) and no session to end (DELETE).
  app.all(HTTP_PATH, (_request, response) => {
    response
      .status(405)
      .set('allow', 'POST')
      .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
  });
  const listener = await new Promise<HttpServer>((resolve, reject) => {
    const server = app.listen(port, host, (error?: Error) =>
      error ? reject(error) : resolve(server),
    );
  });
  const { port: actual } = listener.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  log(`${NAME}: listening on http://${shown}:${actual}${HTTP_PATH}`);
  if (!LOOPBACK.includes(host)) {
    log(
      `${NAME}: warning: ${host} is reachable from other machines, and this server has no authentication: anyone who reaches it acts with the API key. Put it behind your own auth (see createMcpServer).`,
    );
  }
  const stop = (signal: string) => {
    log(`${NAME}: ${signal}: stopping.`);
    listener.close();
    listener.closeAllConnections();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof ToolSelectionError) {
      log(`${NAME}: ${error.message}\nSee ${NAME} --help.`);
      process.exitCode = 2;
    } else if (error instanceof EmployeeRecognitionError) {
      // Such as no RECOGNITION_API_KEY: the SDK's message says what to set, never the value.
      log(`${NAME}: ${error.message}`);
      process.exitCode = 1;
    } else {
      log(`${NAME}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exitCode = 1;
    }
  },
);
