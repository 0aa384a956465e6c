import { readFile } from 'node:fs/promises';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ApiError, EmployeeRecognitionError, type Logger } from '@employee-recognition/sdk';
import { ENV_BASE_URL } from '../contract.js';

/** One subcommand of `employee-recognition`. */
export interface Command {
  name: string;
  /** One line for the tool's `--help`. */
  summary: string;
  /** The command's `--help`. */
  help: string;
  /**
   * Its flags, as {@link parseCommandArgs} takes them: what its `--help` and docs/cli.md list
   * (test/cli/usage.test.ts and scripts/lib/doc-facts.mjs hold them to it).
   */
  options: Options;
  /** Whether it calls the service: then it takes the {@link CONNECTION} flags, as every such command does. */
  connects: boolean;
  /** Runs with the arguments after the command's name; resolves to the exit code. */
  run(args: string[]): Promise<number>;
}

/** Exit codes: 2 is the shell convention for bad usage, 130 for an interrupt (128 + SIGINT). */
export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;

/**
 * Bad arguments: {@link runCommand} shows the message, the command's usage line and a pointer
 * to `--help`, and exits 2 (docs/cli.md). Nothing has been sent when one is thrown.
 */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * An option as `util.parseArgs` takes it, and what {@link parseCommandArgs} checks beyond it:
 * `conflicts` names the options it cannot be given with.
 */
type CommandOption = NonNullable<ParseArgsConfig['options']>[string] & {
  conflicts?: readonly string[];
};

type Options = Record<string, CommandOption>;

const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * How every command that calls the service is pointed at it: one dialect, from this one table.
 * The key stays in RECOGNITION_API_KEY, never a flag, which the shell's history and `ps` show.
 */
export const CONNECTION = {
  options: { 'base-url': { type: 'string' } },
  help: `  --base-url <url>       The API's base URL (default: $${ENV_BASE_URL}, else the service)`,
  /** The client options the flags give. */
  clientOptions: (values: { 'base-url'?: string | undefined }) => ({
    baseUrl: values['base-url'],
  }),
} as const;

/**
 * `message` from the SDK, with each `` `option` `` it names written as the flag that gives it
 * (`flags`: option to flag, such as `{ query: '--query' }`), and a leading `option:` too: the
 * SDK's messages speak to code, the CLI's to the command line.
 */
export function asFlags(message: string, flags: Readonly<Record<string, string>>): string {
  return message.replace(/`([\w.]+)`|^(\w+)(?=:)/g, (found, quoted?: string, leading?: string) => {
    const option = quoted ?? leading!;
    return Object.hasOwn(flags, option) ? flags[option]! : found;
  });
}

/**
 * Options that take a URL, by name: `--url`, `--base-url`, `--deprecation-link`… Their value must
 * be an absolute http(s) URL, scheme included, in every command, present and future.
 */
const URL_OPTION = /(^|-)(url|link)$/;

/**
 * `util.parseArgs`, strict, with `-h/--help` added, and the checks every command gets: an
 * unknown option, an option without its value (or an empty one), a single-value option given
 * twice, two options that conflict, a URL option whose value is no absolute http(s) URL. Each is
 * a {@link UsageError} that names the mistake. Returns undefined when help was asked for (and
 * printed).
 */
export function parseCommandArgs<const O extends Options>(
  command: Pick<Command, 'help'>,
  args: string[],
  options: O,
) {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { ...options, ...HELP_OPTION },
      strict: true,
      allowPositionals: true,
      tokens: true,
    });
  } catch (error) {
    throw new UsageError(parseError(error));
  }
  if ((parsed.values as { help?: boolean }).help) {
    process.stdout.write(`${command.help}\n`);
    return undefined;
  }
  const given = new Map<string, number>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    const { name, value } = token;
    const option = options[name]!;
    given.set(name, (given.get(name) ?? 0) + 1);
    if (option.type !== 'string') continue;
    if (value === '' || value === undefined) throw new UsageError(`--${name} needs a value.`);
    if (!option.multiple && given.get(name)! > 1) {
      throw new UsageError(`--${name} is given twice: give it once.`);
    }
    if (URL_OPTION.test(name)) checkUrl(name, value);
  }
  for (const [name, option] of Object.entries(options)) {
    const other = option.conflicts?.find((each) => given.has(each));
    if (given.has(name) && other !== undefined) {
      throw new UsageError(`--${name} and --${other} cannot be given together: give one of them.`);
    }
  }
  return parsed;
}

/** `util.parseArgs`'s error in a line that names the option. */
function parseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(-[^' ]+)/.exec(message)?.[1];
  const code = (error as { code?: unknown }).code;
  if (option === undefined) return message;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `Unknown option '${option}'.`;
  if (/argument missing|ambiguous/.test(message)) return `${option} needs a value.`;
  if (/does not take an argument/.test(message)) return `${option} takes no value.`;
  return message;
}

/** A URL option's value: an absolute http(s) URL, else a message that says what is missing. */
function checkUrl(name: string, value: string): void {
  // `localhost:4010` parses, with `localhost:` as its scheme: only `scheme://` counts as one.
  const scheme = /^([a-z][a-z\d+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    throw new UsageError(
      `--${name} needs an absolute URL, with its scheme: such as https://${value.replace(/^\/+/, '')}, not "${value}".`,
    );
  }
  if (!URL.canParse(value)) throw new UsageError(`--${name} is not a URL: "${value}".`);
  if (scheme !== 'http' && scheme !== 'https') {
    throw new UsageError(`--${name} must be an http or https URL, not ${scheme}:.`);
  }
}

/**
 * Runs a command to its exit code. A {@link UsageError} is written to stderr with the command's
 * usage line (the first line of its help) and where its help is, and gives exit code 2; every
 * other failure is the command's to report (exit code 1), or a bug.
 */
export async function runCommand(
  command: Pick<Command, 'name' | 'help' | 'run'>,
  args: string[],
): Promise<number> {
  try {
    return await command.run(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const tool = command.name ? `employee-recognition ${command.name}` : 'employee-recognition';
    const usage = command.help.split('\n', 1)[0];
    process.stderr.write(`${tool}: ${error.message}\n${usage}\nSee ${tool} --help.\n`);
    return EXIT.usage;
  }
}

/** A whole number from `min` to `max` given as option `--name`, or undefined when absent. */
export function integerOption(
  name: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(number >= min && number <= max)) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not "${value}".`);
  }
  return number;
}

/** JSON given as option `--name`: inline, or `@path` to read it from a file (`@-`: standard input). */
export async function readJsonArgument(name: string, value: string): Promise<unknown> {
  return value.startsWith('@')
    ? readJsonFile(name, value.slice(1))
    : parseJson(name, undefined, value);
}

/** JSON read from the file named by option `--name` (`-`: standard input). */
export async function readJsonFile(name: string, path: string): Promise<unknown> {
  const source = path === '-' ? 'standard input' : path;
  let text: string;
  try {
    text = path === '-' ? await readStream(process.stdin) : await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--${name}: cannot read ${source}: ${describe(error)}`);
  }
  return parseJson(name, source, text);
}

// The option's name is in every message, so the user knows which argument to fix.
function parseJson(name: string, source: string | undefined, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const what = source === undefined ? `--${name}` : `--${name} (${source})`;
    throw new UsageError(`${what} is not JSON: ${describe(error)}`);
  }
}

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Text from the service (an id, a URL, a description, an error message) or anything else the CLI
 * did not write itself, made safe to print: every control character (ANSI escapes start with
 * one, `\r` and `\n` forge lines), line and paragraph separator and bidirectional control becomes
 * a space, so no value can recolour the terminal, move its cursor or pass for a line of the CLI's
 * own. Every command prints such text only through this (docs/cli.md).
 */
export function printable(text: unknown): string {
  return String(text).replace(
    /[\p{Cc}\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu,
    ' ',
  );
}

/** An error's message, with the reason a low-level one carries in `cause` (as fetch does). */
export function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { cause } = error;
  return cause instanceof Error && cause.message ? cause.message : error.message;
}

/**
 * Writes an SDK error to stderr: for an answer of the API its status, code, message, request id
 * and field details; for the rest (connection, timeout, configuration) its name and message.
 * Exit code 1. An argument the SDK refused before sending (a local 400 or 422) is thrown as a
 * {@link UsageError} (exit code 2) naming the flag that gave it (`flags`, as {@link asFlags}
 * takes them); anything that is not an SDK error is rethrown.
 */
export function reportError(error: unknown, flags: Readonly<Record<string, string>> = {}): number {
  // The SDK refused an argument before sending (a range, a body): bad usage, not a failed call.
  if (error instanceof ApiError && error.local && (error.status === 400 || error.status === 422)) {
    const details = (error.details ?? [])
      .map((detail) => `${detail.field}: ${detail.message}`)
      .filter((line) => !error.message.includes(line));
    throw new UsageError(
      [error.message, ...details].map((line) => asFlags(line, flags)).join('\n  '),
    );
  }
  if (error instanceof ApiError) {
    const lines = [
      `${error.name}: ${printable(error.message)}`,
      `  status:     ${error.status}`,
      `  code:       ${printable(error.code)}`,
      `  request id: ${error.requestId === undefined ? (error.local ? '(none: raised before sending)' : '(none)') : printable(error.requestId)}`,
      ...(error.details ?? []).map(
        (detail) => `  ${printable(detail.field)}: ${printable(detail.message)}`,
      ),
    ];
    process.stderr.write(`${lines.join('\n')}\n`);
  } else if (error instanceof EmployeeRecognitionError) {
    process.stderr.write(`${error.name}: ${printable(error.message)}\n`);
  } else {
    throw error;
  }
  return EXIT.failure;
}

/**
 * The SDK's log lines (RECOGNITION_LOG) on stderr: the default, `console`, prints `info` and
 * `debug` to stdout, where they would mix with the JSON or records a command prints. A line
 * quotes the service's text (a body, a deprecation link), so it is {@link printable}.
 */
export function stderrLogger(
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Logger {
  const line = (text: string) => write(printable(text));
  return { debug: line, info: line, warn: line, error: line };
}
