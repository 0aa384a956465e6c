/**
 * `employee-recognition webhooks` in this process against the kit's mock over real HTTP: the
 * secret's only two destinations, the refusal without one, the table, the dry run, a receiver
 * module's handlers, and the rotation's two steps.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockServer, startMockServer } from '@employee-recognition/sdk/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/cli/command.js';
import { webhooks } from '../../src/cli/webhooks.js';
import { ENV_API_KEY, ENV_BASE_URL, WEBHOOK_EVENT_TYPES } from '../../src/contract.js';
import { listedWebhook } from '../webhooks/fixtures.js';

let server: MockServer;
/** A webhook for URL_ as the service lists it, with `fields` instead of its own. */
const listed = (fields: Record<string, unknown> = {}) => listedWebhook(URL_, fields);
let dir: string;
let stdout: string;
let stderr: string;
const URL_ = 'http://127.0.0.1:9/webhooks';

beforeEach(async () => {
  server = await startMockServer({ recognitions: 5 });
  vi.stubEnv(ENV_API_KEY, server.api.testKey);
  vi.stubEnv(ENV_BASE_URL, '');
  dir = mkdtempSync(join(tmpdir(), 'webhooks-cli-'));
  stdout = '';
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  terminal(false);
});
afterEach(async () => {
  terminal(undefined);
  rmSync(dir, { recursive: true, force: true });
  await server.close();
});

/** Whether stdout is a terminal, as the command sees it. */
function terminal(isTTY: boolean | undefined): void {
  Object.defineProperty(process.stdout, 'isTTY', { value: isTTY, configurable: true });
}

const run = (...args: string[]) => webhooks.run([...args, '--base-url', server.url]);
const stored = () => server.api.store.webhooks.all();

/** `webhooks sync --url URL_` with the events of `source`, the secret going to a file in `dir`. */
async function syncToFile(...source: string[]) {
  const file = join(dir, 'secret');
  const code = await run('sync', '--url', URL_, ...source, '--secret-file', file);
  expect(stderr).not.toContain('whsec_');
  expect(code).toBe(0);
  return file;
}

describe('webhooks sync', () => {
  it('creates the webhook and writes its secret only to --secret-file, with mode 0600', async () => {
    const file = await syncToFile('--events', 'recognition.created,team');
    const [webhook] = stored();
    expect(webhook?.events).toEqual(
      WEBHOOK_EVENT_TYPES.filter(
        (type) => type === 'recognition.created' || type.startsWith('team.'),
      ),
    );
    expect(readFileSync(file, 'utf8')).toBe(`${webhook!.secret}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(stdout).toContain(`Secret written to ${file} (mode 0600).`);
    expect(stdout).not.toContain('whsec_');
    // Nothing else is left in the directory: the temporary file was renamed over the secret's.
    expect(readdirSync(dir).sort()).toEqual(['secret']);
  });

  it('refuses to create without --secret-file when stdout is not a terminal, sending no write', async () => {
    await expect(run('sync', '--url', URL_, '--events', '*')).rejects.toThrow(UsageError);
    await expect(run('sync', '--url', URL_, '--events', '*')).rejects.toThrow(/--secret-file/);
    expect(stored()).toEqual([]);
    expect(server.api.requests.map(({ method }) => method)).toEqual(['GET', 'GET']);
  });

  it('needs no secret destination when nothing would be created', async () => {
    await run('sync', '--url', URL_, '--events', 'user', '--secret-file', join(dir, 'secret'));
    stdout = '';
    expect(await run('sync', '--url', URL_, '--events', 'user')).toBe(0);
    expect(stdout).toMatch(
      /^In step: webhook [0-9a-f-]{36} has user.created, user.updated, user.deactivated\.\n$/,
    );
    expect(await run('sync', '--url', URL_, '--events', 'user,budget')).toBe(0);
    expect(stdout).toMatch(
      /Update webhook [0-9a-f-]{36}: events user.created, .*budget.depleted\./,
    );
  });

  it('prints the secret once on an interactive terminal', async () => {
    terminal(true);
    expect(await run('sync', '--url', URL_, '--events', '*')).toBe(0);
    const [webhook] = stored();
    expect(stdout).toBe(
      `Create a webhook for ${URL_}: *.\nSecret (shown once, store it now): ${webhook!.secret}\n`,
    );
    expect(stderr).not.toContain(webhook!.secret);
  });

  it('keeps the secret unshown when a webhook vanishes between the check and the run, and says how to recover it', async () => {
    // The check's list still shows the webhook; by the run's list it is gone, so the run creates.
    server.api.faults.failNext('GET /v1/webhooks', {
      status: 200,
      body: { data: [listed({ events: ['*'] })] },
    });
    expect(await run('sync', '--url', URL_, '--events', '*')).toBe(1);
    const [webhook] = stored();
    expect(webhook).toBeDefined();
    expect(stdout + stderr).not.toContain(webhook!.secret);
    expect(stdout + stderr).not.toContain('whsec_');
    const command = `employee-recognition webhooks sync --url '${URL_}' --events '*' --base-url '${server.url}' --recover-secret --secret-file <path>`;
    expect(stderr).toContain(
      `its secret is not shown, so it stays out of logs. Within 24 h, get it back into a file: ${command}\n`,
    );
    // The command given recovers it.
    const file = join(dir, 'recovered');
    expect(
      await run('sync', '--url', URL_, '--events', '*', '--recover-secret', '--secret-file', file),
    ).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(`${webhook!.secret}\n`);
    expect(stored()).toHaveLength(1);
  });

  it('plans on --dry-run, writing nothing and needing no secret destination', async () => {
    expect(await run('sync', '--url', URL_, '--events', 'reward', '--dry-run')).toBe(0);
    expect(stdout).toBe(
      `Would create a webhook for ${URL_}: reward.created, reward.updated, reward.deleted, reward.redeemed\n`,
    );
    expect(stored()).toEqual([]);
  });

  it("takes the events from a receiver module's handlers", async () => {
    await syncToFile('--receiver', 'examples/webhooks/receiver.ts');
    // The handlers of examples/webhooks/receiver.ts: two types and the budget group.
    const handled = new Set([
      'recognition.created',
      'team.member_added',
      'budget.created',
      'budget.updated',
      'budget.depleted',
    ]);
    expect(stored()[0]?.events).toEqual(WEBHOOK_EVENT_TYPES.filter((type) => handled.has(type)));
  });

  it('refuses bad input before sending anything', async () => {
    const module = join(dir, 'nothing.mjs');
    writeFileSync(module, 'export const answer = 42;\n');
    await expect(run('sync', '--url', URL_, '--events', 'recognition.made')).rejects.toThrow(
      /"recognition\.made" is no event type or group/,
    );
    await expect(run('sync', '--url', URL_, '--receiver', module)).rejects.toThrow(/no receiver/);
    await expect(run('sync', '--url', URL_)).rejects.toThrow(/--events.*--receiver/);
    await expect(run('sync', '--events', '*')).rejects.toThrow(/--url is required/);
    await expect(run('rotate', '--url', URL_)).rejects.toThrow(/rotate start/);
    await expect(run('prune')).rejects.toThrow(/not "prune"/);
    expect(server.api.requests).toEqual([]);
  });

  it('reports a failed write with its typed error and exit code 1', async () => {
    server.api.faults.failNext('POST /v1/webhooks', { status: 422 });
    const code = await run('sync', '--url', URL_, '--events', '*', '--secret-file', join(dir, 's'));
    expect(code).toBe(1);
    expect(stderr).toMatch(/^WebhookSyncError: The create step failed after 0 of 1 writes/m);
    expect(readdirSync(dir).sort()).toEqual([]);
  });
});

describe('webhooks --secret-file', () => {
  it('refuses a symbolic link or a directory as the target, with exit 2, before sending anything', async () => {
    const elsewhere = join(dir, 'elsewhere');
    writeFileSync(elsewhere, 'theirs\n');
    symlinkSync(elsewhere, join(dir, 'link'));
    mkdirSync(join(dir, 'folder'));
    for (const [target, reason] of [
      ['link', 'it is a symbolic link'],
      ['folder', 'it is not a regular file'],
    ]) {
      const file = join(dir, target!);
      await expect(
        run('sync', '--url', URL_, '--events', '*', '--secret-file', file),
      ).rejects.toThrow(new UsageError(`--secret-file: refusing ${file}: ${reason}.`));
    }
    expect(readFileSync(elsewhere, 'utf8')).toBe('theirs\n');
    expect(server.api.requests).toEqual([]);
  });

  it('refuses a directory others can write to without the sticky bit, and takes one with it', async () => {
    const shared = join(dir, 'shared');
    mkdirSync(shared);
    for (const mode of [0o777, 0o770]) {
      chmodSync(shared, mode);
      await expect(
        run('sync', '--url', URL_, '--events', '*', '--secret-file', join(shared, 's')),
      ).rejects.toThrow(/its directory is writable by other users without the sticky bit/);
    }
    expect(server.api.requests).toEqual([]);
    chmodSync(shared, 0o1777);
    expect(
      await run('sync', '--url', URL_, '--events', '*', '--secret-file', join(shared, 's')),
    ).toBe(0);
    expect(readFileSync(join(shared, 's'), 'utf8')).toBe(`${stored()[0]!.secret}\n`);
    expect(statSync(join(shared, 's')).mode & 0o777).toBe(0o600);
  });

  it('does not follow a link planted at the temporary name', async () => {
    const file = join(dir, 'secret');
    const theirs = join(dir, 'theirs');
    writeFileSync(theirs, '');
    symlinkSync(theirs, `${file}.${process.pid}.tmp`);
    await expect(
      run('sync', '--url', URL_, '--events', '*', '--secret-file', file),
    ).rejects.toThrow(/--secret-file: cannot write/);
    expect(readFileSync(theirs, 'utf8')).toBe('');
    expect(server.api.requests).toEqual([]);
  });

  it('writes through the file it opened: a link swapped in while the create is in flight gets nothing', async () => {
    const file = join(dir, 'secret');
    const theirs = join(dir, 'theirs');
    writeFileSync(theirs, '');
    const temp = `${file}.${process.pid}.tmp`;
    const insert = server.api.store.webhooks.insert.bind(server.api.store.webhooks);
    vi.spyOn(server.api.store.webhooks, 'insert').mockImplementation((...args) => {
      // Another user's swap, between the file's creation and the secret's write.
      rmSync(temp);
      symlinkSync(theirs, temp);
      return insert(...args);
    });
    expect(await run('sync', '--url', URL_, '--events', '*', '--secret-file', file)).toBe(1);
    expect(stored()).toHaveLength(1);
    expect(readFileSync(theirs, 'utf8')).toBe('');
    expect(existsSync(file)).toBe(false);
    expect(stdout).not.toContain('Secret written');
    expect(stdout + stderr).not.toContain('whsec_');
    expect(stderr).toMatch(
      /Cannot write the secret to .*was replaced while the secret was written.*--recover-secret/,
    );
  });
});

describe('the service’s strings', () => {
  /** An id, events, a URL and a description as a hostile service might list them. */
  const EVIL =
    'wh\u001b[31mred\u001b]8;;https://x.example\u0007\r\nforged: line\u2028also\u202eevil';
  const evil = (n: number, fields: Record<string, unknown> = {}) =>
    listed({ id: `${EVIL}-${n}`, created_at: `2026-11-2${n}T00:00:00Z`, ...fields });
  const listing = (...data: unknown[]) =>
    server.api.faults.failNext('GET /v1/webhooks', { status: 200, body: { data } });

  /** Every line the command printed: no control character but the line end, no forged line. */
  function expectPrintable(): void {
    const lines = `${stdout}${stderr}`.split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      expect(line).not.toMatch(/[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u);
      expect(line).not.toMatch(/^forged/);
    }
    stdout = stderr = '';
  }

  it('are printed without control characters by every message of sync, rotate and list, and in errors', async () => {
    terminal(true);
    // sync: in step, a planned update, a rotation in progress.
    listing(evil(1));
    expect(await run('sync', '--url', URL_, '--events', '*')).toBe(0);
    expect(stdout).toMatch(
      /^In step: webhook wh \[31mred \]8;;https:\/\/x\.example {3}forged: line also evil-1 has \*\.\n$/,
    );
    expectPrintable();
    listing(evil(1, { events: ['user.created'] }));
    expect(await run('sync', '--url', URL_, '--events', '*', '--dry-run')).toBe(0);
    expect(stdout).toMatch(/^Would update webhook wh .*evil-1: events \*\n$/);
    expectPrintable();
    listing(evil(1), evil(2));
    expect(await run('sync', '--url', URL_, '--events', '*')).toBe(0);
    expect(stdout).toContain('A secret rotation is in progress (wh ');
    expectPrintable();
    // rotate: the copy's events, the delete.
    listing(evil(1, { events: [`recognition.created${EVIL}`] }));
    expect(await run('rotate', 'start', '--url', URL_, '--dry-run')).toBe(0);
    expect(stdout).toMatch(
      /^Would create a webhook for .*: recognition\.createdwh .*evil \(the rotation’s new webhook\)\n$/,
    );
    expectPrintable();
    listing(evil(1), evil(2));
    expect(await run('rotate', 'finish', '--url', URL_, '--dry-run')).toBe(0);
    expect(stdout).toMatch(/^Would delete webhook wh .*evil-1\n$/);
    expectPrintable();
    // The ambiguous error, on stderr.
    listing(evil(1), evil(2), evil(3));
    expect(await run('sync', '--url', URL_, '--events', '*')).toBe(1);
    expect(stderr).toMatch(/^WebhookSyncError: 3 webhooks serve /m);
    expectPrintable();
    // list: every column.
    listing(evil(1, { url: `https://hooks.example/${EVIL}`, description: EVIL, events: [EVIL] }));
    expect(await run('list')).toBe(0);
    expect(stdout.split('\n')).toHaveLength(3);
    expectPrintable();
    // An error answer: its message, code, request id and details.
    server.api.faults.failNext('GET /v1/webhooks', {
      status: 422,
      headers: { 'x-request-id': 'req\tforged' },
      body: { error: { code: EVIL, message: EVIL, details: [{ field: EVIL, message: EVIL }] } },
    });
    expect(await run('list')).toBe(1);
    expect(stderr).toMatch(/^UnprocessableEntityError: /m);
    expectPrintable();
  });

  it('of another shape are listed as they came, not as a TypeError', async () => {
    listing(evil(1, { events: 5, enabled: 'yes', description: { text: 'x' } }));
    expect(await run('list')).toBe(0);
    expect(stdout.split('\n')[1]).toMatch(/ 5 +yes +2026-11-21T00:00:00Z +\{"text":"x"\}$/);
  });
});

describe('webhooks list', () => {
  it('prints every webhook as a table, columns aligned', async () => {
    terminal(true);
    await run('sync', '--url', URL_, '--events', 'recognition.created');
    await run(
      'sync',
      '--url',
      'https://hooks.example/er',
      '--events',
      '*',
      '--description',
      'Payroll sync',
    );
    stdout = '';
    expect(await run('list')).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^ID +URL +EVENTS +ENABLED +CREATED +DESCRIPTION$/);
    const [first, second] = stored();
    expect(lines[1]).toMatch(
      new RegExp(`^${first!.id}  ${URL_} +recognition.created  yes +\\S+Z$`),
    );
    expect(lines[2]).toMatch(
      new RegExp(`^${second!.id}  https://hooks.example/er +\\* +yes +\\S+Z  Payroll sync$`),
    );
    // Every column starts where its header does.
    const at = (line: string, text: string) => line.indexOf(text);
    expect(at(lines[1]!, 'yes')).toBe(at(lines[0]!, 'ENABLED'));
    expect(at(lines[2]!, 'yes')).toBe(at(lines[0]!, 'ENABLED'));
  });

  it('says so when there is none', async () => {
    expect(await run('list')).toBe(0);
    expect(stdout).toBe('No webhooks.\n');
  });

  it('prints a JSON array on one line with --json, an empty one when there is none', async () => {
    expect(await run('list', '--json')).toBe(0);
    expect(stdout).toBe('[]\n');
    await syncToFile('--events', 'recognition.created', '--description', 'Payroll sync');
    stdout = '';
    expect(await run('list', '--json')).toBe(0);
    const [webhook] = stored();
    expect(stdout.split('\n')).toHaveLength(2);
    expect(JSON.parse(stdout)).toEqual([
      {
        id: webhook!.id,
        url: URL_,
        events: ['recognition.created'],
        description: 'Payroll sync',
        enabled: true,
        created_at: expect.stringMatching(/Z$/),
      },
    ]);
  });

  it('--json keeps fields the SDK does not know, but never a secret the service echoes', async () => {
    const id = '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
    server.api.faults.failNext('GET /v1/webhooks', {
      status: 200,
      body: {
        data: [
          {
            id,
            url: URL_,
            events: ['*'],
            description: null,
            enabled: false,
            created_at: '2026-11-26T00:00:00Z',
            failures: 3,
            secret: 'whsec_ZWNob2VkIGJhY2sgYnkgYSBzZXJ2aWNl',
          },
        ],
      },
    });
    expect(await run('list', '--json')).toBe(0);
    expect(stdout).not.toContain('whsec_');
    expect(JSON.parse(stdout)).toEqual([
      expect.objectContaining({ id, enabled: false, failures: 3 }),
    ]);
  });

  it('--json with another subcommand is a usage error', async () => {
    await expect(run('sync', '--url', URL_, '--events', '*', '--json')).rejects.toThrow(
      /--json goes with webhooks list, not webhooks (sync|rotate)\./,
    );
  });
});

describe('webhooks rotate', () => {
  it('starts with a new secret in --secret-file, then finishes by deleting the older webhook', async () => {
    await run('sync', '--url', URL_, '--events', '*', '--secret-file', join(dir, 'old'));
    const [old] = stored();
    await expect(run('rotate', 'start', '--url', URL_)).rejects.toThrow(/--secret-file/);
    expect(await run('rotate', 'start', '--url', URL_, '--secret-file', join(dir, 'new'))).toBe(0);
    const [, fresh] = stored();
    expect(readFileSync(join(dir, 'new'), 'utf8')).toBe(`${fresh!.secret}\n`);
    expect(statSync(join(dir, 'new')).mode & 0o777).toBe(0o600);
    expect(stdout).toContain(`webhooks rotate finish --url ${URL_}`);

    stdout = '';
    expect(await run('sync', '--url', URL_, '--events', '*')).toBe(0);
    expect(stdout).toContain(`A secret rotation is in progress (${old!.id} -> ${fresh!.id})`);

    stdout = '';
    expect(await run('rotate', 'finish', '--url', URL_)).toBe(0);
    expect(stdout).toBe(`Delete webhook ${old!.id}.\n`);
    expect(stored().map(({ id }) => id)).toEqual([fresh!.id]);
    stdout = '';
    expect(await run('rotate', 'finish', '--url', URL_)).toBe(0);
    expect(stdout).toBe(`Nothing to finish: one webhook serves ${URL_}.\n`);
  });
});
