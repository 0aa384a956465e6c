#!/usr/bin/env node
// The package as a customer receives it: `npm pack`, installed from the tarball into a fresh
// project outside this repository, then
//   - ESM `import` and CJS `require` of `.`, `./webhooks`, `./testing` and `./oauth` on Node 20, 22 and 24,
//     each driving a real call against the mock server (CJS `require` on Node 20, which cannot
//     require ESM, proves the CommonJS build needs no ESM-only package);
//   - the testing kit under the test runners customers use: Jest 30 in a CommonJS project with no
//     configuration (docs/testing.md's example), Jest with ESM and the MSW handlers, `node --test`
//     and `bun test`;
//   - the TypeScript matrix: customer code of every entry, strict (exactOptionalPropertyTypes,
//     noUncheckedIndexedAccess, skipLibCheck off), under TypeScript 5.0, 5.4, 5.9 and 7.0 with
//     nodenext and node16 (ESM and CommonJS), bundler, and node10 on 5.x; `./testing` programs
//     must hold no msw declaration;
//   - no zod, ky or oauth4webapi type in the packed declarations (dist/*.d.ts, *.d.cts): public
//     types are the SDK's own;
//   - ky installed as the package's dependency (`npm ls ky --omit=dev`), and the CommonJS main
//     entry making a call under a plain `require()` with require(esm) off, so it needs its
//     bundled copy of the ESM-only ky and no transform of node_modules;
//   - the MCP package (packages/mcp) packed too and installed from its tarball into the same
//     project: its dependency range on the SDK is satisfied by the packed SDK (one copy, no
//     registry fetch of the SDK), and its entry serves the tools on a client of that SDK;
//   - the packed SDK installed into fresh projects that already hold an optional peer at the
//     versions customers have today (msw 3 and msw 2, @opentelemetry/api's newest), as
//     `npm install` does it: no ERESOLVE, no --legacy-peer-deps, the peer kept; under msw 3 (on
//     Node 22, which it needs) the MSW handlers and fromRecording answer a client;
//   - publint --strict and attw (arethetypeswrong) on both tarballs;
//   - the bundle-size budgets of .size-limit.json (size-limit).
// Prints one line per check, timings, and `package: N passed, M failed`; exits 1 on a failure.
//
// Usage: node scripts/check-package.mjs [--keep]   (--keep leaves the temp project in place)
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installRuntimes } from './install-runtimes.mjs';
import { ensureBuild, root } from './lib/build.mjs';
import { killAll, run, seconds, stripAnsi } from './lib/process.mjs';

const say = (line) => console.log(line);
const indent = (line) => say(`    ${line}`);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const MCP_FOLDER = join(root, 'packages', 'mcp');
const mcp = JSON.parse(readFileSync(join(MCP_FOLDER, 'package.json'), 'utf8'));

/** The version of a dev dependency as installed here, so the consumer gets the same one. */
const installedVersion = (name) =>
  JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;

// ---------------------------------------------------------------------------------------------
// The consumer's programs.

/** The same checks from ESM and CJS; `load` gives the three entries. */
const runtimeCheck = (format, load) => `${load}
const failures = [];
const expect = (ok, message) => {
  if (!ok) failures.push(message);
};

async function main() {
  expect(typeof sdk.Client === 'function', 'Client is missing from .');
  expect(typeof sdk.NotFoundError === 'function', 'NotFoundError is missing from .');
  expect(typeof webhooks.verifyWebhook === 'function', 'verifyWebhook is missing from ./webhooks');
  expect(typeof testing.startMockServer === 'function', 'startMockServer is missing from ./testing');
  expect(typeof oauth.clientCredentials === 'function', 'clientCredentials is missing from ./oauth');
  // The OAuth library stays out of the main entry.
  expect(sdk.clientCredentials === undefined, 'clientCredentials is exported from . too');
  // The webhook API lives in ./webhooks alone, so receivers' bundles never carry the client.
  expect(sdk.verifyWebhook === undefined, 'verifyWebhook is exported from . too');
  const server = await testing.startMockServer({ port: 0, recognitions: 12 });
  try {
    const client = new sdk.Client({ apiKey: server.api.testKey, baseUrl: server.url, maxRetries: 0 });
    let count = 0;
    for await (const recognition of client.recognitions.list({ limit: 5 })) {
      if (typeof recognition.id === 'string') count++;
    }
    expect(count === 12, 'for await gave ' + count + ' recognitions, expected 12');
    const apiKey = oauth.clientCredentials({ issuer: server.url, ...server.api.oauth.testClient });
    const viaOAuth = new sdk.Client({ apiKey, baseUrl: server.url, maxRetries: 0 });
    const users = await viaOAuth.users.list({ limit: 2 });
    expect(users.data.length === 2 && server.api.oauth.tokens.length === 1, 'OAuth: no token or no users');
    try {
      await oauth.clientCredentials({ issuer: server.url, clientId: apiKey.clientId, clientSecret: 'wrong' })();
      failures.push('a wrong client secret got a token');
    } catch (error) {
      expect(error instanceof oauth.OAuthError && error instanceof sdk.ApiError, 'wrong secret threw ' + error);
    }
    try {
      await client.recognitions.get('00000000-0000-4000-8000-000000000000');
      failures.push('get of a missing recognition did not throw');
    } catch (error) {
      expect(error instanceof sdk.NotFoundError && error instanceof sdk.ApiError, 'threw ' + error);
    }
    const secret = testing.generateWebhookSecret();
    const payload = JSON.stringify({ id: 'evt_1', type: 'user.created', created_at: new Date().toISOString(), data: {} });
    const headers = await testing.signWebhook(payload, secret, { id: 'evt_1' });
    const event = await webhooks.verifyWebhook(payload, headers, secret);
    expect(event.type === 'user.created', 'verified event has type ' + event.type);
    try {
      await webhooks.verifyWebhook(payload + ' ', headers, secret);
      failures.push('a tampered webhook verified');
    } catch (error) {
      expect(error instanceof webhooks.WebhookVerificationError, 'tampered webhook threw ' + error);
    }
  } finally {
    await server.close();
  }
}

main().then(
  () => {
    if (failures.length) {
      for (const failure of failures) console.log('FAIL ' + failure);
      process.exitCode = 1;
    } else {
      console.log('${format} on node ' + process.versions.node + ': list, for await, NotFoundError, verifyWebhook, OAuth ok');
    }
  },
  (error) => {
    console.log('FAIL ' + (error && error.stack ? error.stack : error));
    process.exitCode = 1;
  },
);
`;

const ESM_PROGRAM = runtimeCheck(
  'esm',
  `import * as sdk from '@employee-recognition/sdk';
import * as testing from '@employee-recognition/sdk/testing';
import * as webhooks from '@employee-recognition/sdk/webhooks';
import * as oauth from '@employee-recognition/sdk/oauth';`,
);

const CJS_PROGRAM = runtimeCheck(
  'cjs',
  `'use strict';
const sdk = require('@employee-recognition/sdk');
const webhooks = require('@employee-recognition/sdk/webhooks');
const testing = require('@employee-recognition/sdk/testing');
const oauth = require('@employee-recognition/sdk/oauth');`,
);

/** Typed use of `.` and `./webhooks` as a Node or browser app has it; compiled, never run. */
const CONSUMER_TS = `import {
  ApiError,
  Client,
  NotFoundError,
  type Page,
  type Recognition,
  type User,
} from '@employee-recognition/sdk';
import {
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from '@employee-recognition/sdk/webhooks';
import { type ClientCredentials, clientCredentials, OAuthError } from '@employee-recognition/sdk/oauth';

export async function oauthApp(clientSecret: string): Promise<string> {
  const apiKey: ClientCredentials = clientCredentials({
    clientId: 'rc_0123456789abcdef',
    clientSecret,
    scope: ['users:read'],
    cache: { get: async () => undefined, set: async () => {} },
  });
  try {
    const users: User[] = (await new Client({ apiKey }).users.list()).data;
    return apiKey.clientId + users.length;
  } catch (error) {
    return error instanceof OAuthError ? error.code : String(error);
  }
}

export async function main(apiKey: string, body: string, headers: Headers): Promise<number> {
  const client = new Client({ apiKey, baseUrl: 'http://127.0.0.1:4010', timeout: 5_000, maxRetries: 1 });
  const page: Page<Recognition> = await client.recognitions.list({ limit: 10 });
  const first: Recognition | undefined = page.data[0];
  let total: number = page.pagination.total_pages;
  for await (const recognition of client.recognitions.list({ limit: 50, from: new Date(0) })) {
    total += recognition.points;
  }
  const { data } = await client.recognitions.create({
    recipient_id: first?.recipient.id ?? '',
    message: 'Thanks for the help!',
    points: 10,
  });
  const users: User[] = (await client.users.list()).data;
  try {
    await client.recognitions.get(data.id);
  } catch (error) {
    if (error instanceof NotFoundError) {
      const status: number = error.status;
      const code: string = error.code;
      total += status + code.length;
    } else if (error instanceof ApiError) {
      total += error.status;
    }
  }
  try {
    const event: WebhookEvent = await verifyWebhook(body, headers, 'whsec_c2VjcmV0');
    if (event.type === 'recognition.created') {
      const message: string = event.data.message;
      total += message.length;
    }
  } catch (error) {
    if (error instanceof WebhookVerificationError) {
      const reason: string = error.reason;
      total += reason.length;
    }
  }
  // @ts-expect-error points is a number
  void client.recognitions.create({ recipient_id: data.id, message: 'x', points: 'ten' });
  // @ts-expect-error not a parameter of list
  void client.recognitions.list({ nope: true });
  return total + users.length;
}
`;

/**
 * Typed use of `./testing` in a test suite, options passed through from the suite's own
 * settings, which may be undefined (`exactOptionalPropertyTypes`).
 */
const TESTING_TS = `import { Client, type Recognition } from '@employee-recognition/sdk';
import {
  createMockApi,
  generateWebhookSecret,
  type MockServer,
  signWebhook,
  startMockServer,
} from '@employee-recognition/sdk/testing';
import { verifyWebhook } from '@employee-recognition/sdk/webhooks';

interface SuiteSettings {
  port?: number | undefined;
  host?: string | undefined;
  seed?: number | undefined;
  tolerance?: number | undefined;
  messageId?: string | undefined;
}

export async function mockedRun(settings: SuiteSettings): Promise<number> {
  const server: MockServer = await startMockServer({
    port: settings.port,
    host: settings.host,
    seed: settings.seed,
    recognitions: 30,
  });
  try {
    const client = new Client({ apiKey: server.api.testKey, baseUrl: server.url, timeout: undefined });
    const seeded: number = server.api.store.recognitions.size;
    const page = await client.recognitions.list({ limit: 10 });
    const first: Recognition | undefined = page.data[0];
    const secret: string = generateWebhookSecret();
    const payload = JSON.stringify({ type: 'recognition.created', data: first });
    const headers = await signWebhook(payload, secret, { id: settings.messageId, timestamp: undefined });
    const event = await verifyWebhook(payload, headers, secret, { tolerance: settings.tolerance, now: undefined });
    const mock = createMockApi({ seed: settings.seed, baseUrl: undefined });
    mock.faults.failNext('GET /v1/teams', { status: 503, retryAfter: undefined, times: undefined });
    const direct = new Client({ fetch: mock.fetch, apiKey: mock.testKey, baseUrl: mock.baseUrl });
    const teams = (await direct.teams.list()).data.length;
    await mock.close();
    // @ts-expect-error the MSW handlers are in /testing/msw
    void mock.handlers;
    return seeded + teams + String(event.type).length;
  } finally {
    await server.close();
  }
}
`;

/** Typed use of `./redis` with the clients customers pass it: node-redis and ioredis. */
const REDIS_TS = `import { Client } from '@employee-recognition/sdk';
import { RedisStore, type RedisStoreOptions } from '@employee-recognition/sdk/redis';
import { Redis } from 'ioredis';
import { createClient } from 'redis';

export async function pacedClients(url: string, prefix: string | undefined): Promise<Client[]> {
  const redis = await createClient({ url }).connect();
  const options: RedisStoreOptions = { client: redis, prefix, timeout: undefined };
  const ioredis = new Redis(url);
  return [
    new Client({ rateLimit: { store: new RedisStore(options) } }),
    new Client({ rateLimit: { store: new RedisStore({ client: ioredis, prefix: 'app:' }) } }),
  ];
}
`;

/**
 * Typed use of `./otel` with the OpenTelemetry SDK's own providers (its peer `@opentelemetry/api`),
 * for the client and the webhook receiver.
 */
const OTEL_TS = `import { Client } from '@employee-recognition/sdk';
import { openTelemetry, type OpenTelemetryInstrumentation } from '@employee-recognition/sdk/otel';
import { createWebhookReceiver } from '@employee-recognition/sdk/webhooks';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';

export function tracedClient(): Client {
  const instrumentation: OpenTelemetryInstrumentation = openTelemetry({
    tracerProvider: new BasicTracerProvider(),
  });
  createWebhookReceiver({ instrumentation });
  return new Client({ instrumentation });
}
`;

/**
 * Typed use of `./doctor`: a health endpoint that diagnoses a client, reads its checks and prints
 * the report; the strict record check, and a captured delivery's diagnosis.
 */
const DOCTOR_TS = `import { Client } from '@employee-recognition/sdk';
import {
  CHECK_IDS,
  checkRecords,
  diagnose,
  diagnoseDelivery,
  type DoctorCheck,
  type DoctorReport,
  readCapturedDelivery,
  renderJson,
  renderMarkdown,
  renderTerminal,
} from '@employee-recognition/sdk/doctor';

export async function health(client: Client): Promise<{ status: number; body: string }> {
  const report: DoctorReport = await diagnose(client, {
    credential: { kind: 'live', expiresAt: undefined },
    onCheck: (check: DoctorCheck) => void check.status,
  });
  const failed: string[] = report.checks.filter((check) => check.status === 'fail').map((check) => check.id);
  const known: readonly string[] = CHECK_IDS;
  void known;
  return { status: report.ok ? 200 : 503, body: failed.length ? renderMarkdown(report) : renderJson(report) };
}

export async function delivery(text: string, secret: string): Promise<string> {
  const { differences, newFields } = checkRecords('users.get', JSON.parse(text) as unknown);
  const first: string | undefined = differences[0]?.assumption ?? newFields[0]?.type;
  void first;
  return renderTerminal(await diagnoseDelivery(readCapturedDelivery(text), { secret }));
}
`;

/**
 * `./record`, the preload: it exports nothing, and `node --import` loads it for its effect. Its
 * side-effect import must still resolve and type-check in every format a customer compiles.
 */
const RECORD_TS = `import '@employee-recognition/sdk/record';

export {};
`;

/** Typed use of `./testing/msw` with msw's own setupServer. */
const MSW_TS = `import { Client } from '@employee-recognition/sdk';
import { createHandlers, createMockApi, type MswMockApi, startMockServer } from '@employee-recognition/sdk/testing/msw';
import { setupServer } from 'msw/node';

export async function withMsw(): Promise<number> {
  const mock: MswMockApi = createMockApi({ seed: 3, recognitions: undefined });
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  const http = await startMockServer({ port: undefined });
  server.use(...createHandlers(http.api));
  try {
    const client = new Client({ apiKey: mock.testKey, baseUrl: mock.baseUrl });
    return (await client.recognitions.list({ limit: 5 })).data.length;
  } finally {
    server.close();
    await http.close();
    await mock.close();
  }
}
`;

/**
 * The optional peers as a customer's project holds them before it adds the SDK: each spec is
 * installed first, then the tarball beside it. With `program`, MSW_PROGRAM runs there, on the
 * lowest Node the peer supports: `node` (a key of the runtimes), else this one (Node 20).
 */
const PEER_PROJECTS = [
  { name: 'msw', spec: '^3.0.0', program: true, node: 'node22' },
  { name: 'msw', spec: '^2.15.0', program: true },
  { name: '@opentelemetry/api', spec: 'latest' },
];

/** /testing/msw under the msw of the project: its handlers and fromRecording answer a client. */
const MSW_PROGRAM = `import { Client } from '@employee-recognition/sdk';
import { createMockApi, createRecorder, fromRecording } from '@employee-recognition/sdk/testing/msw';
import { setupServer } from 'msw/node';

const { version } = JSON.parse(
  (await import('node:fs')).readFileSync(new URL('./node_modules/msw/package.json', import.meta.url), 'utf8'),
);
const mock = createMockApi({ recognitions: 12 });
const server = setupServer(...mock.handlers);
server.listen({ onUnhandledRequest: 'error' });
try {
  const recorder = createRecorder();
  const client = new Client({ apiKey: mock.testKey, baseUrl: mock.baseUrl, maxRetries: 0, fetch: recorder.fetch });
  let count = 0;
  for await (const recognition of client.recognitions.list({ limit: 5 })) if (recognition.id) count++;
  if (count !== 12) throw new Error('the handlers gave ' + count + ' recognitions, expected 12');
  const users = await client.users.list({ limit: 2 });
  server.resetHandlers(...fromRecording(recorder.har()));
  const replayed = await new Client({ apiKey: mock.testKey, baseUrl: mock.baseUrl, maxRetries: 0 }).users.list({ limit: 2 });
  // Recorded redacted: names and emails are pseudonyms there, ids as they were.
  const ids = (page) => page.data.map((user) => user.id).join();
  if (ids(replayed) !== ids(users)) throw new Error('fromRecording answered other users');
  console.log('msw ' + version + ' on node ' + process.versions.node + ': mock.handlers and fromRecording ok');
} finally {
  server.close();
}
`;

/**
 * A fresh project holding `name@spec`, then the SDK's tarball installed beside it, as a customer
 * adds it: any ERESOLVE (a peer range that excludes the version) fails the check, and no
 * --legacy-peer-deps or --force can hide one. Resolves to the project.
 */
async function installBesidePeer(workDir, tarball, { name, spec }) {
  const project = join(workDir, `beside-${name}@${spec}`.replace(/[^\w.@-]+/g, '-'));
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'beside-a-peer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
  );
  const env = { ...process.env, npm_config_legacy_peer_deps: 'false', npm_config_force: 'false' };
  const install = async (what) => {
    const result = await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--ignore-scripts', what],
      { cwd: project, env, timeoutMs: 5 * 60_000 },
    );
    if (result.code !== 0 || /ERESOLVE/.test(result.output)) {
      throw new Error(`npm install ${what} failed:\n${tail(result.output).join('\n')}`);
    }
  };
  await install(`${name}@${spec}`);
  const versionOf = () =>
    JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')).version;
  const before = versionOf();
  await install(tarball);
  if (versionOf() !== before) {
    throw new Error(`installing the SDK replaced ${name}@${before} with ${versionOf()}`);
  }
  indent(`${name}@${before}, then ${pkg.name} from its tarball: installed, ${name} kept`);
  return project;
}

// ---------------------------------------------------------------------------------------------
// The TypeScript matrix: every entry's customer code, under each compiler and module system,
// strict, with skipLibCheck off (docs/runtimes.md, "TypeScript").

/** The compilers customers use: each installed once, under an alias, into one cache folder. */
const TYPESCRIPTS = { '5.0': '5.0.4', 5.4: '5.4.5', 5.9: '5.9.3', '7.0': '7.0.2' };

/**
 * How a customer's project resolves the package, and the extension of each module format's
 * files: in a `"type": "module"` package, `.ts` compiles as ESM and `.cts` as CommonJS, so one
 * program holds both and checks @types/node once for the two. `node10` ignores `exports`
 * (typesVersions serves the subpaths); TypeScript 7 removed it.
 */
const MODULE_SYSTEMS = {
  nodenext: {
    type: 'module',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    esm: 'ts',
    cjs: 'cts',
  },
  node16: { type: 'module', module: 'node16', moduleResolution: 'node16', esm: 'ts', cjs: 'cts' },
  // `module: preserve` came in TypeScript 5.4; before it, bundler went with esnext.
  bundler: { type: 'module', module: 'preserve', moduleResolution: 'bundler', esm: 'ts' },
  node10: {
    type: 'commonjs',
    module: 'commonjs',
    moduleResolution: 'node10',
    cjs: 'ts',
    upTo: '5.9',
  },
};

/**
 * The programs of a cell. A Node app's lib has no DOM: `.`, `./webhooks` and `./testing` must
 * not need it, and `./testing` must not bring msw's types in (`forbid`). msw's types need the DOM.
 */
const PROGRAMS = {
  app: {
    files: {
      consumer: CONSUMER_TS,
      testing: TESTING_TS,
      redis: REDIS_TS,
      otel: OTEL_TS,
      doctor: DOCTOR_TS,
      record: RECORD_TS,
    },
    dom: false,
    forbid: /[\\/]node_modules[\\/](msw|@mswjs)[\\/]/,
  },
  // msw's types need TypeScript 5.9: msw depends on type-fest 5, which requires it (and ESM).
  // A cell per format, so that msw's known CommonJS failure cannot hide an ESM one.
  msw: { files: { msw: MSW_TS }, dom: true, since: '5.9', cellPerFormat: true },
};

/** Every subpath of `exports` with types, and the program whose customer code imports it. */
function uncoveredEntries() {
  const code = Object.values(PROGRAMS)
    .flatMap(({ files }) => Object.values(files))
    .join('\n');
  return Object.keys(pkg.exports)
    .filter((subpath) => !subpath.endsWith('.json'))
    .map((subpath) => subpath.replace(/^\./, pkg.name))
    .filter((specifier) => !code.includes(`'${specifier}'`));
}

const STRICT = {
  target: 'es2022',
  strict: true,
  noEmit: true,
  skipLibCheck: false,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitOverride: true,
  noPropertyAccessFromIndexSignature: true,
  esModuleInterop: true,
  isolatedModules: true,
  forceConsistentCasingInFileNames: true,
  types: ['node'],
};

/** The cells, each `{ name, version, dir, dom, forbid }`, written out under `project`. */
function writeTypeMatrix(project) {
  const cells = [];
  for (const [version] of Object.entries(TYPESCRIPTS)) {
    for (const [system, settings] of Object.entries(MODULE_SYSTEMS)) {
      if (settings.upTo && Number(version) > Number(settings.upTo)) continue;
      const formats = ['esm', 'cjs'].filter((format) => settings[format]);
      for (const [programName, program] of Object.entries(PROGRAMS)) {
        if (program.since && Number(version) < Number(program.since)) continue;
        const groups = program.cellPerFormat ? formats.map((format) => [format]) : [formats];
        for (const group of groups) {
          const name = `ts ${version} ${system} ${group.join('+')} ${programName}`;
          const dir = join(project, 'types', name.replace(/[^a-z0-9]+/gi, '-'));
          mkdirSync(dir, { recursive: true });
          writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ type: settings.type })}\n`);
          const files = group.flatMap((format) =>
            Object.entries(program.files).map(([file, code]) => {
              const path = `${file}.${settings[format]}`;
              writeFileSync(join(dir, path), code);
              return path;
            }),
          );
          const module =
            settings.module === 'preserve' && version === '5.0' ? 'esnext' : settings.module;
          const compilerOptions = {
            ...STRICT,
            module,
            moduleResolution: settings.moduleResolution,
            lib: program.dom ? ['es2022', 'dom', 'dom.iterable'] : ['es2022'],
          };
          writeFileSync(
            join(dir, 'tsconfig.json'),
            `${JSON.stringify({ compilerOptions, files }, null, 2)}\n`,
          );
          cells.push({ name, version, dir, dom: program.dom, forbid: program.forbid });
        }
      }
    }
  }
  return cells;
}

/** Installs every TypeScript of the matrix once, side by side, into `project/typescripts`. */
async function installTypeScripts(project) {
  const dir = join(project, 'typescripts');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  const specs = Object.entries(TYPESCRIPTS).map(
    ([version, exact]) => `ts${version.replace('.', '')}@npm:typescript@${exact}`,
  );
  indent(`npm install ${specs.join(' ')}`);
  const result = await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', ...specs],
    { cwd: dir, timeoutMs: 5 * 60_000 },
  );
  if (result.code !== 0) throw new Error(`npm install failed:\n${tail(result.output).join('\n')}`);
  return (version) => join(dir, 'node_modules', `ts${version.replace('.', '')}`, 'bin', 'tsc');
}

/**
 * Known failures that are msw's, not ours: cells of code that uses msw where every error lies in
 * msw's own declarations (docs/runtimes.md lists them and why). Such a cell passes while its
 * errors stay there; one that starts compiling is reported, so the list and the docs shrink.
 */
const MSW_OWN_FAILURES = new Set(['ts 5.9 node16 cjs msw', 'ts 7.0 node16 cjs msw']);

// An error line of tsc: `path(line,col): error TS…`.
const TSC_ERROR = /^(.+?)\(\d+,\d+\): error (TS\d+)/;

/** One cell: `tsc -p` with the list of files the program holds. */
async function compileCell(cell, tscOf) {
  const result = await run(process.execPath, [tscOf(cell.version), '-p', '.', '--listFiles'], {
    cwd: cell.dir,
    timeoutMs: 240_000,
  });
  const lines = stripAnsi(result.output).split('\n');
  const errors = lines.filter((line) => TSC_ERROR.test(line));
  const forbidden = cell.forbid
    ? lines.filter((line) => cell.forbid.test(line) && !TSC_ERROR.test(line))
    : [];
  if (result.timedOut) return { failure: 'timed out', lines: [] };
  if (forbidden.length) {
    return {
      failure: `msw's types are in the program: ${forbidden[0].trim()}`,
      lines: forbidden.slice(0, 5),
    };
  }
  if (result.code === 0) {
    return MSW_OWN_FAILURES.has(cell.name)
      ? { note: 'compiles now: drop it from MSW_OWN_FAILURES and docs/runtimes.md' }
      : {};
  }
  const inMsw = errors.every((line) =>
    /[\\/]node_modules[\\/](msw|@mswjs|rettime)[\\/]/.test(line),
  );
  if (MSW_OWN_FAILURES.has(cell.name) && errors.length && inMsw) {
    return {
      note: `fails inside msw's types only (${[...new Set(errors.map((l) => TSC_ERROR.exec(l)[2]))].join(', ')})`,
    };
  }
  return {
    failure: `tsc exited with ${result.code}`,
    lines: errors.length ? errors.slice(0, 12) : tail(result.output, 20),
  };
}

/** The whole matrix, two compilers at a time; one line per cell. */
async function typeMatrix(project) {
  const missing = uncoveredEntries();
  if (missing.length) return `no customer code imports ${missing.join(', ')}`;
  const tscOf = await installTypeScripts(project);
  const cells = writeTypeMatrix(project);
  // The slowest first (msw's declarations with the DOM lib), so the two queues end together.
  const queue = [...cells].sort((a, b) => Number(b.dom) - Number(a.dom));
  const failed = [];
  const worker = async () => {
    for (let cell = queue.shift(); cell; cell = queue.shift()) {
      const started = Date.now();
      const { failure, note, lines = [] } = await compileCell(cell, tscOf);
      indent(
        `${failure ? 'FAIL' : 'pass'}  ${cell.name.padEnd(32)} ${seconds(started).padStart(6)}${failure ? `: ${failure}` : note ? `: ${note}` : ''}`,
      );
      for (const line of lines) indent(`      ${line.trim()}`);
      if (failure) failed.push(cell.name);
    }
  };
  await Promise.all([worker(), worker()]);
  indent(
    `TypeScript ${Object.values(TYPESCRIPTS).join(', ')}; strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, skipLibCheck false`,
  );
  return failed.length
    ? `${failed.length} of ${cells.length} cells failed: ${failed.join('; ')}`
    : undefined;
}

// ---------------------------------------------------------------------------------------------
// Test runners: the testing kit as customers' suites load it (docs/testing.md).

/** Jest, pinned to the release the docs' example is checked with. */
const JEST = 'jest@30.5.2';

/**
 * The CommonJS Jest example of docs/testing.md as published: the ```js block right after its
 * `<!-- jest-example` comment, so the page shows exactly what CI runs.
 */
function jestExample() {
  const page = readFileSync(join(root, 'docs', 'testing.md'), 'utf8');
  const block = /<!-- jest-example[^]*?-->\s*```js\n([^]*?)\n```/.exec(page);
  if (!block) throw new Error('docs/testing.md has no ```js block after <!-- jest-example');
  return block[1];
}

/** Jest's CommonJS default: every entry loads, and msw only where the MSW handlers are. */
const JEST_ENTRIES_TEST = `const sdk = require('@employee-recognition/sdk');
const webhooks = require('@employee-recognition/sdk/webhooks');
const testing = require('@employee-recognition/sdk/testing');

test('., /webhooks and /testing load and share their classes', () => {
  expect(typeof sdk.Client).toBe('function');
  expect(typeof webhooks.verifyWebhook).toBe('function');
  expect(typeof testing.createMockApi).toBe('function');
  expect(new webhooks.WebhookVerificationError('invalid_signature', 'x')).toBeInstanceOf(
    sdk.EmployeeRecognitionError,
  );
});

test('/testing needs no msw: with msw made to throw, it still loads and serves', async () => {
  let testing;
  jest.isolateModules(() => {
    jest.doMock('msw', () => {
      throw new Error('msw was loaded');
    });
    testing = require('@employee-recognition/sdk/testing');
  });
  jest.dontMock('msw');
  const mock = testing.createMockApi();
  const response = await mock.fetch('/v1/teams', {
    headers: { authorization: 'Bearer ' + mock.testKey },
  });
  expect(response.status).toBe(200);
  await mock.close();
});

test('/testing/msw fails, if at all, inside msw (its CommonJS build requires ESM-only rettime)', () => {
  let error;
  try {
    require('@employee-recognition/sdk/testing/msw');
  } catch (caught) {
    error = caught;
  }
  if (error) expect(String(error.stack)).toMatch(/node_modules[\\\\/](msw|rettime)[\\\\/]/);
});
`;

/** Jest with ESM (Node's VM modules): every entry, the MSW handlers intercepting the SDK's fetch. */
const JEST_ESM_TEST = `import { Client } from '@employee-recognition/sdk';
import { signWebhook } from '@employee-recognition/sdk/testing';
import { createMockApi } from '@employee-recognition/sdk/testing/msw';
import { verifyWebhook } from '@employee-recognition/sdk/webhooks';
import { setupServer } from 'msw/node';

const mock = createMockApi({ recognitions: 7 });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(async () => {
  server.close();
  await mock.close();
});

test('the MSW handlers answer the SDK through the global fetch', async () => {
  const client = new Client({ baseUrl: mock.baseUrl, apiKey: mock.testKey });
  const ids = [];
  for await (const recognition of client.recognitions.list({ limit: 3 })) ids.push(recognition.id);
  expect(ids).toHaveLength(7);
  const body = JSON.stringify({ id: 'evt_1', type: 'user.created', created_at: '2026-11-21T09:30:00Z', data: {} });
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const event = await verifyWebhook(body, await signWebhook(body, secret), secret);
  expect(event.type).toBe('user.created');
});
`;

/** The same kit under Node's own test runner (CommonJS) and Bun's (ESM). */
const runnerTest = (load, header) => `${header}
${load}

test('the mock serves the SDK over HTTP and through mock.fetch', async () => {
  const server = await testing.startMockServer({ recognitions: 9 });
  try {
    const client = new sdk.Client({ baseUrl: server.url, apiKey: server.api.testKey });
    let count = 0;
    for await (const recognition of client.recognitions.list({ limit: 4 })) count += recognition.id ? 1 : 0;
    assertEqual(count, 9);
  } finally {
    await server.close();
  }
  const mock = testing.createMockApi();
  const direct = new sdk.Client({ fetch: mock.fetch, baseUrl: mock.baseUrl, apiKey: mock.testKey });
  assertEqual((await direct.teams.list()).data.length, mock.store.teams.size);
  const body = '{"id":"evt_1","type":"team.created","created_at":"2026-11-21T09:30:00Z","data":{}}';
  const secret = testing.generateWebhookSecret();
  const event = await webhooks.verifyWebhook(body, await testing.signWebhook(body, secret), secret);
  assertEqual(event.type, 'team.created');
  await mock.close();
});
`;

const NODE_TEST = runnerTest(
  `const sdk = require('@employee-recognition/sdk');
const testing = require('@employee-recognition/sdk/testing');
const webhooks = require('@employee-recognition/sdk/webhooks');`,
  `const { test } = require('node:test');
const { strictEqual: assertEqual } = require('node:assert');`,
);

const BUN_TEST = runnerTest(
  `import * as sdk from '@employee-recognition/sdk';
import * as testing from '@employee-recognition/sdk/testing';
import * as webhooks from '@employee-recognition/sdk/webhooks';`,
  `import { expect, test } from 'bun:test';
const assertEqual = (actual, expected) => expect(actual).toBe(expected);`,
);

/**
 * A CommonJS project with no test configuration at all, inside the consumer (whose node_modules
 * hold the SDK, msw and Jest): Jest's defaults are what customers start from.
 */
function writeRunnerProject(project) {
  const dir = join(project, 'runners');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'runners', version: '1.0.0', private: true, type: 'commonjs' }, null, 2)}\n`,
  );
  writeFileSync(join(dir, 'recognitions.test.js'), jestExample());
  writeFileSync(join(dir, 'entries.test.js'), JEST_ENTRIES_TEST);
  writeFileSync(join(dir, 'msw.test.mjs'), JEST_ESM_TEST);
  writeFileSync(join(dir, 'node-runner.cjs'), NODE_TEST);
  writeFileSync(join(dir, 'bun-runner.mjs'), BUN_TEST);
}

/** Runs one test runner in the runners project; its output's tail shows on failure. */
async function runTests(project, file, args) {
  const result = await run(file, args, {
    cwd: join(project, 'runners'),
    timeoutMs: 180_000,
    env: { ...process.env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  const lines = tail(result.output, result.code === 0 ? 8 : 40).filter((line) => line.trim());
  for (const line of lines) indent(line);
  if (result.timedOut) return 'timed out after 180 s';
  return result.code === 0 ? undefined : `exit code ${result.code}`;
}

/** The checks of this section: `[name, () => failure | undefined]`. */
function testRunnerChecks(project, runtimes) {
  const jest = join(project, 'node_modules', 'jest', 'bin', 'jest.js');
  const checks = [
    [
      'jest 30 cjs, default config (docs example)',
      () => runTests(project, process.execPath, [jest, 'recognitions.test.js', 'entries.test.js']),
    ],
    [
      'jest 30 esm + msw handlers',
      () =>
        runTests(project, process.execPath, ['--experimental-vm-modules', jest, 'msw.test.mjs']),
    ],
    ['node --test (cjs)', () => runTests(project, process.execPath, ['--test', 'node-runner.cjs'])],
  ];
  if (runtimes?.bun) {
    checks.push([
      'bun test',
      () => runTests(project, runtimes.bun.path, ['test', './bun-runner.mjs']),
    ]);
  }
  return checks;
}

// ---------------------------------------------------------------------------------------------
// The checks.

function tail(output, lines = 25) {
  return stripAnsi(output).trim().split('\n').slice(-lines);
}

/** `npm pack` of the package in `folder`; `needed` are files its tarball must hold. */
async function pack(workDir, folder, needed) {
  const result = await run(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', workDir],
    { cwd: folder, timeoutMs: 120_000 },
  );
  if (result.code !== 0) throw new Error(`npm pack failed:\n${tail(result.output).join('\n')}`);
  const json = result.output.slice(result.output.indexOf('['));
  const [info] = JSON.parse(json);
  const files = info.files.map((file) => file.path);
  const stray = files.filter((file) => /^(src|test|scripts|bench|examples)\//.test(file));
  if (stray.length) throw new Error(`the tarball holds files it should not: ${stray.join(', ')}`);
  for (const file of ['package.json', ...needed]) {
    if (!files.includes(file)) throw new Error(`the tarball lacks ${file}`);
  }
  indent(
    `${info.filename}: ${files.length} files, ${(info.size / 1024).toFixed(1)} KiB packed, ${(info.unpackedSize / 1024).toFixed(1)} KiB unpacked`,
  );
  return join(workDir, info.filename);
}

async function installConsumer(workDir, tarball, mcpTarball) {
  const project = join(workDir, 'consumer');
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
  );
  // The versions used here of msw (the optional peer of ./testing/msw), the compiler and Node's
  // types, the Redis clients customers give ./redis, OpenTelemetry's API and SDK for ./otel; Jest
  // for the test runners.
  const extras = [
    ...[
      'msw',
      'typescript',
      '@types/node',
      'redis',
      'ioredis',
      '@opentelemetry/api',
      '@opentelemetry/sdk-trace-base',
    ].map((name) => `${name}@${installedVersion(name)}`),
    JEST,
  ];
  indent(`npm install ${pkg.name} ${mcp.name} (tarballs) ${extras.join(' ')}`);
  const result = await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--ignore-scripts',
      tarball,
      mcpTarball,
      ...extras,
    ],
    { cwd: project, timeoutMs: 5 * 60_000 },
  );
  if (result.code !== 0) throw new Error(`npm install failed:\n${tail(result.output).join('\n')}`);
  const installed = JSON.parse(
    readFileSync(join(project, 'node_modules', pkg.name, 'package.json'), 'utf8'),
  );
  const deps = Object.keys(pkg.dependencies ?? {})
    .map((name) => {
      const manifest = join(project, 'node_modules', name, 'package.json');
      return `${name}@${JSON.parse(readFileSync(manifest, 'utf8')).version}`;
    })
    .join(', ');
  indent(`installed ${installed.name}@${installed.version} with ${deps}`);
  writeRunnerProject(project);
  writeFileSync(join(project, 'esm.mjs'), ESM_PROGRAM);
  writeFileSync(join(project, 'cjs.cjs'), CJS_PROGRAM);
  return project;
}

async function runProgram(node, project, file) {
  const result = await run(node, [file], { cwd: project, timeoutMs: 60_000 });
  const lines = tail(result.output, 15);
  for (const line of lines) indent(line);
  if (result.timedOut) return 'timed out after 60s';
  if (result.code !== 0) return `exit code ${result.code}`;
  return undefined;
}

async function publint(tarball) {
  const bin = join(root, 'node_modules', 'publint', 'src', 'cli.js');
  const result = await run(process.execPath, [bin, 'run', '--strict', tarball], {
    cwd: root,
    timeoutMs: 120_000,
  });
  for (const line of tail(result.output, 20)) indent(line);
  return result.code === 0 ? undefined : `publint exited with ${result.code}`;
}

async function attw(tarball, ...options) {
  const bin = join(root, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
  const result = await run(
    process.execPath,
    [bin, tarball, '--format', 'table-flipped', ...options],
    {
      cwd: root,
      timeoutMs: 180_000,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    },
  );
  for (const line of tail(result.output, 20)) if (line.trim()) indent(line);
  return result.code === 0 ? undefined : `attw exited with ${result.code}`;
}

// An import of zod, ky or oauth4webapi (`from 'zod/mini'`, `import('ky')`), or one of their
// types inlined.
const DEPENDENCY_TYPE =
  /['"](?:zod|ky|oauth4webapi)(?:\/[^'"]*)?['"]|\bZod[A-Z]\w*|\bKy[A-Z]\w*|\bAuthorizationServer\b/;

/**
 * The declarations as packed name neither zod, ky nor oauth4webapi: the public types are the SDK's own, so a
 * customer's types never depend on a runtime dependency's version.
 */
function declarationsOwnTypes(project) {
  const dist = join(project, 'node_modules', ...pkg.name.split('/'), 'dist');
  const found = [];
  for (const file of readdirSync(dist).filter((name) => /\.d\.c?ts$/.test(name))) {
    const lines = readFileSync(join(dist, file), 'utf8').split('\n');
    lines.forEach((line, index) => {
      if (DEPENDENCY_TYPE.test(line))
        found.push(`dist/${file}:${index + 1}: ${line.trim().slice(0, 120)}`);
    });
  }
  for (const line of found.slice(0, 20)) indent(line);
  return found.length
    ? `${found.length} declaration lines name zod, ky or oauth4webapi`
    : undefined;
}

/**
 * The CommonJS main entry as a CommonJS app loads it with no help: ky is ESM-only, so the build
 * must carry its own copy. Run with require(esm) off, which Node 20.19+ would otherwise use to
 * load ky from node_modules and hide a missing copy.
 */
const PLAIN_CJS_PROGRAM = `'use strict';
const http = require('node:http');
const { Client } = require('@employee-recognition/sdk');
const server = http.createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ data: { path: request.url } }));
});
server.listen(0, '127.0.0.1', async () => {
  try {
    const client = new Client({ apiKey: 'rk_test_' + '0'.repeat(24), baseUrl: 'http://127.0.0.1:' + server.address().port });
    const { data } = await client.get('/v1/ping');
    if (data.path !== '/v1/ping') throw new Error('answered ' + JSON.stringify(data));
    console.log('plain require() of the CommonJS build on node ' + process.versions.node + ': a call through the bundled ky ok');
  } catch (error) {
    console.log('FAIL ' + (error && error.stack ? error.stack : error));
    process.exitCode = 1;
  } finally {
    server.close();
  }
});
`;

async function plainRequire(project) {
  writeFileSync(join(project, 'plain-require.cjs'), PLAIN_CJS_PROGRAM);
  const result = await run(
    process.execPath,
    ['--no-experimental-require-module', 'plain-require.cjs'],
    {
      cwd: project,
      timeoutMs: 60_000,
    },
  );
  for (const line of tail(result.output, 15)) indent(line);
  return result.code === 0 ? undefined : `exit code ${result.code}`;
}

/**
 * The MCP package's range on the SDK holds the packed SDK: the project has one SDK, the one from
 * its tarball. A range the packed version misses would make npm fetch another SDK for the MCP
 * package (a second copy under it) or fail, and `npm ls` exits non-zero on an invalid range.
 */
async function mcpUsesPackedSdk(project) {
  const range = mcp.dependencies[pkg.name];
  // --parseable: the folder of every copy of the SDK in the project.
  const result = await run('npm', ['ls', pkg.name, '--all', '--omit=dev', '--parseable'], {
    cwd: project,
    timeoutMs: 60_000,
  });
  const copies = tail(result.output, 10).filter((line) =>
    line.includes(join('node_modules', pkg.name)),
  );
  for (const copy of copies) indent(copy);
  if (copies.length !== 1 || result.code !== 0) {
    return `${mcp.name} wants ${pkg.name}@${range}, which the packed ${pkg.version} does not satisfy`;
  }
  return undefined;
}

/** The MCP package's entry, from its tarball, serving the tools on a client of the packed SDK. */
const MCP_PROGRAM = `import { Client } from '@employee-recognition/sdk';
import { createMcpServer, ToolSelectionError } from '@employee-recognition/mcp';
import { startMockServer } from '@employee-recognition/sdk/testing';

const server = await startMockServer();
try {
  const client = new Client({ apiKey: server.api.testKey, baseUrl: server.url });
  const mcp = createMcpServer(client, { allowWrites: true });
  if (typeof mcp.connect !== 'function') throw new Error('createMcpServer gave no MCP server');
  if (typeof ToolSelectionError !== 'function') throw new Error('ToolSelectionError is missing');
  await mcp.close();
  console.log('${mcp.name} from its tarball on node ' + process.versions.node + ': createMcpServer ok');
} finally {
  await server.close();
}
`;

/** `npm ls ky --omit=dev`: ky is what a customer's install holds as the SDK's dependency. */
async function installedKy(project) {
  const result = await run('npm', ['ls', 'ky', '--omit=dev'], { cwd: project, timeoutMs: 60_000 });
  const lines = tail(result.output, 10).filter((line) => line.trim() !== '');
  for (const line of lines) indent(line);
  return result.code === 0 && lines.some((line) => /\bky@1\./.test(line))
    ? undefined
    : 'ky is not installed as a dependency of the SDK';
}

/** The size budgets of `.size-limit.json`, as `npm run size` checks them. */
async function runSizeBudget() {
  const sizeLimit = join(root, 'node_modules', 'size-limit', 'bin.js');
  const result = await run(process.execPath, [sizeLimit], {
    cwd: root,
    timeoutMs: 180_000,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  for (const line of tail(result.output, 20)) if (line.trim()) indent(line);
  return result.code === 0 ? undefined : `exited with ${result.code}`;
}

async function main() {
  const started = Date.now();
  const keep = process.argv.includes('--keep');
  const results = [];
  const check = async (name, body) => {
    say(`▶ ${name}`);
    const checkStarted = Date.now();
    let failure;
    try {
      failure = await body();
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    const time = seconds(checkStarted);
    results.push({ name, failure, time });
    say(failure ? `FAIL ${name} (${time}): ${failure}` : `PASS ${name} (${time})`);
    return !failure;
  };

  await ensureBuild(say);
  const workDir = mkdtempSync(join(tmpdir(), 'er-sdk-package-'));
  try {
    let runtimes;
    await check('node runtimes', async () => {
      runtimes = installRuntimes({ chromium: false });
    });
    const nodes = [['20', process.execPath]];
    if (runtimes) nodes.push(['22', runtimes.node22.path], ['24', runtimes.node24.path]);

    let tarball;
    await check('npm pack', async () => {
      tarball = await pack(workDir, root, [
        'dist/index.js',
        'dist/index.cjs',
        'dist/index.d.ts',
        'openapi.json',
      ]);
    });
    let mcpTarball;
    await check(`npm pack ${mcp.name}`, async () => {
      mcpTarball = await pack(workDir, MCP_FOLDER, [
        'dist/index.js',
        'dist/index.d.ts',
        'dist/cli.js',
      ]);
    });
    let project;
    if (tarball && mcpTarball) {
      await check('install both into a fresh project', async () => {
        project = await installConsumer(workDir, tarball, mcpTarball);
      });
    }
    if (project) {
      await check(`${mcp.name} range on the packed SDK`, () => mcpUsesPackedSdk(project));
      await check(`${mcp.name} entry from its tarball`, () => {
        writeFileSync(join(project, 'mcp.mjs'), MCP_PROGRAM);
        return runProgram(process.execPath, project, 'mcp.mjs');
      });
      await check('no zod, ky or oauth4webapi types in dist/*.d.ts, *.d.cts', () =>
        declarationsOwnTypes(project),
      );
      await check('npm ls ky --omit=dev', () => installedKy(project));
      await check('node20 plain require of . (bundled ky)', () => plainRequire(project));
      for (const [version, node] of nodes) {
        await check(`node${version} esm import`, () => runProgram(node, project, 'esm.mjs'));
        await check(`node${version} cjs require`, () => runProgram(node, project, 'cjs.cjs'));
      }
      for (const [name, body] of testRunnerChecks(project, runtimes)) await check(name, body);
      await check('typescript matrix', () => typeMatrix(project));
    }
    for (const peer of PEER_PROJECTS) {
      if (!tarball) break;
      await check(`install beside ${peer.name}@${peer.spec}`, async () => {
        const beside = await installBesidePeer(workDir, tarball, peer);
        if (!peer.program) return undefined;
        const node = peer.node ? runtimes?.[peer.node]?.path : process.execPath;
        if (!node) return `no ${peer.node} to run ${peer.name} on`;
        writeFileSync(join(beside, 'msw.mjs'), MSW_PROGRAM);
        return runProgram(node, beside, 'msw.mjs');
      });
    }
    if (tarball) await check('publint --strict', () => publint(tarball));
    if (tarball) await check('attw', () => attw(tarball));
    if (mcpTarball) await check(`publint --strict ${mcp.name}`, () => publint(mcpTarball));
    // ESM only, as its package.json says: no CommonJS or node10 resolution to check.
    if (mcpTarball) {
      await check(`attw ${mcp.name}`, () => attw(mcpTarball, '--profile', 'esm-only'));
    }
    await check('size budget (size-limit)', runSizeBudget);
  } finally {
    if (keep) say(`kept ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }

  say('');
  say('package checks:');
  for (const { name, failure, time } of results) {
    say(`  ${failure ? 'FAIL' : 'pass'}  ${name.padEnd(30)} ${time.padStart(7)}`);
  }
  const failed = results.filter((result) => result.failure).length;
  say(`total ${seconds(started)}`);
  say(`package: ${results.length - failed} passed, ${failed} failed`);
  if (failed > 0) process.exitCode = 1;
}

main()
  .catch((error) => {
    console.error(`check-package: ${error instanceof Error ? error.stack : error}`);
    process.exitCode = 1;
  })
  .finally(killAll);
