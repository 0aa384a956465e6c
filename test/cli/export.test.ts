import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, type Recognition } from '@employee-recognition/sdk';
import { type MockServer, startMockServer } from '@employee-recognition/sdk/testing';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InstalledCli, installCli } from './installed-cli.js';

const FROM = '2026-09-01';
const TO = '2026-11-15T23:59:59Z';
// Messages that need every rule of RFC 4180: commas, quotes, CRLF and LF, and more.
const AWKWARD_MESSAGES = [
  'Thanks, truly: you saved the launch.',
  'She said "ship it" and we did.',
  'Line one\r\nline two\nline three',
  '"Quoted", with a comma, and a trailing quote"',
  '  leading and trailing spaces  ',
  'Émilie 🎉 — ünïcödé',
  '=1+1 stays as written',
];

let cli: InstalledCli;
let server: MockServer;
let env: Record<string, string>;

beforeAll(async () => {
  // Three pages of 100 in the range, so the export has to follow pages. The largest tier: the
  // test's many exports of the same key would otherwise be paced by the rate limit.
  server = await startMockServer({
    recognitions: 320,
    keys: [{ key: `rk_test_${'e'.repeat(32)}`, rateLimit: 1000 }],
  });
  const [sender, recipient] = server.api.store.users.all();
  AWKWARD_MESSAGES.forEach((message, index) => {
    server.api.store.recognitions.insert({
      sender: { id: sender!.id, name: sender!.name },
      recipient: { id: recipient!.id, name: 'O\'Brien, "Rex"' },
      message,
      points: index * 10,
      created_at: `2026-10-0${index + 1}T12:00:00Z`,
    });
  });
  env = { RECOGNITION_BASE_URL: server.url, RECOGNITION_API_KEY: server.api.testKey };
  cli = await installCli();
}, 180_000);

afterAll(async () => {
  await cli?.remove();
  await server?.close();
});

// What the export must hold: the SDK's own listing of the same range, in its order.
async function expected(params: { from?: string; to?: string } = {}): Promise<Recognition[]> {
  const client = new Client({ baseUrl: server.url, apiKey: server.api.testKey });
  const records: Recognition[] = [];
  for await (const recognition of client.recognitions.list({ ...params, limit: 100 })) {
    records.push(recognition);
  }
  return records;
}

function asCsvRow(recognition: Recognition): Record<string, string> {
  return {
    id: recognition.id,
    created_at: recognition.created_at,
    sender_id: recognition.sender.id,
    sender_name: recognition.sender.name,
    recipient_id: recognition.recipient.id,
    recipient_name: recognition.recipient.name,
    message: recognition.message,
    points: String(recognition.points),
  };
}

describe('employee-recognition export recognitions', () => {
  it('writes every recognition in the range as RFC 4180 CSV that a CSV parser reads back, record for record', async () => {
    const out = join(cli.project, 'recognitions.csv');
    const result = await cli.run(
      ['export', 'recognitions', '--from', FROM, '--to', TO, '--out', out],
      { env },
    );
    expect(result).toMatchObject({ code: 0, stdout: '' });
    const want = await expected({ from: FROM, to: TO });
    expect(want.length).toBeGreaterThan(200);
    // stderr is no terminal here: the summary is a plain line.
    expect(result.stderr).toMatch(
      new RegExp(`^${want.length} recognitions from \\d+ pages written to ${out}\\.\\n$`),
    );
    expect(want.map((each) => each.message)).toEqual(expect.arrayContaining(AWKWARD_MESSAGES));
    const text = readFileSync(out, 'utf8');
    expect(
      text.startsWith(
        'id,created_at,sender_id,sender_name,recipient_id,recipient_name,message,points\r\n',
      ),
    ).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parse(text, { columns: true });
    expect(rows).toEqual(want.map(asCsvRow));
  });

  it('streams JSON Lines to a pipe with stdout holding records only, JSON.parse reading each back', async () => {
    const result = await cli.run(['export', 'recognitions', '--format', 'jsonl'], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^\d+ recognitions from \d+ pages\.\n$/);
    const lines = result.stdout.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line))).toEqual(await expected());
  });

  it('takes the format from a .jsonl --out file', async () => {
    const out = join(cli.project, 'range.jsonl');
    const result = await cli.run(
      ['export', 'recognitions', '--from', FROM, '--to', TO, '--out', out],
      {
        env,
      },
    );
    expect(result.code).toBe(0);
    const records = readFileSync(out, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records).toEqual(await expected({ from: FROM, to: TO }));
  });

  it('on Ctrl-C stops at the last whole record, leaves a well-formed file and exits 130', async () => {
    const out = join(cli.project, 'interrupted.csv');
    // The first page comes at once; the second hangs until the export is interrupted.
    server.api.faults.delayNext('GET /v1/recognitions', 0);
    server.api.faults.delayNext('GET /v1/recognitions', 60_000);
    const running = cli.start(['export', 'recognitions', '--out', out], { env });
    try {
      // Bounded: the first page is written within a few seconds or the test fails.
      for (let waited = 0; countRecords(out) < 100; waited += 50) {
        if (waited > 15_000) throw new Error(`the first page was not written: ${running.stderr()}`);
        await sleep(50);
      }
      running.child.kill('SIGINT');
      const result = await running.exited;
      expect(result.code).toBe(130);
      expect(result.stderr).toContain(
        `Interrupted: 100 recognitions from 1 page written to ${out}.`,
      );
      const rows = parse(readFileSync(out, 'utf8'), { columns: true });
      expect(rows).toEqual((await expected()).slice(0, 100).map(asCsvRow));
    } finally {
      server.api.faults.clear();
      running.child.kill('SIGKILL');
    }
  });

  it('reports a range the SDK refuses before sending as bad usage, exit 2, writing nothing', async () => {
    const sent = server.api.requests.length;
    const result = await cli.run(['export', 'recognitions', '--from', 'last tuesday'], { env });
    expect(result.code).toBe(2);
    // The SDK's own check of the range, with the command's usage line.
    expect(result.stderr).toMatch(
      /^employee-recognition export: --from: .*\nUsage: employee-recognition export recognitions/,
    );
    expect(result.stdout).toBe('');
    expect(server.api.requests).toHaveLength(sent);
  });

  it('exits 2 on a format it does not write or something other than recognitions to export', async () => {
    const format = await cli.run(['export', 'recognitions', '--format', 'xml'], { env });
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('--format must be csv or jsonl');
    const users = await cli.run(['export', 'users'], { env });
    expect(users.code).toBe(2);
  });
});

// Whole records in a CSV file being written; 0 while it does not parse yet.
function countRecords(file: string): number {
  try {
    return parse(readFileSync(file, 'utf8'), { columns: true }).length;
  } catch {
    return 0;
  }
}
