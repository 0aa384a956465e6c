import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type Har, type MockServer, startMockServer } from '@employee-recognition/sdk/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { traffic } from '../../src/cli/traffic.js';
import { harErrors } from '../testing/recording.js';

const PRELOAD = fileURLToPath(new URL('../../src/record/index.ts', import.meta.url));
const SDK = new URL('../../src/index.ts', import.meta.url).href;
const run = promisify(execFile);

let api: MockServer;
// Another service the app calls with its own credential: none of it may reach the file.
let other: MockServer;
let dir: string;

beforeAll(async () => {
  [api, other] = await Promise.all([startMockServer({ seed: 41 }), startMockServer({ seed: 7 })]);
  dir = mkdtempSync(join(tmpdir(), 'preload-'));
});
afterAll(async () => {
  await Promise.all([api.close(), other.close()]);
  rmSync(dir, { recursive: true, force: true });
});

// An app that knows nothing of recording: plain fetch calls, then an end of its choosing.
function app(ending: string): string {
  const file = join(dir, `app-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    file,
    `const get = (url, key) => fetch(url, { headers: { authorization: 'Bearer ' + key } }).then((r) => r.json());
const users = await get(process.env.RECOGNITION_BASE_URL + '/v1/users?limit=3', ${JSON.stringify(api.api.testKey)});
await get(${JSON.stringify(other.url)} + '/v1/teams', ${JSON.stringify(other.api.testKey)});
console.log(JSON.stringify(users.data.map((user) => user.id)));
${ending}`,
  );
  return file;
}

async function record(ending: string) {
  const har = join(dir, `calls-${Math.random().toString(36).slice(2)}.har`);
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', '--import', PRELOAD, app(ending)],
    {
      env: {
        ...process.env,
        RECOGNITION_RECORD: har,
        RECOGNITION_BASE_URL: api.url,
        RECOGNITION_AUTH_URL: api.url,
      },
      timeout: 60_000,
    },
  );
  return { har, ids: JSON.parse(stdout) as string[] };
}

describe('node --import @employee-recognition/sdk/record', () => {
  it("records the app's calls to the base URL, redacted, and nothing of another service", async () => {
    const { har: file, ids } = await record('');
    expect(ids).toHaveLength(3);
    expect(existsSync(`${file}.partial`)).toBe(false);
    const text = readFileSync(file, 'utf8');
    const har = JSON.parse(text) as Har;
    expect(harErrors(har)).toEqual([]);
    expect(har.log.entries.map((entry) => entry.request.url)).toEqual([
      `${api.url}/v1/users?limit=3`,
    ]);
    expect(text).not.toContain(api.api.testKey);
    expect(text).not.toContain(other.url);
    expect(text).not.toContain(other.api.testKey);
    const emails = api.api.store.users.all().map((user) => user.email);
    for (const email of emails) expect(text).not.toContain(email);
  });

  it('finishes the file when the app ends with process.exit()', async () => {
    const { har: file } = await record('process.exit(0);');
    const har = JSON.parse(readFileSync(file, 'utf8')) as Har;
    expect(harErrors(har)).toEqual([]);
    expect(har.log.entries).toHaveLength(1);
  });
});

// A server-like app: one call through the SDK, then it runs until stopped. `setup` runs first.
function serverApp(setup = '', target?: MockServer): string {
  const baseUrl = target ? JSON.stringify(target.url) : 'process.env.RECOGNITION_BASE_URL';
  const file = join(dir, `server-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    file,
    `import { Client } from ${JSON.stringify(SDK)};
${setup}
const client = new Client({ apiKey: ${JSON.stringify((target ?? api).api.testKey)}, baseUrl: ${baseUrl}, maxRetries: 0 });
await client.users.list({ limit: 2 });
const timer = setInterval(() => {}, 1000);
globalThis.stopApp = () => clearInterval(timer);
console.log('ready');`,
  );
  return file;
}

/** Runs `app` under the preload until it prints `ready`, then `stop`s it; how it ended. */
async function runUntilReady(app: string, stop: NodeJS.Signals | undefined) {
  const har = join(dir, `calls-${Math.random().toString(36).slice(2)}.har`);
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', PRELOAD, app], {
    env: {
      ...process.env,
      RECOGNITION_RECORD: har,
      RECOGNITION_BASE_URL: api.url,
      RECOGNITION_AUTH_URL: api.url,
    },
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk) => String(chunk).includes('ready') && resolve());
    void ended.then(() => reject(new Error(`the app ended early: ${stderr}`)));
  });
  if (stop) child.kill(stop);
  return { har, ...(await ended), stderr: () => stderr };
}

describe('a preloaded app that is stopped', () => {
  // traffic check's report is not what these tests read.
  beforeEach(() => void vi.spyOn(process.stdout, 'write').mockImplementation(() => true));

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`by ${signal} leaves a finished HAR and still ends by the signal (exit code ${code} in a shell)`, async () => {
      const run = await runUntilReady(serverApp(), signal);
      expect(run.signal).toBe(signal);
      expect(existsSync(`${run.har}.partial`)).toBe(false);
      const har = JSON.parse(readFileSync(run.har, 'utf8')) as Har;
      expect(harErrors(har)).toEqual([]);
      expect(har.log.entries).toHaveLength(1);
      expect(await traffic.run(['check', run.har])).not.toBe(2);
    });
  }

  it('by SIGINT leaves shutdown to the app when it listens itself, and the file is finished at exit', async () => {
    const run = await runUntilReady(
      serverApp(`process.on('SIGINT', () => { globalThis.stopApp(); process.exitCode = 3; });`),
      'SIGINT',
    );
    expect(run).toMatchObject({ code: 3, signal: null });
    expect((JSON.parse(readFileSync(run.har, 'utf8')) as Har).log.entries).toHaveLength(1);
  });

  it('by SIGKILL leaves a .partial that traffic check reads, saying so', async () => {
    const run = await runUntilReady(serverApp(), 'SIGKILL');
    expect(existsSync(run.har)).toBe(false);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await traffic.run(['check', `${run.har}.partial`])).not.toBe(2);
    expect(stderr.mock.calls.map(([line]) => String(line)).join('')).toContain(
      "is a recording's .partial, left by a process that did not finish",
    );
  });
});

describe('a preloaded app whose client has a base URL set in code', () => {
  it('says at exit how many requests went unrecorded, to which origin, naming RECOGNITION_RECORD_URLS, and warns of 0 entries', async () => {
    const run = await runUntilReady(serverApp('', other), 'SIGTERM');
    expect(run.stderr()).toContain(
      `[employee-recognition] record: the SDK sent 1 request to ${other.url}, not recorded: add it to RECOGNITION_RECORD_URLS`,
    );
    expect(run.stderr()).toContain(`warning: ${run.har} holds no entries`);
  });
});
