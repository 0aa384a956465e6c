/** The report's three renderings, and what none of them may show. */
import {
  createReport,
  type DoctorCheck,
  redactReport,
  renderJson,
  renderMarkdown,
  renderTerminal,
} from '@employee-recognition/sdk/doctor';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/version.js';

const checks: DoctorCheck[] = [
  { id: 'clock', status: 'ok', summary: 'within 1 s', details: { skewSeconds: 0 } },
  {
    id: 'errors',
    status: 'warn',
    summary: 'a body from the service\u001b[31m with\nforged | lines',
    fix: 'Branch on the classes.',
    assumption: 'error-body',
    details: { status: 404 },
  },
  {
    id: 'records',
    status: 'fail',
    summary: '1 field differs',
    fix: 'Read it defensively.',
    details: {},
  },
  { id: 'webhooks', status: 'skip', summary: 'the key lacks webhooks:read', details: {} },
];

describe('the report', () => {
  it('is ok when no check failed', () => {
    expect(createReport(checks.slice(0, 2)).ok).toBe(true);
    expect(createReport(checks).ok).toBe(false);
    expect(createReport(checks, 'http://127.0.0.1:1')).toMatchObject({
      sdk: VERSION,
      node: process.versions.node,
      baseUrl: 'http://127.0.0.1:1',
    });
  });

  it('on a terminal: a line per check, then the fixes of warn and fail, control characters escaped', () => {
    const text = renderTerminal(createReport(checks, 'http://127.0.0.1:1'));
    expect(text.split('\n').slice(2, 6)).toEqual([
      'ok    clock     within 1 s',
      'warn  errors    a body from the service\\u001b[31m with\\u000aforged | lines',
      'fail  records   1 field differs',
      'skip  webhooks  the key lacks webhooks:read',
    ]);
    expect(text).toContain(
      'To fix:\n  errors: Branch on the classes.\n  records: Read it defensively.\n',
    );
    expect(text).not.toContain('\u001b');
    expect(text.trimEnd().split('\n').at(-1)).toBe('1 fail, 1 warn, 1 skip.');
  });

  it('on a terminal and in Markdown: bidirectional controls from the service escaped, so no text is reordered', () => {
    const forged = checks.map((each) => ({
      ...each,
      summary: `${each.summary}\u202egnp.exe\u2066`,
    }));
    for (const text of [
      renderTerminal(createReport(forged, 'http://x')),
      renderMarkdown(createReport(forged, 'http://x')),
    ]) {
      expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
      expect(text).toContain('\\u202egnp.exe\\u2066');
    }
  });

  it('as JSON: the documented shape', () => {
    const parsed = JSON.parse(renderJson(createReport(checks, 'http://x')));
    expect(Object.keys(parsed)).toEqual(['sdk', 'node', 'baseUrl', 'ok', 'checks']);
    expect(parsed.checks[1]).toEqual({ ...checks[1] });
  });

  it('in Markdown: a table, a section per warn and fail, the details', () => {
    const text = renderMarkdown(createReport(checks, 'http://x'));
    expect(text).toContain(
      '| `errors` | warn | a body from the service\\u001b[31m with\\u000aforged \\| lines |',
    );
    expect(text).toContain('### `records`: fail');
    expect(text).toContain('Assumption: docs/assumptions.md#error-body');
    expect(text).toContain('"skewSeconds": 0');
  });

  it('redacts every known secret from every string, keys included', () => {
    const secret = 'rk_test_abcdefghijklmnopqrstuvwx';
    const report = createReport([
      { id: 'errors', status: 'warn', summary: `echo ${secret}`, details: { [secret]: [secret] } },
    ]);
    const clean = redactReport(report, [secret]);
    expect(JSON.stringify(clean)).not.toContain(secret);
    expect(clean.checks[0]!.summary).toBe('echo [REDACTED]');
  });
});
