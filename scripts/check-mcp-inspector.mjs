#!/usr/bin/env node
// The MCP server (packages/mcp) judged by the MCP Inspector's CLI mode, a client no one here
// wrote, against the mock API on 127.0.0.1:
//   - tools/list over stdio, read-only and with --allow-writes, with the Inspector's --strict
//     check of every tool schema's portability (it exits 6 on an error-severity problem);
//   - tools/call over stdio: a page, the next page through its cursor, a recognition created
//     with an idempotency key, a 404 and a refused argument as isError results;
//   - tools/list and tools/call over Streamable HTTP (`--http --port 0`);
//   - no credential in anything the Inspector or the server printed.
// The Inspector needs Node 22.19 or later: it runs on the Node 22 of .runtimes/ (installed as an
// npm package by scripts/install-runtimes.mjs), the server on this machine's Node.
//
// Prints one line per check and `inspector: N passed, M failed`; exits 1 on a failure.
// Usage: node scripts/check-mcp-inspector.mjs
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { installRuntimes } from './install-runtimes.mjs';
import { ensureBuild, root } from './lib/build.mjs';
import { killAll, run, seconds, startBackground, stripAnsi, within } from './lib/process.mjs';

const INSPECTOR_VERSION = '2.12.0';
const inspectorDir = join(root, '.runtimes', 'inspector');
const inspectorBin = join(
  inspectorDir,
  'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);
const serverBin = join(root, 'packages/mcp/dist/cli.js');
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

const say = (line) => console.log(line);
let passed = 0;
let failed = 0;
const printed = [];

async function check(name, body) {
  const started = Date.now();
  try {
    await body();
    passed++;
    say(`ok   ${name} (${seconds(started)})`);
  } catch (error) {
    failed++;
    say(`FAIL ${name}: ${error.message}`);
  }
}

function expect(ok, message) {
  if (!ok) throw new Error(message);
}

/** The Inspector pinned here, installed into .runtimes/inspector once. */
async function installInspector() {
  const manifest = join(inspectorDir, 'node_modules/@modelcontextprotocol/inspector/package.json');
  if (
    existsSync(manifest) &&
    JSON.parse(readFileSync(manifest, 'utf8')).version === INSPECTOR_VERSION
  ) {
    say(`inspector: @modelcontextprotocol/inspector ${INSPECTOR_VERSION} already installed`);
    return;
  }
  const started = Date.now();
  mkdirSync(inspectorDir, { recursive: true });
  writeFileSync(join(inspectorDir, 'package.json'), '{"private":true}\n');
  const result = await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--prefix',
      inspectorDir,
      `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`,
    ],
    { timeoutMs: 5 * 60_000 },
  );
  if (result.code !== 0) {
    say(stripAnsi(result.output).split('\n').slice(-20).join('\n'));
    throw new Error('npm install of the Inspector failed');
  }
  say(`inspector: installed ${INSPECTOR_VERSION} (${seconds(started)})`);
}

async function main() {
  const { node22 } = installRuntimes({ chromium: false });
  await installInspector();
  await ensureBuild(say);
  if (!existsSync(serverBin)) {
    const built = await run('npm', ['run', 'build', '-w', '@employee-recognition/mcp'], {
      cwd: root,
      timeoutMs: 5 * 60_000,
    });
    expect(built.code === 0, `the MCP package did not build:\n${built.output}`);
  }
  const { startMockServer } = await import(pathToFileURL(join(root, 'dist/testing.js')).href);
  const mock = await startMockServer({ recognitions: 25 });
  const work = mkdtempSync(join(tmpdir(), 'er-inspector-'));
  const serverEnv = [
    '-e',
    `RECOGNITION_API_KEY=${mock.api.testKey}`,
    '-e',
    `RECOGNITION_BASE_URL=${mock.url}`,
  ];
  let outputs = 0;

  /** Runs the Inspector's CLI; resolves with its exit code and the result it wrote. */
  async function inspector(args, target) {
    const file = join(work, `result-${outputs++}.json`);
    const result = await run(
      node22.path,
      [inspectorBin, '--cli', '--format', 'json', '--output', file, ...args, '--', ...target],
      { cwd: work, timeoutMs: 60_000, env: { ...process.env, HOME: work } },
    );
    printed.push(result.output);
    const written = existsSync(file) ? readFileSync(file, 'utf8') : '';
    printed.push(written);
    if (!written)
      throw new Error(`no result (exit ${result.code}): ${stripAnsi(result.output).slice(-1500)}`);
    return { code: result.code, output: stripAnsi(result.output), result: JSON.parse(written) };
  }
  const stdio = (...serverArgs) => [process.execPath, serverBin, ...serverArgs];
  const callArgs = (tool, args) => [
    ...serverEnv,
    '--method',
    'tools/call',
    '--tool-name',
    tool,
    '--tool-args-json',
    JSON.stringify(args),
  ];

  try {
    await check('stdio tools/list: the 13 read tools, portable schemas (--strict)', async () => {
      const { code, output, result } = await inspector(
        [...serverEnv, '--method', 'tools/list', '--strict'],
        stdio(),
      );
      expect(code === 0, `exit ${code}`);
      expect(!/\b[1-9]\d* (errors?|warnings?)\b/.test(output), output.slice(-1500));
      expect(result.tools.length === 13, `${result.tools.length} tools`);
      expect(
        result.tools.every((tool) => tool.annotations?.readOnlyHint === true),
        'a tool is not read-only',
      );
    });

    await check('stdio tools/list --allow-writes: 18 tools (--strict)', async () => {
      const { code, output, result } = await inspector(
        [...serverEnv, '--method', 'tools/list', '--strict'],
        stdio('--allow-writes'),
      );
      expect(code === 0, `exit ${code}`);
      expect(!/\b[1-9]\d* (errors?|warnings?)\b/.test(output), output.slice(-1500));
      expect(result.tools.length === 18, `${result.tools.length} tools`);
    });

    await check(
      'stdio tools/call recognitions_list: a page, then the next by its cursor',
      async () => {
        const first = await inspector(callArgs('recognitions_list', { limit: 4 }), stdio());
        const { data, next_cursor: cursor } = first.result.structuredContent;
        expect(
          data.length === 4 && typeof cursor === 'string',
          JSON.stringify(first.result).slice(0, 300),
        );
        const second = await inspector(callArgs('recognitions_list', { cursor }), stdio());
        const next = second.result.structuredContent.data;
        expect(next.length === 4 && next[0].id !== data[0].id, 'the cursor did not move on');
      },
    );

    await check(
      'stdio tools/call recognitions_create --allow-writes, twice with one key: one recognition',
      async () => {
        const recipient = mock.api.store.users.all()[1];
        const args = {
          recipient_id: recipient.id,
          message: 'Thanks for the launch!',
          points: 20,
          idempotency_key: 'inspector-1',
        };
        const before = mock.api.store.recognitions.size;
        const first = await inspector(
          callArgs('recognitions_create', args),
          stdio('--allow-writes'),
        );
        const again = await inspector(
          callArgs('recognitions_create', args),
          stdio('--allow-writes'),
        );
        const created = first.result.structuredContent.data;
        expect(
          created.points === 20 && created.recipient.id === recipient.id,
          JSON.stringify(first.result).slice(0, 300),
        );
        expect(again.result.structuredContent.data.id === created.id, 'the repeat created another');
        expect(
          mock.api.store.recognitions.size === before + 1,
          'not exactly one recognition created',
        );
      },
    );

    await check('stdio tools/call: a 404 and a refused argument are isError results', async () => {
      const missing = await inspector(callArgs('recognitions_get', { id: MISSING_ID }), stdio());
      expect(missing.result.isError === true, 'the 404 is not an isError result');
      expect(/"status":404/.test(missing.result.content[0].text), missing.result.content[0].text);
      const refused = await inspector(callArgs('analytics_summary', { period: '400d' }), stdio());
      expect(refused.result.isError === true, 'the bad period is not an isError result');
      expect(
        /"field":"period"/.test(refused.result.content[0].text),
        refused.result.content[0].text,
      );
    });

    await check('Streamable HTTP: tools/list and tools/call', async () => {
      const server = startBackground(process.execPath, [serverBin, '--http', '--port', '0'], {
        env: {
          ...process.env,
          RECOGNITION_API_KEY: mock.api.testKey,
          RECOGNITION_BASE_URL: mock.url,
        },
      });
      try {
        const url = await within(30_000, waitForUrl(server), 'the HTTP server did not start');
        const listed = await inspector(['--method', 'tools/list'], [url]);
        expect(listed.result.tools.length === 13, `${listed.result.tools.length} tools`);
        const called = await inspector(
          [
            '--method',
            'tools/call',
            '--tool-name',
            'users_list',
            '--tool-args-json',
            '{"limit":2}',
          ],
          [url],
        );
        expect(
          called.result.structuredContent.data.length === 2,
          JSON.stringify(called.result).slice(0, 300),
        );
      } finally {
        await server.stop();
        printed.push(server.output());
      }
    });

    await check('no credential in anything printed', async () => {
      const leaks = printed.filter(
        (text) => text.includes(mock.api.testKey) || /whsec_[A-Za-z0-9+/=]{8}|Bearer \S/.test(text),
      );
      expect(leaks.length === 0, `${leaks.length} outputs hold a credential`);
    });
  } finally {
    await mock.close();
    rmSync(work, { recursive: true, force: true });
  }
}

async function waitForUrl(server) {
  for (;;) {
    const match = /listening on (http:\/\/\S+)/.exec(server.output());
    if (match) return match[1];
    if (server.child.exitCode !== null)
      throw new Error(`the HTTP server exited: ${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const started = Date.now();
main()
  .catch((error) => {
    failed++;
    say(`FAIL ${error.message}`);
  })
  .finally(() => {
    killAll();
    say(`inspector: ${passed} passed, ${failed} failed (${seconds(started)})`);
    process.exitCode = failed ? 1 : 0;
  });
