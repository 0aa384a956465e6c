import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@employee-recognition/sdk';
import { createRecorder, type Har, startMockServer } from '@employee-recognition/sdk/testing';
import { describe, expect, it, vi } from 'vitest';
import { harErrors, recordSession, runSession, SESSION_SERVER, targetOf } from './recording.js';

describe('createRecorder', () => {
  it('records a session of every operation, OAuth and a webhook create as valid HAR 1.2, with no secret or personal value in it', async () => {
    const session = await recordSession();
    expect(harErrors(session.har)).toEqual([]);
    const text = JSON.stringify(session.har);
    const operations = new Set(
      session.har.log.entries.map(
        (entry) =>
          `${entry.request.method} ${new URL(entry.request.url).pathname.replace(/[0-9a-f-]{36}/, '{id}')}`,
      ),
    );
    expect(operations.size).toBe(20); // 18 operations, the OAuth metadata and the token request
    expect(session.secrets.length).toBeGreaterThanOrEqual(4);
    expect(session.secrets.some((secret) => secret.startsWith('whsec_'))).toBe(true);
    for (const secret of session.secrets) expect(text).not.toContain(secret);
    for (const email of session.emails)
      expect(text.toLowerCase()).not.toContain(email.toLowerCase());
    for (const name of session.names) {
      expect(text).not.toContain(name);
      for (const part of name.split(' ')) {
        expect(text).not.toMatch(new RegExp(`(?<![\\p{L}\\p{N}])${part}(?![\\p{L}\\p{N}])`, 'iu'));
      }
    }
    expect(text).toContain('REDACTED');
    // What is not secret stays: the token endpoint in the authorization server's metadata.
    const metadata = session.har.log.entries.find((entry) =>
      entry.request.url.includes('/.well-known/'),
    )!;
    expect(JSON.parse(metadata.response.content.text!).token_endpoint).toBe(
      `${session.url}/oauth/token`,
    );
  });

  it('pseudonymises consistently: the same name is the same pseudonym throughout, ids stay', async () => {
    const { har } = await recordSession();
    const bodies = har.log.entries.map((entry) =>
      JSON.parse(entry.response.content.text || 'null'),
    );
    const users = bodies[0].data as { id: string; name: string; email: string }[];
    expect(users).toHaveLength(40);
    expect(new Set(users.map((user) => user.name)).size).toBe(40);
    expect(users[0]!.email).toMatch(/^person\d+@redacted\.invalid$/);
    // users.get of the second user: same id, same pseudonym as in the list.
    expect(bodies[1].data).toMatchObject({
      id: users[1]!.id,
      name: users[1]!.name,
      email: users[1]!.email,
    });
    // The recognitions' sender and recipient: pseudonyms of the users list.
    const names = new Set(users.map((user) => user.name));
    for (const recognition of bodies[2].data) {
      expect(names).toContain(recognition.sender.name);
      expect(names).toContain(recognition.recipient.name);
    }
    // Free text: the recipient's first name and email replaced by the same pseudonyms.
    const create = har.log.entries[4]!.request.postData!;
    const first = users[1]!.name.split(' ')[0]!;
    expect(JSON.parse(create.text!).message).toBe(
      `Thanks for the review, ${first}! ${users[1]!.email} says hi.`,
    );
    expect(create._redacted).toEqual(['message']);
  });

  it('changes nothing the app sees: the same results and the same requests as without it', async () => {
    const plain = await startMockServer(SESSION_SERVER);
    try {
      const expected = await runSession(targetOf(plain));
      const recorded = await recordSession();
      // The same seed, so the same records; the webhook's secret is random in each.
      const plainJson = (value: unknown) =>
        JSON.parse(JSON.stringify(value).replace(/whsec_[A-Za-z0-9+/=]+/g, 'whsec_'));
      expect(plainJson(recorded.results)).toEqual(plainJson(expected));
      expect(recorded.requests).toBe(plain.api.requests.length);
    } finally {
      await plain.close();
    }
  });

  it('cuts a body at maxBodyBytes and marks the entry, while the app gets the whole answer', async () => {
    const server = await startMockServer({ seed: 41 });
    const recorder = createRecorder({ maxBodyBytes: 200 });
    try {
      const client = new Client({
        apiKey: server.api.testKey,
        baseUrl: server.url,
        fetch: recorder.fetch,
      });
      const page = await client.users.list({ limit: 40 });
      expect(page.data).toHaveLength(40);
      await recorder.close();
      const { content } = recorder.har().log.entries[0]!.response;
      expect(content.comment).toMatch(/^truncated: 200 of \d+ bytes kept$/);
      expect(content.size).toBeGreaterThan(200);
      expect(Buffer.byteLength(content.text!)).toBeLessThanOrEqual(200 * 3);
      // Cut JSON cannot be parsed: names and emails are still found and replaced in its text.
      expect(content.text).not.toContain(page.data[0]!.email);
      expect(content.text).not.toContain(page.data[0]!.name);
    } finally {
      await server.close();
    }
  });

  it('streams entries to the file as they complete, and closes it as a HAR', async () => {
    const server = await startMockServer({ seed: 41 });
    const file = join(tmpdir(), `recording-${process.pid}-${Date.now()}.har`);
    const recorder = createRecorder({ file });
    try {
      const client = new Client({
        apiKey: server.api.testKey,
        baseUrl: server.url,
        fetch: recorder.fetch,
      });
      await client.users.list({ limit: 5 });
      await client.teams.list();
      expect(() => recorder.har()).toThrow(/streams to/);
      await vi.waitFor(async () => {
        const lines = (await readFile(`${file}.partial`, 'utf8')).trim().split('\n');
        expect(lines).toHaveLength(2);
      });
      await recorder.close();
      const har = JSON.parse(await readFile(file, 'utf8')) as Har;
      expect(harErrors(har)).toEqual([]);
      expect(har.log.entries.map((entry) => new URL(entry.request.url).pathname)).toEqual([
        '/v1/users',
        '/v1/teams',
      ]);
      expect(JSON.stringify(har)).not.toContain(server.api.testKey);
      await expect(readFile(`${file}.partial`)).rejects.toThrow(/ENOENT/);
    } finally {
      await server.close();
      await rm(file, { force: true });
    }
  });

  it('records a dropped connection as status 0 and hands the app the same error', async () => {
    const server = await startMockServer({ seed: 41 });
    const recorder = createRecorder({ urls: [server.url] });
    try {
      server.api.faults.dropNext('GET /v1/teams');
      const error = await recorder.fetch(`${server.url}/v1/teams`).catch((error: unknown) => error);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as TypeError).message).toBe('fetch failed');
      // Outside `urls`: passed through, not recorded.
      await recorder.fetch(`${server.url.replace('127.0.0.1', 'localhost')}/openapi.json`);
      await recorder.close();
      const entries = recorder.har().log.entries;
      expect(entries).toHaveLength(1);
      expect(entries[0]!.response).toMatchObject({
        status: 0,
        comment: 'No answer: the connection failed.',
      });
      expect(harErrors(recorder.har())).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('costs an entry, never the call, when recording it fails, and says so in the file', async () => {
    const server = await startMockServer({ seed: 41 });
    const recorder = createRecorder({
      redact: {
        entry: (entry) => {
          if (entry.request.url.includes('/v1/teams')) throw new Error('a hook of the app failed');
          return entry;
        },
      },
    });
    try {
      const client = new Client({
        apiKey: server.api.testKey,
        baseUrl: server.url,
        fetch: recorder.fetch,
      });
      expect((await client.teams.list()).data.length).toBeGreaterThan(0);
      await client.users.list({ limit: 1 });
      await recorder.close();
      const { log } = recorder.har();
      expect(log.entries.map((entry) => new URL(entry.request.url).pathname)).toEqual([
        '/v1/users',
      ]);
      expect(log.comment).toBe('1 entry could not be recorded');
      expect(harErrors(recorder.har())).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('the order of a recording', () => {
  // The kit's server behind a fetch that answers the requests of each batch in reverse order.
  async function reversed(server: Awaited<ReturnType<typeof startMockServer>>, file?: string) {
    let batch: (() => void)[] = [];
    const slow: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      await new Promise<void>((resolve) => {
        batch.push(resolve);
        if (batch.length === 3) {
          const waiting = batch.reverse();
          batch = [];
          for (const [index, release] of waiting.entries()) setTimeout(release, index * 20);
        }
      });
      return response;
    };
    const recorder = createRecorder({ fetch: slow, file });
    const users = server.api.store.users.all().slice(0, 3);
    // Sent at once, as concurrent calls are: the client's own pacing is not what is tested.
    await Promise.all(
      users.map((user) =>
        recorder
          .fetch(`${server.url}/v1/users/${user.id}`, {
            headers: { authorization: `Bearer ${server.api.testKey}` },
          })
          .then((response) => response.text()),
      ),
    );
    return { recorder, users };
  }

  it('lists entries in send order and numbers pseudonyms by first appearance in it, whatever order answers complete in', async () => {
    const server = await startMockServer({ seed: 41 });
    try {
      const { recorder, users } = await reversed(server);
      const entries = recorder.har().log.entries;
      expect(entries.map((entry) => entry.request.url)).toEqual(
        users.map((user) => `${server.url}/v1/users/${user.id}`),
      );
      expect(entries.map((entry) => entry._sequence)).toEqual([1, 2, 3]);
      const emails = entries.map(
        (entry) =>
          (JSON.parse(entry.response.content.text!) as { data: { email: string } }).data.email,
      );
      expect(emails).toEqual([
        'person1@redacted.invalid',
        'person2@redacted.invalid',
        'person3@redacted.invalid',
      ]);
      const names = entries.map(
        (entry) =>
          (JSON.parse(entry.response.content.text!) as { data: { name: string } }).data.name,
      );
      expect(names[0]).toBe('Person1 Person2');
    } finally {
      await server.close();
    }
  });

  it('writes a file in send order too', async () => {
    const server = await startMockServer({ seed: 41 });
    const file = join(tmpdir(), `ordered-${process.pid}-${Date.now()}.har`);
    try {
      const { recorder, users } = await reversed(server, file);
      await recorder.close();
      const har = JSON.parse(await readFile(file, 'utf8')) as Har;
      expect(har.log.entries.map((entry) => entry.request.url)).toEqual(
        users.map((user) => `${server.url}/v1/users/${user.id}`),
      );
      expect(JSON.parse(har.log.entries[0]!.response.content.text!).data.email).toBe(
        'person1@redacted.invalid',
      );
    } finally {
      await server.close();
      await rm(file, { force: true });
    }
  });
});
