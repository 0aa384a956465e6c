import * as fs from 'node:fs';
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@employee-recognition/sdk';
import {
  createRecorder,
  type Har,
  type MockServer,
  parseHar,
  startMockServer,
} from '@employee-recognition/sdk/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RecordFileError, startRecorder } from '../../src/testing/recorder.js';
import { api as apiCommand } from '../../src/cli/api.js';

let server: MockServer;
let dir: string;
beforeAll(async () => {
  server = await startMockServer({ seed: 41 });
  dir = mkdtempSync(join(tmpdir(), 'recorder-files-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

let count = 0;
const fresh = () => join(dir, `calls-${++count}.har`);

async function session(file: string) {
  const recorder = createRecorder({ file });
  const client = new Client({
    apiKey: server.api.testKey,
    baseUrl: server.url,
    fetch: recorder.fetch,
  });
  await client.users.list({ limit: 2 });
  return recorder;
}

describe('a recording’s files', () => {
  it('are created for their owner only (0600), the .partial too', async () => {
    const file = fresh();
    const recorder = await session(file);
    await vi.waitFor(() => expect(statSync(`${file}.partial`).mode & 0o777).toBe(0o600));
    await recorder.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses a symbolic link planted at the .partial’s name, writing nothing through it', async () => {
    const file = fresh();
    const victim = join(dir, `victim-${count}`);
    writeFileSync(victim, 'precious');
    symlinkSync(victim, `${file}.partial`);
    expect(() => startRecorder({ file, fs })).toThrow(RecordFileError);
    expect(() => startRecorder({ file, fs })).toThrow(/calls-\d+\.har\.partial is a symbolic link/);
    const recorder = await session(file);
    await expect(recorder.close()).rejects.toThrow(/is a symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
  });

  it('refuses a symbolic link at the name the HAR is assembled under, leaving its target and the file', async () => {
    const file = fresh();
    const victim = join(dir, `victim-${count}`);
    writeFileSync(victim, 'precious');
    writeFileSync(file, 'the last recording');
    symlinkSync(victim, `${file}.writing`);
    const recorder = await session(file);
    await expect(recorder.close()).rejects.toThrow(/\.writing is a symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(readFileSync(file, 'utf8')).toBe('the last recording');
  });

  it('refuses a .partial name that is not a regular file', () => {
    const file = fresh();
    fs.mkdirSync(`${file}.partial`);
    expect(() => startRecorder({ file, fs })).toThrow(/is not a regular file/);
  });

  it('moves a stale .partial of a killed run aside, saying so, and keeps it readable', async () => {
    const file = fresh();
    const killed = startRecorder({ file, fs, urls: [server.url] });
    const client = new Client({
      apiKey: server.api.testKey,
      baseUrl: server.url,
      fetch: killed.fetch,
    });
    await client.teams.list();
    await vi.waitFor(() => expect(killed.recorded).toBe(1));
    // Killed: nothing finishes the file.
    const said: string[] = [];
    const next = startRecorder({ file, fs, say: (line) => said.push(line) });
    expect(said).toHaveLength(1);
    const aside = /moved to (.+\.partial)\.$/.exec(said[0]!)![1]!;
    expect(said[0]).toContain(`${file}.partial was left by a run that did not finish`);
    const read = parseHar(readFileSync(aside, 'utf8'), aside);
    expect(read.partial).toBe(true);
    expect(read.har.log.entries).toHaveLength(1);
    next.closeSync();
    expect((JSON.parse(readFileSync(file, 'utf8')) as Har).log.entries).toEqual([]);
  });

  it('replaces an earlier recording of the same name, as a weekly re-recording does', async () => {
    const file = fresh();
    writeFileSync(file, 'last week');
    await (await session(file)).close();
    await (await session(file)).close();
    expect((JSON.parse(readFileSync(file, 'utf8')) as Har).log.entries).toHaveLength(1);
    expect(fs.readdirSync(dir).filter((name) => name.startsWith(`calls-${count}.har.`))).toEqual(
      [],
    );
  });
});

describe('--record', () => {
  it('leaves an existing file as it was when the command refuses its arguments', async () => {
    const file = fresh();
    writeFileSync(file, 'the last recording');
    vi.stubEnv('RECOGNITION_BASE_URL', server.url);
    vi.stubEnv('RECOGNITION_API_KEY', server.api.testKey);
    await expect(apiCommand.run(['GET', 'no-slash', '--record', file])).rejects.toThrow();
    expect(readFileSync(file, 'utf8')).toBe('the last recording');
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
  });

  it('is bad usage, before anything is sent, when its .partial is a symbolic link', async () => {
    const file = fresh();
    symlinkSync(join(dir, 'elsewhere'), `${file}.partial`);
    vi.stubEnv('RECOGNITION_BASE_URL', server.url);
    vi.stubEnv('RECOGNITION_API_KEY', server.api.testKey);
    const before = server.api.requests.length;
    await expect(apiCommand.run(['GET', '/v1/users', '--record', file])).rejects.toThrow(
      /--record: cannot write .+ is a symbolic link/,
    );
    expect(server.api.requests.length).toBe(before);
  });
});
