/**
 * The doctor's report: its model (checks with an id, a status, a one-line summary, a fix and the
 * docs/assumptions.md row they test) and its three renderings: a terminal, JSON and Markdown.
 * Shared by every command that judges the service against the SDK's assumptions
 * (`employee-recognition doctor`, `doctor webhook`, `traffic check`).
 *
 * Nothing secret can reach a rendering through here: a report holds names, types, counts and
 * dates, never a credential or a record's values, and {@link redactReport} removes the known
 * secrets from every string again before anything is shown (defence in depth: a service that
 * echoes the key into a header name still cannot put it on screen).
 */
import { escapeControls } from '../core/errors.js';
import { redactCredential } from '../internal/redact.js';
import { VERSION } from '../version.js';

/** A check's verdict: `ok`, `warn` (works, with a cost), `fail` (breaks), `skip` (not run, with why). */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** One check of a report. */
export interface DoctorCheck {
  /** The check's fixed id, such as `rate-limit`. */
  id: string;
  /** Its verdict. */
  status: CheckStatus;
  /** One line: what was found, or why the check was skipped. */
  summary: string;
  /** What to do, for a `warn` or `fail`. */
  fix?: string | undefined;
  /** The anchor of the docs/assumptions.md row the check tests, such as `rate-limit-headers`. */
  assumption?: string | undefined;
  /** What the check measured; each check's shape is documented in docs/doctor.md. */
  details: Record<string, unknown>;
}

/** A whole report: what ran, against what, and every check in order. */
export interface DoctorReport {
  /** This SDK's version. */
  sdk: string;
  /** The Node.js version (`process.versions.node`), or undefined in another runtime. */
  node: string | undefined;
  /** The service the checks ran against, or undefined when the report is about a file. */
  baseUrl: string | undefined;
  /** True when no check failed. */
  ok: boolean;
  /** The checks, in the order they ran. */
  checks: DoctorCheck[];
}

/** A report of `checks`: `ok` when none failed. */
export function createReport(checks: DoctorCheck[], baseUrl?: string): DoctorReport {
  return {
    sdk: VERSION,
    node: (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node,
    baseUrl,
    ok: checks.every((check) => check.status !== 'fail'),
    checks,
  };
}

/** The text that stands for a removed secret. */
export const REDACTED = '[REDACTED]';

/**
 * A copy of `report` where every occurrence of each of `secrets` (of 4 characters or more) in any
 * string, keys included, percent-encoded or JSON-escaped too, is {@link REDACTED}.
 */
export function redactReport(report: DoctorReport, secrets: readonly string[]): DoctorReport {
  const known = secrets.filter((secret) => typeof secret === 'string' && secret.length >= 4);
  if (known.length === 0) return report;
  // In every form a server or a parser writes a secret back (internal/redact.ts).
  const clean = (text: string) =>
    known.reduce((out, secret) => redactCredential(out, secret, REDACTED), text);
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return clean(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([key, each]) => [clean(key), walk(each)]),
      );
    }
    return value;
  };
  return walk(report) as DoctorReport;
}

/**
 * Text for one line of a terminal or a Markdown table: control characters (line breaks, ANSI
 * escapes) as `\uXXXX`, as error messages write them, so a string from the service cannot forge
 * a line or recolour a terminal.
 */
export const printable: (text: string) => string = escapeControls;

const WIDTH = Math.max(...['ok', 'warn', 'fail', 'skip'].map((status) => status.length));

/**
 * The report for a terminal: a heading, one line per check with its status and summary, then the
 * fix of each warn and fail, and a last line with the verdict.
 */
export function renderTerminal(report: DoctorReport): string {
  const idWidth = Math.max(...report.checks.map((check) => check.id.length), 0);
  const lines = [
    `employee-recognition doctor: SDK ${report.sdk}${report.node ? `, Node ${report.node}` : ''}${report.baseUrl ? `, ${printable(report.baseUrl)}` : ''}`,
    '',
    ...report.checks.map(
      (check) =>
        `${check.status.padEnd(WIDTH)}  ${check.id.padEnd(idWidth)}  ${printable(check.summary)}`,
    ),
  ];
  const fixes = report.checks.filter(
    (check) => check.fix && (check.status === 'warn' || check.status === 'fail'),
  );
  if (fixes.length > 0) {
    lines.push('', 'To fix:');
    for (const check of fixes) lines.push(`  ${check.id}: ${printable(check.fix!)}`);
  }
  lines.push('', verdict(report));
  return `${lines.join('\n')}\n`;
}

/** The report as one JSON document: `{ sdk, node, baseUrl, ok, checks }`. */
export function renderJson(report: DoctorReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/**
 * The report in Markdown, to paste into a support ticket: the versions, a table of the checks, a
 * section per warn and fail with its fix and details, and the details of every check (names,
 * counts and dates only) in a closing block.
 */
export function renderMarkdown(report: DoctorReport): string {
  const cell = (text: string) => printable(text).replaceAll('|', '\\|');
  const lines = [
    '## employee-recognition doctor',
    '',
    `- SDK: ${report.sdk}`,
    `- Node.js: ${report.node ?? '(not Node.js)'}`,
    ...(report.baseUrl ? [`- Service: \`${cell(report.baseUrl)}\``] : []),
    `- Verdict: ${verdict(report)}`,
    '',
    '| Check | Status | Summary |',
    '|---|---|---|',
    ...report.checks.map(
      (check) => `| \`${check.id}\` | ${check.status} | ${cell(check.summary)} |`,
    ),
  ];
  for (const check of report.checks) {
    if (check.status !== 'warn' && check.status !== 'fail') continue;
    lines.push('', `### \`${check.id}\`: ${check.status}`, '', cell(check.summary));
    if (check.fix) lines.push('', `Fix: ${cell(check.fix)}`);
    if (check.assumption) lines.push('', `Assumption: docs/assumptions.md#${check.assumption}`);
  }
  lines.push(
    '',
    '<details><summary>Details</summary>',
    '',
    '```json',
    JSON.stringify(
      Object.fromEntries(report.checks.map((check) => [check.id, check.details])),
      null,
      2,
    ).replaceAll('```', '\\u0060\\u0060\\u0060'),
    '```',
    '',
    '</details>',
  );
  return `${lines.join('\n')}\n`;
}

function verdict(report: DoctorReport): string {
  const count = (status: CheckStatus) =>
    report.checks.filter((check) => check.status === status).length;
  const parts = (['fail', 'warn', 'skip'] as const)
    .map((status) => [status, count(status)] as const)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status}`);
  return report.ok
    ? `No check failed${parts.length ? ` (${parts.join(', ')})` : ''}.`
    : `${parts.join(', ')}.`;
}
