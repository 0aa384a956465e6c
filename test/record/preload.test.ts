import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type Har, type MockServer, startMockServer } from '@employee-recognition/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harErrors } from '../testing/recording.js';

const PRELOAD = fileURLToPath(new URL('../../src/record/index.ts', import.meta.url));
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
