/**
 * `employee-recognition traffic` on files written in code: each usage error in its words, a
 * file it cannot read or that is no HAR named with what is wrong and how much, what the reader
 * says of a `.partial` on stderr, and each line of `traffic diff`'s report (the operations a new
 * recording lacks, the differences and their count, the notes and theirs), printed safely.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recorderFor, traffic } from '../../src/cli/traffic.js';
import { type Exchange, har, page, USER } from '../doctor/har.js';
import { captureOutput } from './output.js';

let dir: string;
let output: ReturnType<typeof captureOutput>;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'traffic-usage-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  output = captureOutput();
});

/** A file of `content` (a HAR of exchanges, or text as it is); its path. */
function file(name: string, content: Exchange[] | string): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(har(...content)));
  return path;
}
const users = (...records: unknown[]): Exchange => ({ path: '/v1/users', body: page(records) });
const user = (record: unknown): Exchange => ({
  path: `/v1/users/${USER.id}`,
  body: { data: record },
});

describe('traffic: usage', () => {
  it.each([
    [['check', 'a.har', '--json', '--markdown'], 'Choose one of --json and --markdown.'],
    [['check'], 'check takes one file: <file.har>.'],
    [['check', 'a.har', 'b.har'], 'check takes one file: <file.har>.'],
    [[], 'Give a subcommand: check or diff.'],
    [['compare'], 'Unknown subcommand "compare": use check or diff.'],
    [['diff', 'a.har', 'b.har', '--markdown'], '--markdown goes with check.'],
    [['diff', 'a.har', 'b.har', 'c.har'], 'diff takes two files: <old.har> <new.har>.'],
  ])('%j: %s', async (args, message) => {
    await expect(traffic.run(args)).rejects.toThrow(
      expect.objectContaining({ name: 'UsageError', message }),
    );
  });

  it('--help prints the usage and runs nothing', async () => {
    expect(await traffic.run(['--help'])).toBe(0);
    expect(output.stdout()).toMatch(
      /^Usage: employee-recognition traffic check <file\.har> \[--json \| --markdown\]\n/,
    );
  });

  it('without --record there is no recorder', async () => {
    await expect(recorderFor(undefined)).resolves.toBeUndefined();
  });

  it('a file it cannot read is named with the reason', async () => {
    const missing = join(dir, 'missing.har');
    await expect(traffic.run(['check', missing])).rejects.toThrow(
      new RegExp(`^Cannot read ${missing.replace(/[.\\/]/g, '\\$&')}: .*ENOENT`),
    );
  });

  it('a document that is no HAR is named with its problem; entries at fault counted, one or more', async () => {
    const notHar = file('list.har', '[]');
    await expect(traffic.run(['check', notHar])).rejects.toThrow(
      expect.objectContaining({
        message: `${notHar} is not a HAR 1.2 document: the document is a list, not an object.`,
      }),
    );
    const one = file('one.har', JSON.stringify({ log: { entries: [{}] } }));
    await expect(traffic.run(['check', one])).rejects.toThrow(
      `${one} is not a HAR 1.2 document: entry 0, request is missing; entry 0, response is missing. (2 problems in 1 entry)`,
    );
    const single = file('single.har', JSON.stringify({ log: { entries: [{ response: {} }] } }));
    await expect(traffic.run(['check', single])).rejects.toThrow(/\(1 problem in 1 entry\)$/);
  });

  it('a recording with only other requests has nothing to check, its entry counted', async () => {
    const token = file('token.har', [{ method: 'POST', path: '/oauth/token', body: {} }]);
    await expect(traffic.run(['check', token])).rejects.toThrow(
      `${token} holds no answer of the API (1 entry): nothing to check.`,
    );
  });

  it('what the reader says of a .partial goes to stderr', async () => {
    const [entry] = har(users(USER)).log.entries;
    const partial = file('calls.har.partial', `${JSON.stringify(entry)}\n{"startedDateTime":`);
    expect(await traffic.run(['check', partial])).toBe(0);
    expect(output.stderr()).toBe(
      `${partial} is a recording's .partial, left by a process that did not finish: its entries are read as they were streamed, without the last pass over the whole session (a name first seen in a later entry may be in clear in an earlier one).\nIts last line is cut short (the process stopped while writing it) and is left out.\n`,
    );
  });
});

describe('traffic diff: the report', () => {
  it('one operation missing is "it"; the differences counted with it', async () => {
    const before = file('before.har', [users(USER), user(USER)]);
    const after = file('after.har', [users({ ...USER, role: 'owner' })]);
    expect(await traffic.run(['diff', before, after])).toBe(1);
    expect(output.stdout()).toBe(
      [
        `Not in ${after}: users.get (recorded in ${before}: the new recording does not cover it)`,
        'users.list:',
        '  enum value     data[].role: owner',
        '',
        `2 differences between ${before} and ${after}.`,
        '',
      ].join('\n'),
    );
  });

  it('one difference in the singular; a header the SDK does not read a note, counted', async () => {
    const before = file('one-before.har', [users(USER)]);
    const after = file('one-after.har', [
      { ...users({ ...USER, role: 'owner' }), headers: { 'x-trace': 't' } },
    ]);
    expect(await traffic.run(['diff', before, after])).toBe(1);
    expect(output.stdout()).toMatch(
      /^ {2}header added x-trace on 1 operation: a header the SDK does not read$/m,
    );
    expect(output.stdout()).toMatch(
      new RegExp(`^1 difference between ${before.replace(/[.\\/]/g, '\\$&')}`, 'm'),
    );
  });

  it('no drift with notes: counted, the rate-limit headers read all the same', async () => {
    const before = file('notes-before.har', [users(USER), user(USER)]);
    const structured = {
      'x-ratelimit-limit': undefined,
      'x-ratelimit-remaining': undefined,
      'x-ratelimit-reset': undefined,
      ratelimit: '"default";r=99;t=60',
      'ratelimit-policy': '"default";q=100;w=60',
    };
    const after = file('notes-after.har', [
      { ...users(USER), headers: structured },
      { ...user(USER), headers: structured },
    ]);
    expect(await traffic.run(['diff', before, after])).toBe(0);
    expect(output.stdout()).toMatch(
      /^ {2}header added ratelimit on 2 operations: rate-limit headers, which the SDK still reads$/m,
    );
    expect(output.stdout()).toMatch(
      new RegExp(
        `^No drift between ${before.replace(/[.\\/]/g, '\\$&')} and .*: the SDK reads the answers of both \\(5 notes\\)\\.$`,
        'm',
      ),
    );
  });

  it('a removed field beside a new one of its type is a likely rename, its control characters escaped', async () => {
    const { email: _email, ...withoutEmail } = USER;
    const before = file('rename-before.har', [users(USER)]);
    const after = file('rename-after.har', [users({ ...withoutEmail, 'x\u001b[31m': 'a' })]);
    expect(await traffic.run(['diff', before, after])).toBe(1);
    expect(output.stdout()).not.toContain('\u001b');
    expect(output.stdout().split('\n').slice(0, 4)).toEqual([
      'users.list:',
      '  removed        data[].email: string (new beside it: data[].x\\u001b[31m, a likely rename)',
      'Notes (the SDK reads these all the same):',
      '  users.list added data[].x\\u001b[31m: string: a field the SDK reads past (it keeps it on the record)',
    ]);
  });

  it('header drift in its own lines, counted with the fields; other header changes as notes', async () => {
    const before = file('ids-before.har', [users(USER), user(USER)]);
    const after = file('ids-after.har', [
      { ...users(USER), headers: { 'x-request-id': undefined, 'x-trace': 't' } },
      { ...user({ ...USER, role: 'owner' }), headers: { 'x-request-id': undefined } },
    ]);
    expect(await traffic.run(['diff', before, after])).toBe(1);
    expect(output.stdout()).toBe(
      [
        'users.get:',
        '  enum value     data.role: owner',
        'header removed   x-request-id (request id) on users.list, users.get',
        'Notes (the SDK reads these all the same):',
        '  header added x-trace on 1 operation: a header the SDK does not read',
        '',
        `2 differences between ${before} and ${after}.`,
        '',
      ].join('\n'),
    );
  });

  it('only a removed field is paired with a new one, and only with an added field of its type', async () => {
    const { email: _email, ...withoutEmail } = USER;
    const before = file('pairs-before.har', [users({ ...USER, nick: 'a' }), user(USER)]);
    const after = file('pairs-after.har', [
      users({ ...withoutEmail, role: 'string', count: 1 }),
      user({ ...USER, role: 'string', alias: 'b' }),
    ]);
    expect(await traffic.run(['diff', before, after])).toBe(1);
    expect(output.stdout()).toMatch(/^ {2}removed +data\[\]\.email: string$/m);
    expect(output.stdout()).toMatch(/^ {2}enum value +data\.role: string$/m);
    expect(output.stdout()).not.toContain('a likely rename');
  });

  it('--json prints the diff as it is', async () => {
    const before = file('json-before.har', [users(USER)]);
    expect(await traffic.run(['diff', before, before, '--json'])).toBe(0);
    expect(JSON.parse(output.stdout())).toEqual({
      same: true,
      differences: [],
      coverage: { missing: [], added: [] },
      notes: [],
      headers: [],
    });
  });
});
