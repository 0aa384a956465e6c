import { readFile } from 'node:fs/promises';
import type { DoctorReport, TrafficDiff } from '@employee-recognition/sdk/doctor';
import { type Har, HarError, parseHar } from '../testing/har.js';
import type { FileRecorder } from '../testing/recorder.js';
import { type Command, describe, EXIT, parseCommandArgs, UsageError } from './command.js';

const OPTIONS = { json: { type: 'boolean' }, markdown: { type: 'boolean' } } as const;

/** `employee-recognition traffic`: drift between the service's answers and the SDK's, in HAR recordings. */
export const traffic: Command = {
  name: 'traffic',
  summary: 'Check recorded traffic (HAR) against the SDK, or compare two recordings',
  help: `Usage: employee-recognition traffic check <file.har> [--json | --markdown]
       employee-recognition traffic diff <old.har> <new.har> [--json]

  traffic check <file.har>
      Judges every recorded answer as the SDK reads it (a Client reads each, nothing is sent):
      a check fails exactly when the SDK's call would, naming the error. The records against
      the SDK's schemas (new fields listed, a likely rename named), the envelope and paging, the
      error body, the headers (x-request-id, rate-limit headers, deprecation notices), and
      whether the file can be shared (privacy, by the recording's redaction). Prints the
      doctor's report. Exits 0 when no check failed, 1 when one did, 2 on bad usage, a file that
      is not a HAR, or one with no answer of the API.

  traffic diff <old.har> <new.har>
      Compares the shapes of the answers of two recordings (such as last week's and today's
      smoke session) by operation, and judges each change against the SDK's schemas: an
      operation missing from the new file, a field the SDK needs gone or retyped, a null its
      schema does not allow, an enumeration value it does not know, a header it no longer reads
      are drift; a change the SDK reads all the same is a note. Exits 1 on drift, 0 otherwise,
      2 on bad usage, a file that is not a HAR, or a new file with nothing to compare.

Recordings come from createRecorder() of @employee-recognition/sdk/testing, from
node --import @employee-recognition/sdk/record, or from --record of api and doctor.

Options:
  --json                 The report, or the differences, as JSON
  --markdown             The check's report in Markdown, to paste into a support ticket (check)
  -h, --help             Show this help

Examples:
  employee-recognition traffic check smoke.har
  employee-recognition traffic diff smoke-last.har smoke.har`,
  options: OPTIONS,
  connects: false,
  async run(args) {
    const parsed = parseCommandArgs(this, args, OPTIONS);
    if (!parsed) return EXIT.ok;
    const { values } = parsed;
    const [subcommand, ...files] = parsed.positionals;
    if (values.json && values.markdown)
      throw new UsageError('Choose one of --json and --markdown.');
    const doctor = await import('@employee-recognition/sdk/doctor');
    if (subcommand === 'check') {
      if (files.length !== 1) throw new UsageError('check takes one file: <file.har>.');
      const har = await readHar(files[0]!);
      const checks = await doctor.checkTraffic(await judgeClient(), har);
      if ((checks[0]!.details.operations as unknown[]).length === 0) {
        throw new UsageError(
          `${files[0]!} holds no answer of the API (${har.log.entries.length} ${har.log.entries.length === 1 ? 'entry' : 'entries'}): nothing to check.`,
        );
      }
      return printReport(doctor.createReport(checks), values);
    }
    if (subcommand !== 'diff') {
      throw new UsageError(
        subcommand === undefined
          ? 'Give a subcommand: check or diff.'
          : `Unknown subcommand "${subcommand}": use check or diff.`,
      );
    }
    if (values.markdown) throw new UsageError('--markdown goes with check.');
    if (files.length !== 2) throw new UsageError('diff takes two files: <old.har> <new.har>.');
    const [before, after] = await Promise.all(files.map(readHar));
    let diff: TrafficDiff;
    try {
      diff = await doctor.diffTraffic(await judgeClient(), before!, after!);
    } catch (error) {
      if (error instanceof RangeError) throw new UsageError(`${files[1]!} ${error.message}.`);
      throw error;
    }
    process.stdout.write(
      values.json
        ? `${JSON.stringify(diff, null, 2)}\n`
        : renderDiff(diff, files[0]!, files[1]!, doctor.printable),
    );
    return diff.same ? EXIT.ok : EXIT.failure;
  },
};

/**
 * Prints a doctor's report (doctor, traffic check) as `--json` or `--markdown` ask, else for a
 * terminal; resolves to the exit code: 1 when a check failed.
 */
export async function printReport(
  report: DoctorReport,
  format: { json?: boolean | undefined; markdown?: boolean | undefined },
): Promise<number> {
  const doctor = await import('@employee-recognition/sdk/doctor');
  process.stdout.write(
    format.json
      ? doctor.renderJson(report)
      : format.markdown
        ? doctor.renderMarkdown(report)
        : doctor.renderTerminal(report),
  );
  return report.ok ? EXIT.ok : EXIT.failure;
}

/**
 * The recorder of `--record <file>` (api, doctor): the command's calls, redacted, streamed to the
 * file's `.partial`, a HAR once closed; undefined without the option. Called once the command's
 * arguments are checked; the file itself is replaced only when the recording is finished. A
 * `.partial` that cannot be created safely is a usage error before anything is sent.
 */
export async function recorderFor(file: string | undefined): Promise<FileRecorder | undefined> {
  if (file === undefined) return undefined;
  const [fs, { startRecorder }] = await Promise.all([
    import('node:fs'),
    import('../testing/recorder.js'),
  ]);
  try {
    return startRecorder({
      file,
      fs,
      say: (line) => process.stderr.write(`--record: ${line}\n`),
    });
  } catch (error) {
    throw new UsageError(`--record: cannot write ${file}: ${describe(error)}`);
  }
}

/**
 * A HAR file through the one reader (src/testing/har.ts), a recorder's `.partial` included; what
 * the reader says of it goes to stderr. Anything else is a usage error naming the file, and each
 * entry and field at fault, counted.
 */
async function readHar(path: string): Promise<Har> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${path}: ${describe(error)}`);
  }
  try {
    const { har, notes } = parseHar(text, path);
    for (const note of notes) process.stderr.write(`${note}\n`);
    return har;
  } catch (error) {
    if (!(error instanceof HarError)) throw error;
    const entries = new Set(
      error.problems.map((each) => each.entry).filter((each) => each !== undefined),
    );
    throw new UsageError(
      entries.size
        ? `${error.message} (${error.problems.length} problem${error.problems.length === 1 ? '' : 's'} in ${entries.size} ${entries.size === 1 ? 'entry' : 'entries'})`
        : error.message,
    );
  }
}

/** The client the judge reads recorded answers with: it sends nothing, so any key does. */
async function judgeClient() {
  const { Client } = await import('@employee-recognition/sdk');
  return new Client({ apiKey: `rk_test_${'0'.repeat(24)}`, logLevel: 'off' });
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// Field names and values come from the service: `printable` keeps them to one harmless line.
function renderDiff(
  diff: TrafficDiff,
  before: string,
  after: string,
  printable: (text: string) => string,
): string {
  const lines: string[] = [];
  if (diff.coverage.missing.length) {
    lines.push(
      `Not in ${after}: ${diff.coverage.missing.map(printable).join(', ')} (recorded in ${before}: the new recording does not cover ${diff.coverage.missing.length === 1 ? 'it' : 'them'})`,
    );
  }
  let operation: string | undefined;
  const fields = diff.differences.filter((each) => !each.kind.startsWith('header'));
  for (const difference of fields) {
    if (difference.operation !== operation) {
      operation = difference.operation;
      lines.push(`${printable(operation)}:`);
    }
    const detail = difference.detail === undefined ? '' : `: ${difference.detail}`;
    const renamed =
      difference.kind === 'removed'
        ? diff.notes.find(
            (each) =>
              each.kind === 'added' &&
              each.operation === difference.operation &&
              each.detail === difference.detail,
          )
        : undefined;
    lines.push(
      `  ${difference.kind.padEnd(14)} ${printable(`${difference.path}${detail}`)}${renamed ? printable(` (new beside it: ${renamed.path}, a likely rename)`) : ''}`,
    );
  }
  for (const header of diff.headers.filter((each) => each.drift)) {
    lines.push(
      `${header.kind.padEnd(16)} ${printable(header.header)}${header.family ? ` (${header.family})` : ''} on ${printable(header.operations.join(', '))}`,
    );
  }
  const notes = [
    ...diff.notes.map(
      (each) =>
        `  ${printable(each.operation)} ${each.kind} ${printable(`${each.path}${each.detail === undefined ? '' : `: ${each.detail}`}`)}: ${each.note}`,
    ),
    ...diff.headers
      .filter((each) => !each.drift)
      .map(
        (each) =>
          `  ${each.kind} ${printable(each.header)} on ${count(each.operations.length, 'operation')}: ${each.family ? `${each.family} headers, which the SDK still reads` : 'a header the SDK does not read'}`,
      ),
  ];
  if (notes.length) lines.push(`Notes (the SDK reads these all the same):`, ...notes);
  const drift = fields.length + diff.headers.filter((each) => each.drift).length;
  if (diff.same && lines.length === 0) {
    return `The answers of ${after} have the shapes of ${before}'s, as the SDK reads them.\n`;
  }
  lines.push(
    '',
    diff.same
      ? `No drift between ${before} and ${after}: the SDK reads the answers of both${notes.length ? ` (${count(notes.length, 'note')})` : ''}.`
      : `${count(drift + diff.coverage.missing.length, 'difference')} between ${before} and ${after}.`,
  );
  return `${lines.join('\n')}\n`;
}
