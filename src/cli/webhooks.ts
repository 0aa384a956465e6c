import { open, rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
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
  describe,
  EXIT,
  parseCommandArgs,
  reportError,
  stderrLogger,
  UsageError,
} from './command.js';

const SUBCOMMANDS = ['sync', 'list', 'rotate'] as const;

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
secret reaches a CI log.

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
  --base-url <url>       The API's base URL (default: $${ENV_BASE_URL}, else the service)
  -h, --help             Show this help`,
  async run(args) {
    const parsed = parseCommandArgs(this, args, {
      url: { type: 'string' },
      events: { type: 'string', multiple: true },
      receiver: { type: 'string' },
      description: { type: 'string' },
      'secret-file': { type: 'string' },
      'recover-secret': { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      json: { type: 'boolean' },
      'base-url': { type: 'string' },
    });
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
    if (values.json && subcommand !== 'list') {
      throw new UsageError('--json goes with webhooks list only.');
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
      client = new Client({ baseUrl: values['base-url'], logger: stderrLogger() });
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
          process.stdout.write(`Nothing to finish: one webhook serves ${url}.\n`);
        }
        if (result.secret) await showSecret(result.secret, secretOut);
        if (rotateStep === 'start' && !dryRun) {
          process.stdout.write(
            `Serve both secrets, the new and the old, then: employee-recognition webhooks rotate finish --url ${url}\n`,
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
      if (result.secret) await showSecret(result.secret, secretOut);
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
  if ((events === undefined) === (module === undefined)) {
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
  return chosen[1] as Pick<WebhookReceiver, 'events'>;
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
    process.stdout.write(`In step: webhook ${webhook!.id} has ${result.events.join(', ')}.\n`);
  }
  printSteps(plan, dryRun);
  if (rotation) {
    process.stdout.write(
      `A secret rotation is in progress (${rotation.previous.id} -> ${rotation.current.id}): both are kept in step. ` +
        `Once the receiver serves the new secret: employee-recognition webhooks rotate finish --url ${rotation.current.url}\n`,
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
    process.stdout.write(`${line}${dryRun ? '' : '.'}\n`);
  }
}

/** The secret to its file, else to the terminal; never to anything else. */
async function showSecret(secret: string, file: SecretFile | undefined): Promise<void> {
  if (file) {
    await file.commit(secret);
    process.stdout.write(`Secret written to ${file.path} (mode 0600).\n`);
  } else {
    process.stdout.write(`Secret (shown once, store it now): ${secret}\n`);
  }
}

/**
 * The file a new secret goes to: created empty with mode 0600 before anything is sent (so a
 * path that cannot be written fails first), filled, then renamed over `path`.
 */
class SecretFile {
  #committed = false;

  private constructor(
    readonly path: string,
    private readonly temp: string,
  ) {}

  static async prepare(path: string): Promise<SecretFile> {
    const temp = `${path}.${process.pid}.tmp`;
    try {
      await (await open(temp, 'wx', 0o600)).close();
    } catch (error) {
      throw new UsageError(`--secret-file: cannot write ${path}: ${describe(error)}`);
    }
    return new SecretFile(path, temp);
  }

  async commit(secret: string): Promise<void> {
    try {
      const handle = await open(this.temp, 'w', 0o600);
      try {
        await handle.writeFile(`${secret}\n`);
      } finally {
        await handle.close();
      }
      await rename(this.temp, this.path);
      this.#committed = true;
    } catch (error) {
      // The webhook exists and its secret is known only to this process: the way back is a rerun.
      throw new ConfigurationError(
        'secret-file',
        `Cannot write the secret to ${this.path}: ${describe(error)}. Run again with --recover-secret and a --secret-file that can be written, within 24 h.`,
      );
    }
  }

  async discard(): Promise<void> {
    if (!this.#committed) await rm(this.temp, { force: true });
  }
}

const COLUMNS: [string, (webhook: Webhook) => string][] = [
  ['ID', (webhook) => webhook.id],
  ['URL', (webhook) => webhook.url],
  ['EVENTS', (webhook) => webhook.events.join(',')],
  ['ENABLED', (webhook) => (webhook.enabled ? 'yes' : 'no')],
  ['CREATED', (webhook) => webhook.created_at],
  ['DESCRIPTION', (webhook) => webhook.description ?? ''],
];

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
  // Control characters would break the rows; the service's text is not trusted to lack them.
  const clean = (text: string) => text.replace(/\p{Cc}/gu, ' ');
  const rows = [
    COLUMNS.map(([name]) => name),
    ...webhooks.map((webhook) => COLUMNS.map(([, read]) => clean(read(webhook)))),
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
