import { constants } from 'node:fs';
import { type FileHandle, lstat, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, ConfigurationError, type Webhook } from '@employee-recognition/sdk';
import type * as WebhooksEntry from '@employee-recognition/sdk/webhooks';
import type {
  WebhookReceiver,
  WebhookSyncResult,
  WebhookSyncStep,
} from '@employee-recognition/sdk/webhooks';
import { ENV_API_KEY, ENV_BASE_URL } from '../contract.js';
import {
  type Command,
  CONNECTION,
  describe,
  EXIT,
  parseCommandArgs,
  printable,
  reportError,
  stderrLogger,
  UsageError,
} from './command.js';

const SUBCOMMANDS = ['sync', 'list', 'rotate'] as const;
/** The options each subcommand takes (its help says so); any other is named as a mistake. */
const SUBCOMMAND_OPTIONS: Record<(typeof SUBCOMMANDS)[number], readonly string[]> = {
  sync: ['url', 'events', 'receiver', 'description', 'secret-file', 'recover-secret', 'dry-run'],
  list: ['json'],
  rotate: ['url', 'secret-file', 'dry-run'],
};

const OPTIONS = {
  url: { type: 'string' },
  events: { type: 'string', multiple: true, conflicts: ['receiver'] },
  receiver: { type: 'string' },
  description: { type: 'string' },
  'secret-file': { type: 'string' },
  'recover-secret': { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
  ...CONNECTION.options,
} as const;

/** `employee-recognition webhooks`: the service's webhook subscriptions, kept as code. */
export const webhooks: Command = {
  name: 'webhooks',
  summary: "Keep the service's webhook subscription in step with a receiver, list, rotate",
  help: `Usage: employee-recognition webhooks <sync|list|rotate> [options]

Works on the service's webhooks with the credential of ${ENV_API_KEY} and the base URL of
--base-url, else ${ENV_BASE_URL}: the real service, or the mock of \`employee-recognition mock\`.

  webhooks sync --url <url> (--events <names> | --receiver <module>) [options]
      Makes the webhook for <url> match the events: creates it, updates its events or enables
      it where they differ, writes nothing when they match. Two webhooks for <url> are a
      secret rotation in progress, kept in step; three or more stop it.
  webhooks list [--json]
      Prints every webhook as a table, or as a JSON array with --json.
  webhooks rotate start --url <url>
      Creates a second webhook for <url>, a copy of the first, and gives its new secret.
      Serve both secrets (createWebhookReceiver({ secret: [newSecret, oldSecret] })), then:
  webhooks rotate finish --url <url>
      Deletes the older webhook.

A new secret is shown once. It goes only to --secret-file, or to stdout when stdout is a
terminal: a command that would create a webhook refuses to run without one of them, so no
secret reaches a CI log. --secret-file refuses (exit 2) a symbolic link or anything but a
regular file, and a directory another user owns or can write to without the sticky bit.

Options:
  --url <url>            The receiver's URL: the webhook's url (sync, rotate)
  --events <names>       Event types, groups (recognition, team…) or * for every event,
                         comma-separated or repeated (sync)
  --receiver <module>    A JavaScript module exporting the receiver (as \`receiver\` or
                         default): its handlers give the events (sync)
  --description <text>   The webhook's description, kept in step (sync)
  --secret-file <path>   Where a new secret is written, with mode 0600 (sync, rotate start)
  --recover-secret       The secret was lost (an earlier run's answer never arrived): send
                         the create again within 24 h, and the service replays it (sync)
  --dry-run              Print what would be written; write nothing
  --json                 Print the webhooks as a JSON array, one line (list)
${CONNECTION.help}
  -h, --help             Show this help`,
  options: OPTIONS,
  connects: true,
  async run(args) {
    const parsed = parseCommandArgs(this, args, OPTIONS);
    if (!parsed) return EXIT.ok;
    const { values, positionals } = parsed;
    const [subcommand, step, extra] = positionals;
    if (!SUBCOMMANDS.includes(subcommand as (typeof SUBCOMMANDS)[number])) {
      throw new UsageError(
        `Say what to do: webhooks ${SUBCOMMANDS.join(', webhooks ')}${subcommand ? `, not "${subcommand}"` : ''}.`,
      );
    }
    const rotateStep = subcommand === 'rotate' ? step : undefined;
    const unexpected = subcommand === 'rotate' ? extra : step;
    if (unexpected !== undefined) throw new UsageError(`Unexpected argument "${unexpected}".`);
    if (subcommand === 'rotate' && rotateStep !== 'start' && rotateStep !== 'finish') {
      throw new UsageError('Say which step: webhooks rotate start, or webhooks rotate finish.');
    }
    for (const name of Object.keys(values)) {
      if (
        name === 'base-url' ||
        SUBCOMMAND_OPTIONS[subcommand as (typeof SUBCOMMANDS)[number]].includes(name)
      )
        continue;
      const takers = SUBCOMMANDS.filter((each) => SUBCOMMAND_OPTIONS[each].includes(name));
      throw new UsageError(
        `--${name} goes with webhooks ${takers.join(' or webhooks ')}, not webhooks ${subcommand}.`,
      );
    }
    if (subcommand !== 'list' && values.url === undefined) {
      throw new UsageError('--url is required: the URL the webhook delivers to.');
    }
    const dryRun = values['dry-run'] ?? false;
    const secretFile = values['secret-file'];

    // Loaded here, so the other commands start without the webhooks entry.
    const sdk = await import('@employee-recognition/sdk/webhooks');
    let receiver: Pick<WebhookReceiver, 'events'> | undefined;
    if (subcommand === 'sync') receiver = await eventsReceiver(sdk, values.events, values.receiver);

    let client: Client;
    try {
      client = new Client({ ...CONNECTION.clientOptions(values), logger: stderrLogger() });
    } catch (error) {
      return reportError(error);
    }
    // Checked before anything is written: a secret made and then lost cannot be shown again.
    const secretOut = secretFile === undefined ? undefined : await SecretFile.prepare(secretFile);
    const canShowSecret = secretOut !== undefined || process.stdout.isTTY === true;
    try {
      if (subcommand === 'list') {
        const { data } = await client.webhooks.list();
        process.stdout.write(
          values.json ? `${JSON.stringify(data.map(withoutSecret))}\n` : table(data),
        );
        return EXIT.ok;
      }
      const url = values.url!;
      if (subcommand === 'rotate') {
        if (rotateStep === 'start' && !dryRun && !canShowSecret) throw refusal();
        const result = await sdk.rotateWebhookSecret(client, {
          url,
          step: rotateStep as 'start' | 'finish',
          dryRun,
        });
        printSteps(result.plan, dryRun);
        if (rotateStep === 'finish' && result.plan.length === 0) {
          process.stdout.write(`Nothing to finish: one webhook serves ${printable(url)}.\n`);
        }
        const again = `employee-recognition webhooks rotate start --url ${shellWord(url)} --secret-file <path>`;
        if (result.secret && !(await showSecret(result.secret, secretOut, again))) {
          return EXIT.failure;
        }
        if (rotateStep === 'start' && !dryRun) {
          process.stdout.write(
            `Serve both secrets, the new and the old, then: employee-recognition webhooks rotate finish --url ${printable(url)}\n`,
          );
        }
        return EXIT.ok;
      }
      const options = {
        url,
        description: values.description,
        recoverSecret: values['recover-secret'],
      };
      // Without a place for a secret, find out first whether there would be one.
      if (!dryRun && !canShowSecret) {
        const plan = await sdk.syncWebhooks(client, receiver!, { ...options, dryRun: true });
        if (plan.plan.some(makesSecret)) throw refusal();
      }
      const result = await sdk.syncWebhooks(client, receiver!, { ...options, dryRun });
      printSync(result, dryRun);
      const again = [
        `employee-recognition webhooks sync --url ${shellWord(url)}`,
        values.events ? `--events ${shellWord(result.events.join(','))}` : '',
        values.receiver ? `--receiver ${shellWord(values.receiver)}` : '',
        values.description === undefined ? '' : `--description ${shellWord(values.description)}`,
        values['base-url'] ? `--base-url ${shellWord(values['base-url'])}` : '',
        '--recover-secret --secret-file <path>',
      ];
      if (
        result.secret &&
        !(await showSecret(result.secret, secretOut, again.filter(Boolean).join(' ')))
      ) {
        return EXIT.failure;
      }
      return EXIT.ok;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      return reportError(error);
    } finally {
      await secretOut?.discard();
    }
  },
};

/** The receiver whose events sync follows: one made of `--events`, or the module's. */
async function eventsReceiver(
  sdk: typeof WebhooksEntry,
  events: string[] | undefined,
  module: string | undefined,
): Promise<Pick<WebhookReceiver, 'events'>> {
  // Both at once is refused by parseCommandArgs (`conflicts`).
  if (events === undefined && module === undefined) {
    throw new UsageError('Give the events with --events, or a receiver module with --receiver.');
  }
  if (module !== undefined) return loadReceiver(module);
  const receiver = sdk.createWebhookReceiver();
  const noop = () => {};
  for (const name of events!.flatMap((each) => each.split(',')).map((each) => each.trim())) {
    try {
      if (name === '*') receiver.onAny(noop);
      else receiver.on(name as never, noop);
    } catch (error) {
      if (!(error instanceof ConfigurationError)) throw error;
      throw new UsageError(
        `--events: "${name}" is no event type or group; see employee-recognition trigger --help.`,
      );
    }
  }
  return receiver;
}

/** The receiver a module exports, as `receiver`, as its default, or as its only receiver. */
export async function loadReceiver(path: string): Promise<Pick<WebhookReceiver, 'events'>> {
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`--receiver: cannot load ${path}: ${describe(error)}`);
  }
  const receivers = Object.entries(exports).filter(([, value]) => isReceiver(value));
  const chosen =
    receivers.find(([name]) => name === 'receiver') ??
    receivers.find(([name]) => name === 'default') ??
    (receivers.length === 1 ? receivers[0] : undefined);
  if (!chosen) {
    throw new UsageError(
      `--receiver: ${path} exports ${receivers.length ? 'several receivers; name one `receiver`' : 'no receiver of this SDK version (createWebhookReceiver)'}.`,
    );
  }
  const receiver = chosen[1] as Pick<WebhookReceiver, 'events'>;
  if (receiver.events.length === 0) {
    throw new UsageError(`--receiver: the receiver of ${path} has no handlers (on, onAny).`);
  }
  return receiver;
}

function isReceiver(value: unknown): boolean {
  const candidate = value as Partial<WebhookReceiver> | null;
  return (
    typeof candidate?.receive === 'function' &&
    typeof candidate.on === 'function' &&
    Array.isArray(candidate.events)
  );
}

function makesSecret(step: WebhookSyncStep): boolean {
  return step.operation === 'create' || step.operation === 'recover_secret';
}

function refusal(): UsageError {
  return new UsageError(
    'This would create a webhook, whose secret is shown once, and stdout is not a terminal: ' +
      'pass --secret-file <path> (written with mode 0600), so the secret stays out of logs.',
  );
}

function printSync(result: WebhookSyncResult, dryRun: boolean): void {
  const { webhook, plan, rotation } = result;
  if (plan.length === 0) {
    process.stdout.write(
      `In step: webhook ${printable(webhook!.id)} has ${printable(result.events.join(', '))}.\n`,
    );
  }
  printSteps(plan, dryRun);
  if (rotation) {
    process.stdout.write(
      `A secret rotation is in progress (${printable(rotation.previous.id)} -> ${printable(rotation.current.id)}): both are kept in step. ` +
        `Once the receiver serves the new secret: employee-recognition webhooks rotate finish --url ${printable(rotation.current.url)}\n`,
    );
  }
}

function printSteps(plan: readonly WebhookSyncStep[], dryRun: boolean): void {
  const verb = (text: string) =>
    dryRun ? `Would ${text}` : text[0]!.toUpperCase() + text.slice(1);
  for (const step of plan) {
    let line: string;
    if (step.operation === 'create') {
      line = `${verb('create')} a webhook for ${step.params.url}: ${step.params.events.join(', ')}`;
      if (step.reason === 'rotation') line += ' (the rotation’s new webhook)';
    } else if (step.operation === 'update') {
      const changes = Object.entries(step.params).map(
        ([field, value]) => `${field} ${Array.isArray(value) ? value.join(', ') : String(value)}`,
      );
      line = `${verb('update')} webhook ${step.webhookId || '(new)'}: ${changes.join('; ')}`;
    } else if (step.operation === 'delete') {
      line = `${verb('delete')} webhook ${step.webhookId}`;
    } else {
      line = `${verb('recover')} the secret of webhook ${step.webhookId}`;
    }
    // Ids come from the service, the URL and events from the caller: none is trusted to print.
    process.stdout.write(`${printable(line)}${dryRun ? '' : '.'}\n`);
  }
}

/**
 * The secret to its file, else to the terminal; never to anything else. Whether stdout is a
 * terminal is asked again here: the check before the run can be outrun (a webhook deleted
 * between the plan and the run is created). Without either, the secret stays unshown, stderr
 * gives `again` (the command that recovers it within 24 h), and this resolves to false.
 */
async function showSecret(
  secret: string,
  file: SecretFile | undefined,
  again: string,
): Promise<boolean> {
  if (file) {
    await file.commit(secret);
    process.stdout.write(`Secret written to ${printable(file.path)} (mode 0600).\n`);
  } else if (process.stdout.isTTY === true) {
    process.stdout.write(`Secret (shown once, store it now): ${secret}\n`);
  } else {
    process.stderr.write(
      'A webhook was created, and stdout is not a terminal: its secret is not shown, so it stays out of logs. ' +
        `Within 24 h, get it back into a file: ${printable(again)}\n`,
    );
    return false;
  }
  return true;
}

/** `text` as one shell word, in single quotes (and printable). */
function shellWord(text: string): string {
  return `'${printable(text).replaceAll("'", "'\\''")}'`;
}

/**
 * The file a new secret goes to, made so that no other local user can redirect or read it:
 * - refused (a UsageError, exit 2) when the target is a symbolic link or not a regular file, or
 *   its directory is owned by another user (root aside) or writable by others without the sticky
 *   bit, where anyone could swap a file for a link while the secret is written;
 * - a temporary file beside it, opened with `O_EXCL` and `O_NOFOLLOW` (where the platform has
 *   them) and mode 0600, before anything is sent (so a path that cannot be written fails first),
 *   its owner and mode checked on the open handle;
 * - the secret written through that handle, never by reopening the name, then renamed over the
 *   target (atomic), once the name still leads to the file written.
 */
class SecretFile {
  #committed = false;

  private constructor(
    readonly path: string,
    private readonly temp: string,
    private readonly handle: FileHandle,
    private readonly inode: number,
  ) {}

  static async prepare(path: string): Promise<SecretFile> {
    const refuse = (reason: string) =>
      new UsageError(`--secret-file: refusing ${printable(path)}: ${reason}.`);
    const uid = process.getuid?.();
    const target = await lstat(path).catch(() => undefined);
    if (target?.isSymbolicLink()) throw refuse('it is a symbolic link');
    if (target && !target.isFile()) throw refuse('it is not a regular file');
    const dir = await stat(dirname(resolve(path))).catch(() => undefined);
    if (dir && uid !== undefined && dir.uid !== uid && dir.uid !== 0) {
      throw refuse('its directory belongs to another user, who could replace the file');
    }
    if (dir && dir.mode & 0o022 && !(dir.mode & 0o1000)) {
      throw refuse(
        'its directory is writable by other users without the sticky bit, so they could redirect the secret',
      );
    }
    const temp = `${path}.${process.pid}.tmp`;
    const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW = 0 } = constants;
    let handle: FileHandle;
    try {
      handle = await open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
    } catch (error) {
      throw new UsageError(`--secret-file: cannot write ${printable(path)}: ${describe(error)}`);
    }
    try {
      // A umask may have taken bits away; none may be added.
      await handle.chmod(0o600);
      const made = await handle.stat();
      if ((uid !== undefined && made.uid !== uid) || (made.mode & 0o777) !== 0o600) {
        throw refuse('the file made for it is not owned by you with mode 0600');
      }
      return new SecretFile(path, temp, handle, made.ino);
    } catch (error) {
      await handle.close();
      await rm(temp, { force: true });
      throw error instanceof UsageError
        ? error
        : new UsageError(`--secret-file: cannot write ${printable(path)}: ${describe(error)}`);
    }
  }

  async commit(secret: string): Promise<void> {
    try {
      await this.handle.writeFile(`${secret}\n`);
      await this.handle.sync();
      // The rename moves a name: it must still lead to the file written.
      if ((await lstat(this.temp)).ino !== this.inode) {
        throw new Error(`${this.temp} was replaced while the secret was written`);
      }
      await rename(this.temp, this.path);
      this.#committed = true;
    } catch (error) {
      // The webhook exists and its secret is known only to this process: the way back is a rerun.
      throw new ConfigurationError(
        'secret-file',
        `Cannot write the secret to ${printable(this.path)}: ${describe(error)}. Run again with --recover-secret and a --secret-file that can be written, within 24 h.`,
      );
    } finally {
      await this.handle.close().catch(() => {});
    }
  }

  async discard(): Promise<void> {
    await this.handle.close().catch(() => {});
    if (this.#committed) return;
    // Only the file this run made: the name may lead elsewhere by now.
    const current = await lstat(this.temp).catch(() => undefined);
    if (current?.ino === this.inode) await rm(this.temp, { force: true });
  }
}

// Each cell reads its field as the service sent it: the list's records are not checked beyond
// its envelope, and a field of another shape shows as it came (`cell`), never as a TypeError.
const COLUMNS: [string, (webhook: Webhook) => string][] = [
  ['ID', (webhook) => cell(webhook.id)],
  ['URL', (webhook) => cell(webhook.url)],
  ['EVENTS', (webhook) => cell(webhook.events)],
  [
    'ENABLED',
    (webhook) =>
      typeof webhook.enabled === 'boolean'
        ? webhook.enabled
          ? 'yes'
          : 'no'
        : cell(webhook.enabled),
  ],
  ['CREATED', (webhook) => cell(webhook.created_at)],
  ['DESCRIPTION', (webhook) => cell(webhook.description ?? '')],
];

/** A field as one printable cell: a string as it is, a list of strings comma-joined, else JSON. */
function cell(value: unknown): string {
  const text =
    typeof value === 'string'
      ? value
      : Array.isArray(value) && value.every((each) => typeof each === 'string')
        ? value.join(',')
        : (JSON.stringify(value) ?? String(value));
  return printable(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}

/**
 * The webhook as the service listed it, fields added later included, less any `secret`: the
 * service shows a secret only on creation, and one echoed into a list must not reach a CI log.
 */
function withoutSecret(webhook: Webhook): Record<string, unknown> {
  const { secret: _secret, ...rest } = webhook as Webhook & { secret?: unknown };
  return rest;
}

/** The webhooks as a table: a header row, columns padded to their widest cell. */
function table(webhooks: readonly Webhook[]): string {
  if (webhooks.length === 0) return 'No webhooks.\n';
  const rows = [
    COLUMNS.map(([name]) => name),
    ...webhooks.map((webhook) => COLUMNS.map(([, read]) => read(webhook))),
  ];
  const widths = COLUMNS.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
    .concat('\n');
}
