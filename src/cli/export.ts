import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { Client, type Recognition } from '@employee-recognition/sdk';
import { ENV_LOG_LEVEL } from '../contract.js';
import {
  type Command,
  CONNECTION,
  EXIT,
  parseCommandArgs,
  reportError,
  stderrLogger,
  UsageError,
} from './command.js';

const FORMATS = ['csv', 'jsonl'] as const;
type Format = (typeof FORMATS)[number];
// The largest page the contract allows: fewest requests against the rate limit.
const PAGE_SIZE = 100;

const OPTIONS = {
  from: { type: 'string' },
  to: { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
  ...CONNECTION.options,
} as const;
// Where stderr is no terminal (CI, a log file), a progress line at most this often: a page's
// line waits until this much has passed since the last line, so a fast export logs little and a
// slow one (waiting on the rate limit) still shows it is alive.
const PLAIN_PROGRESS_MS = 10_000;
/** The list's parameters that come from flags, for the SDK's messages about them. */
const RANGE_FLAGS = { from: '--from', to: '--to' };

/** The CSV columns, in order, and how each is read from a recognition. */
const CSV_COLUMNS: [string, (recognition: Recognition) => unknown][] = [
  ['id', (r) => r.id],
  ['created_at', (r) => r.created_at],
  ['sender_id', (r) => r.sender.id],
  ['sender_name', (r) => r.sender.name],
  ['recipient_id', (r) => r.recipient.id],
  ['recipient_name', (r) => r.recipient.name],
  ['message', (r) => r.message],
  ['points', (r) => r.points],
];

/** `employee-recognition export recognitions`: every matching recognition as CSV or JSON Lines. */
export const exportCommand: Command = {
  name: 'export',
  summary: 'Stream every matching recognition to CSV or JSON Lines',
  help: `Usage: employee-recognition export recognitions [options]

Streams every recognition in the range, page by page, with the credential of
RECOGNITION_API_KEY and the base URL of --base-url, else RECOGNITION_BASE_URL. Waits on the
rate limit instead of failing. Progress (records, pages, waits and their cause) and the summary
go to stderr: on a terminal as a status line, elsewhere (CI, a log) as plain lines, one at most
every 10 s; stdout carries only the records. Ctrl-C stops after the last whole record: the file
stays well-formed.

Options:
  --from <date>          Earliest created_at, inclusive: ISO 8601 date or date-time
  --to <date>            Latest created_at, inclusive: ISO 8601 date or date-time
  --format <csv|jsonl>   CSV (RFC 4180, with a header row) or one JSON record per line
                         (default: from the --out extension, else csv)
  --out <file>           Write to this file instead of stdout
${CONNECTION.help}
  -h, --help             Show this help

CSV columns: ${CSV_COLUMNS.map(([name]) => name).join(', ')}.
JSON Lines keeps every field the service sends.`,
  options: OPTIONS,
  connects: true,
  async run(args) {
    const parsed = parseCommandArgs(this, args, OPTIONS);
    if (!parsed) return EXIT.ok;
    const { values, positionals } = parsed;
    const [what, extra] = positionals;
    if (what !== 'recognitions') {
      throw new UsageError(
        `Say what to export: export recognitions${what ? `, not "${what}"` : ''}.`,
      );
    }
    if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}".`);
    const format = chooseFormat(values.format, values.out);
    const write = format === 'csv' ? csvLine : jsonLine;

    const progress = process.stderr.isTTY ? terminalProgress() : plainProgress();
    const interrupt = new AbortController();
    const onSigint = () => interrupt.abort();
    process.once('SIGINT', onSigint);
    let client: Client;
    try {
      client = new Client({
        ...CONNECTION.clientOptions(values),
        // The waits (info) show by default, so a long one is not taken for a hang.
        logLevel: process.env[ENV_LOG_LEVEL] ? undefined : 'info',
        logger: stderrLogger(progress.note),
      });
    } catch (error) {
      process.off('SIGINT', onSigint);
      return reportError(error);
    }

    // Opened with the first page: a range the SDK refuses leaves no file and prints nothing.
    let out: NodeJS.WritableStream | undefined;
    // A closed pipe (`| head`) ends the export quietly; any other write error is reported.
    let writeError: Error | undefined;
    const open = () => {
      out = values.out === undefined ? process.stdout : createWriteStream(values.out);
      out.on('error', (error: Error) => {
        writeError = error;
        interrupt.abort();
      });
      return out;
    };
    const emit = async (text: string) => {
      const stream = out ?? open();
      if (!stream.write(text)) {
        await once(stream, 'drain', { signal: interrupt.signal }).catch(() => {});
      }
    };

    let records = 0;
    let pages = 0;
    let code: number = EXIT.ok;
    try {
      const list = client.recognitions.list(
        { from: values.from, to: values.to, limit: PAGE_SIZE },
        { signal: interrupt.signal },
      );
      for await (const page of list.pages()) {
        if (pages++ === 0 && format === 'csv') {
          await emit(CSV_COLUMNS.map(([name]) => csvField(name)).join(',') + '\r\n');
        }
        for (const recognition of page.data) {
          // Each record is one write, so the output ends on a whole record whenever it stops.
          await emit(write(recognition));
          records++;
          if (interrupt.signal.aborted) break;
        }
        progress.update(records, pages);
        if (interrupt.signal.aborted) break;
      }
      // An export of nothing still writes its (empty) file.
      if (!out) open();
    } catch (error) {
      if (!interrupt.signal.aborted) code = reportError(error, RANGE_FLAGS);
    } finally {
      process.off('SIGINT', onSigint);
      if (out && out !== process.stdout)
        await new Promise<void>((resolve) => out!.end(() => resolve()));
    }
    progress.done();
    if (writeError && (writeError as NodeJS.ErrnoException).code !== 'EPIPE') {
      process.stderr.write(`Cannot write ${values.out ?? 'stdout'}: ${writeError.message}\n`);
      return EXIT.failure;
    }
    const summary = `${count(records, 'recognition')} from ${count(pages, 'page')}${values.out ? ` written to ${values.out}` : ''}`;
    if (interrupt.signal.aborted && !writeError) {
      process.stderr.write(`Interrupted: ${summary}.\n`);
      return EXIT.interrupted;
    }
    if (code === EXIT.ok) process.stderr.write(`${summary}.\n`);
    return code;
  },
};

function chooseFormat(format: string | undefined, out: string | undefined): Format {
  const extension = FORMATS.find((each) => out?.toLowerCase().endsWith(`.${each}`));
  if (format === undefined) return extension ?? 'csv';
  if (!FORMATS.includes(format as Format)) {
    throw new UsageError(`--format must be ${FORMATS.join(' or ')}, not "${format}".`);
  }
  if (extension !== undefined && extension !== format) {
    throw new UsageError(`--format ${format} and --out ${out} disagree: change one of them.`);
  }
  return format as Format;
}

function jsonLine(recognition: Recognition): string {
  return `${JSON.stringify(recognition)}\n`;
}

// RFC 4180: CRLF after each record, and a field with a comma, quote, CR or LF is quoted, its
// quotes doubled.
function csvLine(recognition: Recognition): string {
  return `${CSV_COLUMNS.map(([, read]) => csvField(read(recognition))).join(',')}\r\n`;
}

function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Where progress and the client's log lines (its waits, with their cause) go on stderr. */
interface Progress {
  update(records: number, pages: number): void;
  note(line: string): void;
  /** Ends the progress before the summary. */
  done(): void;
}

// One status line on stderr, rewritten in place; log lines (the client's waits on the rate
// limit and before retries, with their cause) are printed above it.
function terminalProgress(): Progress {
  const clearLine = '\r\x1b[2K';
  let status = '';
  return {
    update(records: number, pages: number) {
      status = `${count(records, 'recognition')}, ${count(pages, 'page')}`;
      process.stderr.write(clearLine + status);
    },
    note(line: string) {
      process.stderr.write(`${clearLine}${line}\n${status}`);
    },
    /** Removes the status line. */
    done() {
      if (status) process.stderr.write(clearLine);
      status = '';
    },
  };
}

// Where no terminal redraws (CI, a log file): plain lines, a page's count only once
// PLAIN_PROGRESS_MS has passed since the last count, the log lines as they come.
function plainProgress(): Progress {
  let last = Date.now();
  const line = (text: string) => process.stderr.write(`${text}\n`);
  return {
    update(records: number, pages: number) {
      if (Date.now() - last < PLAIN_PROGRESS_MS) return;
      last = Date.now();
      line(`${count(records, 'recognition')}, ${count(pages, 'page')}`);
    },
    note: line,
    done() {},
  };
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
