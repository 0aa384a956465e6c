/**
 * One exit code per kind of mistake: every command of the tool's own table, walked flag by flag
 * (every flag it takes, as its --help lists them) through the mistakes a user makes, exits 2 with
 * a message naming the mistake, the command's usage line and where its help is, having sent
 * nothing: neither through fetch nor by any other way to a socket. A command added to the table
 * is walked too; so is its dialect: every command that calls the service takes the same
 * connection flags.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockServer, startMockServer } from '@employee-recognition/sdk/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONNECTION } from '../../src/cli/command.js';
import { COMMANDS, main } from '../../src/cli/index.js';
import { ENV_API_KEY, ENV_BASE_URL } from '../../src/contract.js';
import { captureOutput } from './output.js';

let output: ReturnType<typeof captureOutput>;
let fetch: ReturnType<typeof vi.fn>;
let dir: string;
// Where RECOGNITION_BASE_URL points: a listener that counts every connection made to it, so a
// request sent by any means (not only the global fetch) is seen.
let listener: Server;
let connections = 0;
let watchedUrl: string;

beforeAll(async () => {
  listener = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  watchedUrl = `http://127.0.0.1:${(listener.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => listener.close(resolve));
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cli-usage-'));
  output = captureOutput();
  fetch = vi.fn(() => Promise.reject(new Error('nothing may be sent')));
  vi.stubGlobal('fetch', fetch);
  vi.stubEnv(ENV_API_KEY, `rk_test_${'a'.repeat(32)}`);
  vi.stubEnv(ENV_BASE_URL, watchedUrl);
  connections = 0;
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

/** An option as a command's --help lists it. */
interface Flag {
  name: string;
  /** The value's placeholder, such as `url`; undefined for a switch. */
  value: string | undefined;
  repeatable: boolean;
}

/** The options of a command's --help, `-h, --help` left out. */
function flags(help: string): Flag[] {
  const options = help.slice(help.indexOf('\nOptions:\n'));
  const found: Flag[] = [];
  const pattern = /^ {2}(?:-\w, )?--([a-z][\w-]*)(?:[ =]<([^>]+)>)?(.*(?:\n {20,}.*)*)/gm;
  for (const [, name, value, text] of options.matchAll(pattern)) {
    if (name === 'help') continue;
    found.push({ name: name!, value, repeatable: /repeat/i.test(text!) });
  }
  return found;
}

/** Runs the tool and checks the usage error: exit 2, the message, the usage line, nothing sent. */
async function expectUsageError(args: string[], message: string | RegExp) {
  output.clear();
  const code = await main(args);
  const [stdout, stderr] = [output.stdout(), output.stderr()];
  const [name] = args;
  const command = COMMANDS.find((each) => each.name === name)!;
  const [first, usage, pointer, ...rest] = stderr.split('\n');
  expect({ args, code, stdout }).toEqual({ args, code: 2, stdout: '' });
  expect(first!.startsWith(`employee-recognition ${name}: `)).toBe(true);
  expect(first!.slice(`employee-recognition ${name}: `.length)).toMatch(message);
  expect(usage).toBe(command.help.split('\n')[0]);
  expect(usage).toMatch(new RegExp(`^Usage: employee-recognition ${name}\\b`));
  expect(pointer).toBe(`See employee-recognition ${name} --help.`);
  expect(rest).toEqual(['']);
  expect(fetch).not.toHaveBeenCalled();
  // A connection would have been accepted by now: the command has returned.
  await new Promise((resolve) => setImmediate(resolve));
  expect(connections).toBe(0);
}

describe.each(COMMANDS.map((command) => [command.name, command] as const))(
  '%s: each flag through the usual mistakes',
  (name, command) => {
    const all = flags(command.help);

    it('lists every flag it takes in --help, and no other (what this walk reads)', () => {
      expect(all.map((flag) => flag.name).sort()).toEqual(Object.keys(command.options).sort());
      for (const flag of all) {
        const option = command.options[flag.name]!;
        expect({ flag: flag.name, value: flag.value !== undefined }).toEqual({
          flag: flag.name,
          value: option.type === 'string',
        });
        expect({ flag: flag.name, repeatable: flag.repeatable }).toEqual({
          flag: flag.name,
          repeatable: option.multiple === true,
        });
      }
    });

    it('names an unknown flag', async () => {
      await expectUsageError([name, '--no-such-flag'], "Unknown option '--no-such-flag'.");
      await expectUsageError([name, '-Z'], "Unknown option '-Z'.");
    });

    it.each(all.filter((flag) => flag.value !== undefined).map((flag) => [flag.name, flag]))(
      'names a missing value of --%s, at the end, before another flag or empty',
      async (flag) => {
        const expected = `--${flag} needs a value.`;
        await expectUsageError([name, `--${flag}`], expected);
        await expectUsageError([name, `--${flag}`, '--help'], expected);
        await expectUsageError([name, `--${flag}=`], expected);
      },
    );

    it.each(
      all
        .filter((flag) => flag.value !== undefined && !flag.repeatable)
        .map((flag) => [flag.name, flag]),
    )('names --%s given twice', async (flag) => {
      await expectUsageError(
        [name, `--${flag}`, watchedUrl, `--${flag}`, watchedUrl],
        `--${flag} is given twice: give it once.`,
      );
    });

    it.each(all.filter((flag) => flag.value === undefined).map((flag) => [flag.name, flag]))(
      'names a value given to the switch --%s',
      async (flag) => {
        await expectUsageError([name, `--${flag}=yes`], `--${flag} takes no value.`);
      },
    );

    it.each(all.filter((flag) => flag.value === 'url').map((flag) => [flag.name, flag]))(
      'names a URL without its scheme given to --%s, and one of another scheme',
      async (flag) => {
        for (const [value, suggested] of [
          ['new4.example/hooks', 'https://new4.example/hooks'],
          ['localhost:4010', 'https://localhost:4010'],
          ['//cdn.example/x', 'https://cdn.example/x'],
        ] as const) {
          await expectUsageError(
            [name, `--${flag}`, value],
            `--${flag} needs an absolute URL, with its scheme: such as ${suggested}, not "${value}".`,
          );
        }
        await expectUsageError(
          [name, `--${flag}`, 'ftp://files.example/x'],
          `--${flag} must be an http or https URL, not ftp:.`,
        );
      },
    );
  },
);

describe('one dialect', () => {
  // What each command that calls the service is run with to make one call: a command that
  // connects must have its line here.
  const ONE_CALL: Record<string, string[]> = {
    api: ['GET', '/v1/users', '--query', 'limit=1'],
    export: ['recognitions', '--to', '2026-01-01'],
    webhooks: ['list'],
    doctor: ['--json'],
  };
  let mock: MockServer;

  beforeAll(async () => {
    mock = await startMockServer({ recognitions: 5 });
  });
  afterAll(async () => {
    await mock.close();
  });

  it.each(COMMANDS.map((command) => [command.name, command] as const))(
    '%s takes the connection flags, and their help line, from the one table exactly when it calls the service',
    (_name, command) => {
      for (const [flag, option] of Object.entries(CONNECTION.options)) {
        expect(command.options[flag]).toBe(command.connects ? option : undefined);
      }
      expect(command.help.split('\n').includes(CONNECTION.help)).toBe(command.connects);
      expect(Object.hasOwn(ONE_CALL, command.name)).toBe(command.connects);
    },
  );

  it.each(COMMANDS.filter((command) => command.connects).map((command) => [command.name]))(
    '%s calls the service of --base-url, not the one of RECOGNITION_BASE_URL',
    async (name) => {
      vi.unstubAllGlobals();
      vi.stubEnv(ENV_API_KEY, mock.api.testKey);
      expect(await main([name, ...ONE_CALL[name]!, '--base-url', mock.url])).toBe(0);
      expect(connections).toBe(0);
      expect(mock.api.requests.length).toBeGreaterThan(0);
    },
  );
});

describe('help', () => {
  it.each(COMMANDS.map((command) => [command.name, command.help] as const))(
    '%s --help keeps its layout: indented blocks stay indented, option text in one column',
    (_name, help) => {
      for (const block of help.split('\n\n')) {
        const lines = block.split('\n');
        if (/^\s/.test(lines[0]!)) {
          expect(lines.filter((line) => !/^\s/.test(line))).toEqual([]);
        }
      }
      const options = help.slice(help.indexOf('\nOptions:\n') + '\nOptions:\n'.length);
      for (const line of options.split('\n\n')[0]!.split('\n')) {
        // A flag and its text from column 25 (two spaces after a longer flag), or text
        // continued at column 25.
        expect(line).toMatch(
          /^(?: {2}(?:-\w, )?--\S+(?: <[^>]+>)?(?: {2,}(?<=^.{25})| {2}(?<=^.{26,}))| {25})\S/,
        );
      }
    },
  );
});

describe('conflicting and misplaced flags, and arguments the SDK refuses', () => {
  it('webhooks: --events with --receiver, and a flag of another subcommand', async () => {
    await expectUsageError(
      ['webhooks', 'sync', '--url', 'https://a.example/h', '--events', '*', '--receiver', 'r.js'],
      '--events and --receiver cannot be given together: give one of them.',
    );
    await expectUsageError(
      ['webhooks', 'sync', '--url', 'https://a.example/h'],
      'Give the events with --events, or a receiver module with --receiver.',
    );
    await expectUsageError(
      ['webhooks', 'list', '--url', 'https://a.example/h'],
      '--url goes with webhooks sync or webhooks rotate, not webhooks list.',
    );
    await expectUsageError(
      ['webhooks', 'sync', '--json', '--url', 'https://a.example/h', '--events', '*'],
      '--json goes with webhooks list, not webhooks sync.',
    );
  });

  it('export: --format against the --out extension, and a range the SDK refuses, named by its flag', async () => {
    await expectUsageError(
      ['export', 'recognitions', '--format', 'csv', '--out', 'out.jsonl'],
      '--format csv and --out out.jsonl disagree: change one of them.',
    );
    await expectUsageError(
      ['export', 'recognitions', '--from', 'last tuesday', '--out', join(dir, 'out.csv')],
      /^--from: must be a Date or an ISO 8601 date/,
    );
    // No file was opened.
    expect(existsSync(join(dir, 'out.csv'))).toBe(false);
    expect(output.stderr()).not.toContain('request id');
  });

  it('api: a GET with a body, and a path the client refuses, named in flags', async () => {
    await expectUsageError(
      ['api', 'GET', '/v1/users', '--data', '{}'],
      'A GET has no body: pass its parameters with --query.',
    );
    // The client's message, with the option it names written as the flag that gives it.
    for (const path of ['users', '/users', '/v1/../admin', 'https://elsewhere.example/v1/users']) {
      await expectUsageError(
        ['api', 'GET', path],
        /^A raw request's path must start with \/v1\/ .*; pass the query as --query\.$/,
      );
    }
  });

  it('an unknown command shows the tool’s usage line', async () => {
    expect(await main(['listen'])).toBe(2);
    expect(output.stderr()).toBe(
      'employee-recognition: Unknown command "listen".\nUsage: employee-recognition <command> [options]\nSee employee-recognition --help.\n',
    );
  });
});
