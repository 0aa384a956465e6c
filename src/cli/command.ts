import { readFile } from 'node:fs/promises';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ApiError, EmployeeRecognitionError, type Logger } from '@employee-recognition/sdk';

/** One subcommand of `employee-recognition`. */
export interface Command {
  name: string;
  /** One line for the tool's `--help`. */
  summary: string;
  /** The command's `--help`. */
  help: string;
  /** Runs with the arguments after the command's name; resolves to the exit code. */
  run(args: string[]): Promise<number>;
}

/** Exit codes: 2 is the shell convention for bad usage, 130 for an interrupt (128 + SIGINT). */
export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;

/** Bad arguments: the message is shown with a pointer to `--help`, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * `util.parseArgs`, strict, with `-h/--help` added; its errors become {@link UsageError}s.
 * Returns undefined when help was asked for (and printed).
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
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if ((parsed.values as { help?: boolean }).help) {
    process.stdout.write(`${command.help}\n`);
    return undefined;
  }
  return parsed;
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
 * Anything that is not an SDK error is rethrown.
 */
export function reportError(error: unknown): number {
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
