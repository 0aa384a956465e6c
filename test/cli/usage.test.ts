/**
 * One exit code per kind of mistake: every command of the tool's own table, walked flag by flag
 * (as its --help lists them) through the mistakes a user makes, exits 2 with a message naming the
 * mistake, the command's usage line and where its help is, having sent nothing. A command added to
 * the table is walked too.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COMMANDS, main } from '../../src/cli/index.js';
import { ENV_API_KEY, ENV_BASE_URL } from '../../src/contract.js';
import { captureOutput } from './output.js';

let output: ReturnType<typeof captureOutput>;
let fetch: ReturnType<typeof vi.fn>;
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cli-usage-'));
  output = captureOutput();
  fetch = vi.fn(() => Promise.reject(new Error('nothing may be sent')));
  vi.stubGlobal('fetch', fetch);
  vi.stubEnv(ENV_API_KEY, `rk_test_${'a'.repeat(32)}`);
  vi.stubEnv(ENV_BASE_URL, 'http://127.0.0.1:9');
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
}

describe.each(COMMANDS.map((command) => [command.name, command] as const))(
  '%s: each flag through the usual mistakes',
  (name, command) => {
    const all = flags(command.help);

    it('lists its flags in --help (what this walk reads)', () => {
      expect(all.length).toBeGreaterThan(0);
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
        [name, `--${flag}`, 'http://127.0.0.1:1/a', `--${flag}`, 'http://127.0.0.1:1/a'],
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

  it('export: --format against the --out extension, and a range the SDK refuses', async () => {
    await expectUsageError(
      ['export', 'recognitions', '--format', 'csv', '--out', 'out.jsonl'],
      '--format csv and --out out.jsonl disagree: change one of them.',
    );
    await expectUsageError(
      ['export', 'recognitions', '--from', 'last tuesday', '--out', join(dir, 'out.csv')],
      /^from: must be a Date or an ISO 8601 date/,
    );
    // No file was opened.
    expect(existsSync(join(dir, 'out.csv'))).toBe(false);
    expect(output.stderr()).not.toContain('request id');
  });

  it('api: a GET with a body, and a path the client refuses', async () => {
    await expectUsageError(
      ['api', 'GET', '/v1/users', '--data', '{}'],
      'A GET has no body: pass its parameters with --query.',
    );
    for (const path of ['/users', '/v1/../admin', 'https://elsewhere.example/v1/users']) {
      await expectUsageError(['api', 'GET', path], /^A raw request's path must start with \/v1\//);
    }
  });

  it('an unknown command shows the tool’s usage line', async () => {
    expect(await main(['listen'])).toBe(2);
    expect(output.stderr()).toBe(
      'employee-recognition: Unknown command "listen".\nUsage: employee-recognition <command> [options]\nSee employee-recognition --help.\n',
    );
  });
});
