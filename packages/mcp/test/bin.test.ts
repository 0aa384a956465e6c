// The `employee-recognition-mcp` bin as installed from the packed tarballs, driven by the official
// MCP client over its stdio and Streamable HTTP transports, against the mock server.
//
// Time: 46 s of a full run on two shared cores: every test starts the installed bin as a process
// (2 to 9 s each under load, most of it Node loading the server and its SDK), as an MCP host does.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { type MockServer, startMockServer } from '@employee-recognition/sdk/testing';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, callEveryTool, errorOf, expectNoSecret, type ToolResult } from './support/calls.js';
import { type InstalledServer, installServer } from './support/installed-server.js';

const execFileAsync = promisify(execFile);
const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const RUN_TIMEOUT_MS = 30_000;

let installed: InstalledServer;
let mock: MockServer;
/** Everything the servers wrote to stderr and every result they gave, for the secrets scan. */
const seen: string[] = [];
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  [installed, mock] = await Promise.all([installServer(), startMockServer({ recognitions: 30 })]);
}, 240_000);
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  mock.api.reset();
});
// Removing the project means deleting the MCP SDK's dependencies too (zod alone is thousands of
// files): on a loaded machine that takes longer than the default 10 s.
afterAll(async () => {
  for (const text of seen) expectNoSecret(text, mock.api.testKey);
  await Promise.all([installed?.remove(), mock?.close()]);
}, 60_000);

/** The environment an MCP client's configuration gives the server; the SDK logs every attempt. */
function serverEnv(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    RECOGNITION_API_KEY: mock.api.testKey,
    RECOGNITION_BASE_URL: mock.url,
    RECOGNITION_LOG: 'debug',
  };
}

async function run(args: string[], env = serverEnv()) {
  try {
    const { stdout, stderr } = await execFileAsync(installed.bin, args, {
      env,
      timeout: RUN_TIMEOUT_MS,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

/** An official MCP client with every result recorded for the secrets scan. */
function recordingClient(): McpClient {
  const client = new McpClient({ name: 'bin-test', version: '1.0.0' });
  const callTool = client.callTool.bind(client);
  client.callTool = async (...args) => {
    const result = await callTool(...args);
    seen.push(JSON.stringify(result));
    return result;
  };
  cleanups.push(() => client.close());
  return client;
}

async function overStdio(args: string[] = []) {
  const transport = new StdioClientTransport({
    command: installed.bin,
    args,
    env: serverEnv(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  cleanups.push(async () => seen.push(stderr));
  const client = recordingClient();
  const protocolErrors: Error[] = [];
  client.onerror = (error) => protocolErrors.push(error);
  await client.connect(transport);
  return { client, stderr: () => stderr, protocolErrors };
}

/** Starts the bin with --http on a free port and resolves with its URL once it listens. */
async function startHttp(args: string[] = []) {
  const child: ChildProcess = spawn(installed.bin, ['--http', '--port', '0', ...args], {
    env: serverEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  const exited = new Promise((resolve) => child.once('close', resolve));
  cleanups.push(async () => {
    child.kill('SIGTERM');
    await exited;
    seen.push(stdout, stderr);
  });
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(new URL(match[1]!));
    });
    void exited.then(() => reject(new Error(`the server exited: ${stderr}`)));
  });
  return { url, stderr: () => stderr, stdout: () => stdout };
}

async function overHttp(args: string[] = []) {
  const server = await startHttp(args);
  const client = recordingClient();
  await client.connect(new StreamableHTTPClientTransport(server.url));
  return { client, ...server };
}

describe('--list, --help and startup', () => {
  it('lists the 13 read tools by default, the 18 with --allow-writes, and narrows', async () => {
    const reads = await run(['--list']);
    expect(reads.code).toBe(0);
    const lines = reads.stdout.trim().split('\n');
    expect(lines).toHaveLength(13);
    for (const line of lines) expect(line).toMatch(/^[a-z]+_[a-z]+ +read +\S/);
    expect((await run(['--list', '--allow-writes'])).stdout.trim().split('\n')).toHaveLength(18);
    const narrowed = await run([
      '--list',
      '--resources',
      'recognitions,users',
      '--exclude-tools',
      'users_get',
    ]);
    expect(narrowed.stdout.split('\n').map((line) => line.split(' ')[0])).toEqual([
      'recognitions_list',
      'recognitions_get',
      'users_list',
      '',
    ]);
  });

  it('refuses an unknown tool and a write without --allow-writes, with exit code 2', async () => {
    const unknown = await run(['--tools', 'recognitions_lst']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/No tool is named recognitions_lst/);
    const write = await run(['--tools', 'recognitions_create', '--list']);
    expect(write.code).toBe(2);
    expect(write.stderr).toMatch(/--allow-writes/);
  });

  it('is a package publint --strict finds nothing wrong with', async () => {
    const publint = resolve(import.meta.dirname, '../../../node_modules/publint/src/cli.js');
    const { stdout } = await execFileAsync(
      process.execPath,
      [publint, '--strict', installed.packageDir],
      {
        timeout: RUN_TIMEOUT_MS,
      },
    );
    expect(stdout).toMatch(/All good!/);
  });

  it('needs RECOGNITION_API_KEY to serve, and says so without serving', async () => {
    const { code, stdout, stderr } = await run([], { PATH: process.env.PATH ?? '' });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/RECOGNITION_API_KEY/);
  });
});

describe.each([
  ['stdio', overStdio],
  ['Streamable HTTP', overHttp],
] as const)('over %s', (_transport, connect) => {
  it('offers the 13 read tools by default, and all 18 with --allow-writes', async () => {
    const reads = await (await connect()).client.listTools();
    expect(reads.tools).toHaveLength(13);
    expect(reads.tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    const all = await (await connect(['--allow-writes'])).client.listTools();
    expect(all.tools).toHaveLength(18);
  });

  it('calls every tool once, writes included, each result matching its output schema', async () => {
    const { client } = await connect(['--allow-writes']);
    const results = await callEveryTool(client, mock);
    expect(results.every((result: ToolResult) => !result.isError)).toBe(true);
  });

  it('reports bad arguments, a 404 and a 429 past the wait cap as isError results', async () => {
    const { client } = await connect(['--allow-writes']);
    const invalid = errorOf(
      await call(client, 'recognitions_create', { recipient_id: 'ada', message: 'Hi' }),
    );
    expect(invalid).toMatchObject({
      status: 422,
      sent: false,
      details: [{ field: 'recipient_id' }],
    });
    const missing = errorOf(await call(client, 'users_get', { id: MISSING_ID }));
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
    expect(missing.request_id).toEqual(expect.any(String));
    mock.api.faults.failNext('GET /v1/budgets', { status: 429, retryAfter: 600 });
    const limited = errorOf(await call(client, 'budgets_list'));
    expect(limited).toMatchObject({ status: 429, code: 'rate_limited', retry_after_seconds: 600 });
    for (const error of [invalid, missing, limited]) {
      expect(JSON.stringify(error)).not.toMatch(/\n\s+at /);
    }
  });

  it('pages a list with next_cursor until null', async () => {
    const { client } = await connect();
    let cursor: unknown;
    let count = 0;
    do {
      const result = await call(client, 'recognitions_list', cursor ? { cursor } : { limit: 7 });
      count += (result.structuredContent!.data as unknown[]).length;
      cursor = result.structuredContent!.next_cursor;
    } while (cursor !== null);
    expect(count).toBe(mock.api.store.recognitions.size);
  });
});

describe('stdio', () => {
  it('writes only the protocol to stdout, and its log lines to stderr', async () => {
    const { client, stderr, protocolErrors } = await overStdio();
    await call(client, 'users_list', { limit: 1 });
    expect(protocolErrors).toEqual([]);
    expect(stderr()).toMatch(/13 tools \(read-only\) on stdio/);
    // RECOGNITION_LOG=debug: the SDK's line for each attempt, on stderr.
    expect(stderr()).toMatch(/\[employee-recognition\].*GET .*\/v1\/users/);
  });
});

describe('Streamable HTTP', () => {
  it('serves on 127.0.0.1 and refuses a Host header that names another host', async () => {
    const { url } = await startHttp();
    expect(url.hostname).toBe('127.0.0.1');
    // A page on another origin whose name was rebound to 127.0.0.1 sends its own Host.
    const status = (host: string) =>
      new Promise<number | undefined>((resolve, reject) => {
        const request = httpRequest(url, { method: 'POST', headers: { host } }, (response) => {
          response.resume();
          resolve(response.statusCode);
        });
        request.on('error', reject);
        request.end('{}');
      });
    expect(await status('attacker.example')).toBe(403);
    expect(await status(url.host)).not.toBe(403);
    expect((await fetch(url)).status).toBe(405);
  });
});
