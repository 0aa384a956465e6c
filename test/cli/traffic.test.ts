import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@employee-recognition/sdk';
import {
  createRecorder,
  type Har,
  type MockServerOptions,
  startMockServer,
} from '@employee-recognition/sdk/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api as apiCommand } from '../../src/cli/api.js';
import { doctor } from '../../src/cli/doctor.js';
import { traffic } from '../../src/cli/traffic.js';
import { harErrors } from '../testing/recording.js';

let dir: string;
let stdout: string;
const USER_TEAM = '7bb1aaa9-6469-45e6-b7dd-73ec2af21324';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'traffic-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  stdout = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
});

/** A smoke session recorded against a kit server that `change` may alter first; its file. */
async function record(
  name: string,
  options: MockServerOptions = {},
  change: (server: Awaited<ReturnType<typeof startMockServer>>) => void = () => {},
): Promise<string> {
  const server = await startMockServer({ seed: 41, recognitions: 20, ...options });
  change(server);
  const recorder = createRecorder();
  try {
    const client = new Client({
      baseUrl: server.url,
      apiKey: server.api.testKey,
      fetch: recorder.fetch,
      logLevel: 'off',
    });
    const users = await client.users.list({ limit: 100 });
    await client.users.get(users.data[0]!.id);
    await client.recognitions.list({ limit: 10 });
    await client.budgets.list();
    await client.users.get('00000000-0000-4000-8000-000000000000').catch(() => {});
    await recorder.close();
  } finally {
    await server.close();
  }
  const file = join(dir, `${name}.har`);
  writeFileSync(file, JSON.stringify(recorder.har()));
  return file;
}

describe('employee-recognition traffic diff', () => {
  it('exits 0 when two recordings of the same service have the same shapes', async () => {
    const [before, after] = [await record('a'), await record('b')];
    expect(await traffic.run(['diff', before, after])).toBe(0);
    expect(stdout).toBe(
      `The answers of ${after} have the shapes of ${before}'s, as the SDK reads them.\n`,
    );
  });

  it('reports a field dropped (a likely rename beside the new one), retyped and made nullable against the schema, an unknown enumeration value and a deprecation announced, exit 1; an added field is a note', async () => {
    const before = await record('before');
    const after = await record('after', { deprecations: { 'budgets.list': true } }, ({ api }) => {
      const [first] = api.store.users.all();
      for (const user of api.store.users.all()) {
        api.store.users.update(user.id, {
          email: undefined,
          points_balance: String(user.points_balance),
          pronouns: 'they/them',
          created_at: null,
        } as never);
      }
      api.store.users.update(first!.id, { role: 'owner' } as never);
    });
    expect(await traffic.run(['diff', before, after])).toBe(1);
    const lines = stdout.split('\n');
    for (const operation of ['users.list', 'users.get']) {
      const at = lines.indexOf(`${operation}:`);
      expect(at).toBeGreaterThanOrEqual(0);
      const prefix = operation === 'users.list' ? 'data[]' : 'data';
      const block = lines.slice(at + 1, at + 5).map((line) => line.trim().replace(/\s{2,}/, ' '));
      expect(block).toEqual(
        expect.arrayContaining([
          `removed ${prefix}.email: string (new beside it: ${prefix}.pronouns, a likely rename)`,
          `retyped ${prefix}.points_balance: number → string`,
          `nullable ${prefix}.created_at: string → null`,
        ]),
      );
      expect(stdout).toContain(
        `${operation} added ${prefix}.pronouns: string: a field the SDK reads past`,
      );
    }
    // Only users.list had the unknown role in it.
    expect(stdout).toMatch(/^ {2}enum value +data\[\]\.role: owner$/m);
    expect(stdout).toMatch(/^header added +deprecation \(deprecation\) on budgets\.list$/m);
    expect(stdout).not.toMatch(/recognitions\.list/);

    expect(await traffic.run(['diff', before, after, '--json'])).toBe(1);
    const json = JSON.parse(stdout.slice(stdout.indexOf('{\n'))) as {
      same: boolean;
      differences: { operation: string; kind: string; path: string; detail?: string }[];
    };
    expect(json.same).toBe(false);
    expect(json.differences).toContainEqual({
      operation: 'users.list',
      kind: 'enum value',
      path: 'data[].role',
      detail: 'owner',
    });
  });

  it('values the SDK knows, new to the second recording (a role, a null team), are no drift: exit 0', async () => {
    const members = await record('members', {}, ({ api }) => {
      for (const user of api.store.users.all()) {
        api.store.users.update(user.id, { role: 'member', team_id: user.team_id ?? USER_TEAM });
      }
    });
    const mixed = await record('mixed', {}, ({ api }) => {
      const [first, second] = api.store.users.all();
      api.store.users.update(first!.id, { role: 'admin', team_id: null } as never);
      api.store.users.update(second!.id, { role: 'manager' } as never);
    });
    expect(await traffic.run(['diff', members, mixed])).toBe(0);
    expect(stdout).toMatch(/enum value data\[\]\.role: admin: a value the SDK knows/);
    expect(stdout).toMatch(
      /nullable data\[\]\.team_id: string → null or string: the SDK’s schema allows null here/,
    );
  });

  it('a body nested 50,000 deep: a verdict, never a stack trace', async () => {
    const good = await record('shallow');
    const har = JSON.parse(readFileSync(good, 'utf8')) as Har;
    har.log.entries[0]!.response.content.text = `{"data":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    const deep = join(dir, 'deep.har');
    writeFileSync(deep, JSON.stringify(har));
    expect(await traffic.run(['diff', good, deep])).toBe(1);
    stdout = '';
    expect(await traffic.run(['check', deep])).toBe(1);
    expect(stdout).toMatch(/^ok +recording +.*1 cut at the size cap or nested too deep/m);
  });

  it('refuses what is not a HAR file as bad usage', async () => {
    const file = join(dir, 'not.har');
    writeFileSync(file, '{"log":{}}');
    await expect(traffic.run(['diff', file, file])).rejects.toThrow(
      /not\.har is not a HAR 1\.2 document: log\.entries is missing/,
    );
    await expect(traffic.run(['diff', file])).rejects.toThrow(/two files/);
    await expect(traffic.run(['compare', file, file])).rejects.toThrow(/Unknown subcommand/);
  });
});

describe('traffic: a malformed or empty file is bad usage (exit 2), with a message, never a stack trace or exit 0', () => {
  const write = (name: string, content: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  };
  const log = (entries: unknown[]) => ({ log: { version: '1.2', creator: {}, entries } });

  it('an entry without response, or a header name that is a number: entry and field named, counted', async () => {
    const good = await record('good');
    const entries = (JSON.parse(readFileSync(good, 'utf8')) as Har).log.entries;
    const noResponse = write('no-response.har', log([{ ...entries[0], response: undefined }]));
    await expect(traffic.run(['check', noResponse])).rejects.toThrow(
      /entry 0, response is missing.*\(1 problem in 1 entry\)/,
    );
    const numbered = structuredClone(entries);
    (numbered[1]!.response.headers[0] as { name: unknown }).name = 42;
    (numbered[2]!.response.headers[0] as { value: unknown }).value = 7;
    const badHeaders = write('bad-headers.har', log(numbered));
    await expect(traffic.run(['diff', good, badHeaders])).rejects.toThrow(
      /entry 1, response\.headers\[0\]\.name is number.*\(2 problems in 2 entries\)/,
    );
  });

  it('non-JSON and truncated files are told apart', async () => {
    const good = readFileSync(await record('whole'), 'utf8');
    await expect(traffic.run(['check', write('text.har', 'hello')])).rejects.toThrow(/not JSON/);
    await expect(
      traffic.run(['check', write('cut.har', good.slice(0, good.length / 2))]),
    ).rejects.toThrow(/ends early/);
  });

  it('nothing to check or compare: a recording without an answer of the API', async () => {
    const empty = write('empty.har', log([]));
    await expect(traffic.run(['check', empty])).rejects.toThrow(
      /empty\.har holds no answer of the API \(0 entries\): nothing to check/,
    );
    await expect(traffic.run(['diff', await record('old'), empty])).rejects.toThrow(
      /empty\.har holds no answer of the API: nothing to compare/,
    );
  });

  it('a partial new recording: the operations it lacks named as drift, exit 1', async () => {
    const old = await record('full');
    const har = JSON.parse(readFileSync(old, 'utf8')) as Har;
    har.log.entries = har.log.entries.slice(0, 1);
    const partial = write('partial.har', har);
    expect(await traffic.run(['diff', old, partial])).toBe(1);
    expect(stdout).toContain(
      `Not in ${partial}: users.get, recognitions.list, budgets.list (recorded in ${old}: the new recording does not cover them)`,
    );
  });
});

describe('employee-recognition traffic check', () => {
  it("passes a recording of the kit's server, in the doctor's report", async () => {
    const file = await record('clean');
    expect(await traffic.run(['check', file])).toBe(0);
    expect(stdout).toMatch(/^employee-recognition doctor: SDK /);
    expect(stdout).toMatch(/^ok +records +every record of 4 answers match the SDK's types$/m);
    expect(stdout).toMatch(
      /^ok +envelope +the SDK reads every answer; lists page on by cursor paging$/m,
    );
    expect(stdout).toMatch(/^ok +headers +x-request-id and rate-limit headers \(x-ratelimit\)/m);
    expect(stdout).toMatch(/^ok +errors +1 error answer in the SDK's error body/m);
    expect(stdout).toMatch(/^No check failed\.$/m);
  });

  it('fails a recording whose records differ, naming operation, field and problem; --json and --markdown', async () => {
    const file = await record('drifted', { deprecations: { 'budgets.list': true } }, ({ api }) => {
      for (const user of api.store.users.all()) {
        api.store.users.update(user.id, { email: undefined, pronouns: 'they/them' } as never);
      }
    });
    expect(await traffic.run(['check', file])).toBe(1);
    expect(stdout).toMatch(
      /^fail +records +2 fields differ from the SDK's types: users\.list data\.\*\.email is missing/m,
    );
    expect(stdout).toMatch(/^warn +deprecations +budgets\.list deprecated/m);

    stdout = '';
    expect(await traffic.run(['check', file, '--json'])).toBe(1);
    const report = JSON.parse(stdout) as {
      ok: boolean;
      checks: {
        id: string;
        status: string;
        details: { newFields?: { operation: string; path: string }[] };
      }[];
    };
    expect(report.ok).toBe(false);
    const records = report.checks.find((check) => check.id === 'records')!;
    expect(records.details.newFields).toContainEqual(
      expect.objectContaining({ operation: 'users.get', path: 'data.pronouns' }),
    );

    stdout = '';
    expect(await traffic.run(['check', file, '--markdown'])).toBe(1);
    expect(stdout).toMatch(/^\| `records` \| fail \|/m);
    // A report holds names and types, never a recorded value.
    expect(stdout).not.toMatch(/@redacted\.invalid|Person\d/);
  });
});

describe('traffic check: whether the file can be shared', () => {
  it('passes a redacted recording, fails on personal data and on a secret, naming entry and field, never showing either', async () => {
    const file = await record('shareable');
    expect(await traffic.run(['check', file])).toBe(0);
    expect(stdout).toMatch(/^ok +privacy +nothing the recording’s redaction would remove/m);

    const har = JSON.parse(readFileSync(file, 'utf8')) as Har;
    const users = har.log.entries[0]!.response.content;
    const body = JSON.parse(users.text!);
    body.data[0].email = 'ada.lovelace@acme.example';
    users.text = JSON.stringify(body);
    const personal = join(dir, 'personal.har');
    writeFileSync(personal, JSON.stringify(har));
    stdout = '';
    expect(await traffic.run(['check', personal])).toBe(1);
    expect(stdout).toMatch(
      /^fail +privacy +1 value the recording's redaction removes: entry 0 response\.content\.text/m,
    );

    body.data[1].note = 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0';
    users.text = JSON.stringify(body);
    const secret = join(dir, 'secret.har');
    writeFileSync(secret, JSON.stringify(har));
    stdout = '';
    expect(await traffic.run(['check', secret, '--markdown'])).toBe(1);
    expect(stdout).toMatch(/^\| `privacy` \| fail \| 1 value the recording's redaction removes/m);
    expect(stdout).not.toMatch(/whsec_|ada\.lovelace/);
  });
});

describe('traffic check in the standard variants the SDK reads', () => {
  it('passes problem+json errors, Link paging and the IETF RateLimit headers; names a renamed field', async () => {
    const file = await record('dialect', {
      dialect: {
        errors: 'problem',
        pagination: 'link',
        rateLimitHeaders: 'ratelimit',
        renamedFields: { users: { name: 'display_name' } },
      },
    });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('display_name');
    expect(text).not.toMatch(/"display_name":"(?!Person\d+ Person\d+")/);
    expect(await traffic.run(['check', file])).toBe(1);
    expect(stdout).toMatch(
      /^ok +errors +1 error answer in the SDK's error body or RFC 9457 problem\+json$/m,
    );
    expect(stdout).toMatch(/^ok +envelope /m);
    expect(stdout).toMatch(/^ok +headers +x-request-id and rate-limit headers \(ratelimit\)/m);
    expect(stdout).toMatch(
      /^fail +records +.*users\.list data\.\*\.name is missing, but the SDK assumes a string \(likely renamed to display_name\)/m,
    );
    expect(stdout).toMatch(/^ok +envelope +.*Link paging \(RFC 8288\)/m);
  });
});

describe('--record <file> of api and doctor', () => {
  it('writes the calls of a run as a redacted HAR that traffic check reads', async () => {
    const server = await startMockServer({ seed: 41 });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    vi.stubEnv('RECOGNITION_BASE_URL', server.url);
    vi.stubEnv('RECOGNITION_API_KEY', server.api.testKey);
    try {
      const apiFile = join(dir, 'api.har');
      expect(
        await apiCommand.run(['GET', '/v1/users', '--query', 'limit=3', '--record', apiFile]),
      ).toBe(0);
      const apiHar = JSON.parse(readFileSync(apiFile, 'utf8')) as Har;
      expect(harErrors(apiHar)).toEqual([]);
      expect(apiHar.log.entries.map((entry) => entry.request.url)).toEqual([
        `${server.url}/v1/users?limit=3`,
      ]);
      const printed = JSON.parse(stdout) as { data: { email: string }[] };
      expect(readFileSync(apiFile, 'utf8')).not.toContain(printed.data[0]!.email);

      const doctorFile = join(dir, 'doctor.har');
      stdout = '';
      expect(await doctor.run(['--record', doctorFile, '--json'])).toBe(0);
      const text = readFileSync(doctorFile, 'utf8');
      const doctorHar = JSON.parse(text) as Har;
      expect(harErrors(doctorHar)).toEqual([]);
      expect(doctorHar.log.entries.length).toBe(server.api.requests.length - 1);
      expect(text).not.toContain(server.api.testKey);
      stdout = '';
      expect(await traffic.run(['check', doctorFile])).toBe(0);

      await expect(
        apiCommand.run(['GET', '/v1/users', '--record', join(dir, 'no/such/dir.har')]),
      ).rejects.toThrow(/--record: cannot write/);
    } finally {
      await server.close();
    }
  });
});
