/**
 * Webhook subscriptions as code. `syncWebhooks` makes the service's subscription for a URL match
 * a receiver's handlers; `rotateWebhookSecret` replaces its secret without losing a delivery.
 * Both are plain functions over the client's own `webhooks` resource, so a receiver that never
 * syncs bundles none of this (docs/webhooks.md, "Subscriptions as code").
 *
 * The secret appears only in the create answer (contract §3), so every create is sent with an
 * Idempotency-Key derived from what it creates: a rerun within the contract's 24 h (§8) replays
 * the answer, secret included, instead of registering a second webhook.
 */
import type { Client } from '../client.js';
import { IDEMPOTENCY_WINDOW_MS, type WebhookEventType } from '../contract.js';
import { ConfigurationError } from '../core/config.js';
import {
  EmployeeRecognitionError,
  escapeControls,
  InvalidResponseError,
  NotFoundError,
} from '../core/errors.js';
import type {
  Webhook,
  WebhookCreateParams,
  WebhookUpdateParams,
  WebhookWithSecret,
} from '../resources/webhooks.js';
import type { WebhookReceiver } from './receiver.js';

/** What {@link syncWebhooks} and {@link rotateWebhookSecret} need of a client. */
export type WebhookSyncClient = Pick<Client, 'webhooks'>;

/** One write of a plan, in the order it runs. */
export type WebhookSyncStep =
  | {
      /** Registers a webhook; its answer carries the new secret. */
      operation: 'create';
      /** The body sent. */
      params: WebhookCreateParams;
      /** `missing`: no webhook served the URL; `rotation`: the second webhook of a rotation. */
      reason: 'missing' | 'rotation';
    }
  | {
      /** Changes what differs; nothing else is sent. */
      operation: 'update';
      /** The webhook changed. */
      webhookId: string;
      /** The fields that differed, with the values they get. */
      params: WebhookUpdateParams;
    }
  | {
      /** Deletes the webhook a rotation replaced. */
      operation: 'delete';
      /** The webhook deleted. */
      webhookId: string;
    }
  | {
      /** Sends the create that made this webhook again, with its key: the service replays the answer. */
      operation: 'recover_secret';
      /** The webhook whose secret comes back. */
      webhookId: string;
    };

/** Why a sync or a rotation stopped; stable across releases, for code to branch on. */
export type WebhookSyncErrorReason =
  | 'write_failed' // a write failed: `cause` says why, `done` what was written before it
  | 'ambiguous' // three or more webhooks serve the URL: which one is the subscription?
  | 'secret_unrecoverable' // the create is past the replay window, or the webhook changed since
  | 'no_webhook'; // a rotation needs a webhook for the URL, and there is none

/**
 * A sync or rotation that stopped. Nothing is left that the next run cannot finish: every write
 * of a plan is safe to repeat (updates set values, creates replay by their Idempotency-Key), so
 * rerun once the cause is fixed. Never holds a secret.
 */
export class WebhookSyncError extends EmployeeRecognitionError {
  override name = 'WebhookSyncError';
  /** Why it stopped, for code to branch on. */
  readonly reason: WebhookSyncErrorReason;
  /** Every write the run meant to make, in order. */
  readonly plan: readonly WebhookSyncStep[];
  /** The writes made before it stopped. */
  readonly done: readonly WebhookSyncStep[];

  /**
   * @param reason - Why it stopped. @param message - For people.
   * @param progress - The plan, the writes done, and the failure that stopped it, if any.
   */
  constructor(
    reason: WebhookSyncErrorReason,
    message: string,
    progress: {
      plan?: WebhookSyncStep[] | undefined;
      done?: WebhookSyncStep[] | undefined;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: progress.cause });
    this.reason = reason;
    this.plan = progress.plan ?? [];
    this.done = progress.done ?? [];
  }
}

/** Options of {@link syncWebhooks}. */
export interface SyncWebhooksOptions {
  /** Where the receiver listens: the subscription's `url`. */
  url: string;
  /** The subscription's description; when given, kept in step too. Default: left as it is. */
  description?: string | undefined;
  /** Whether deliveries should flow. Default true: a disabled subscription is enabled again. */
  enabled?: boolean | undefined;
  /** Only plan: list the webhooks and return what would be written, writing nothing. */
  dryRun?: boolean | undefined;
  /**
   * You do not hold the subscription's secret (an earlier run's create answer was lost, or its
   * secret was never stored): send that create again so the service replays its answer. Works
   * within the contract's 24 h, while the subscription is as it was created; otherwise the error
   * `secret_unrecoverable`, and the way out is {@link rotateWebhookSecret}.
   */
  recoverSecret?: boolean | undefined;
}

/** What {@link syncWebhooks} found and did. */
export interface WebhookSyncResult {
  /** The `events` the receiver's handlers need. */
  events: (WebhookEventType | '*')[];
  /** The writes the subscription needed, in order; empty when it was in step. */
  plan: WebhookSyncStep[];
  /** The writes made: the plan, or nothing after a dry run. */
  done: WebhookSyncStep[];
  /** The subscription as it now stands (during a rotation, the newer webhook); undefined when a dry run found none. */
  webhook: Webhook | undefined;
  /** The signing secret, only when this run created the webhook or recovered its secret: store it now. */
  secret?: string;
  /** Set while two webhooks serve the URL: a secret rotation in progress, both kept in step. */
  rotation?: {
    /** The older webhook, which the rotation's finish deletes. */
    previous: Webhook;
    /** The newer webhook, which stays. */
    current: Webhook;
  };
}

/**
 * Makes the service's webhook subscription for `url` match the receiver's handlers (its
 * `events`): creates it when none serves the URL, updates `events`, `enabled` (and
 * `description`, when given) where they differ, and writes nothing when they match. Safe on every
 * deploy. Two webhooks for the URL are a secret rotation in progress (see
 * {@link rotateWebhookSecret}): both are kept in step. Three or more stop it (`ambiguous`).
 *
 * The secret of a webhook it creates is in the result, once; it is never logged.
 *
 * @throws ConfigurationError when the receiver has no handlers or `url` is not a URL.
 * @throws WebhookSyncError when a write fails, the URL is ambiguous, or a secret cannot be recovered.
 * @example
 * ```ts
 * const result = await syncWebhooks(new Client(), receiver, { url: 'https://app.example/webhooks' });
 * if (result.secret) await saveSecret(result.secret);
 * ```
 */
export async function syncWebhooks(
  client: WebhookSyncClient,
  receiver: Pick<WebhookReceiver, 'events'>,
  options: SyncWebhooksOptions,
): Promise<WebhookSyncResult> {
  const events = receiverEvents(receiver);
  const { url, description, enabled = true, dryRun, recoverSecret } = options;
  const matches = await webhooksFor(client, url);
  const [previous, current] = matches.length === 2 ? matches : [undefined, matches[0]];
  const createParams: WebhookCreateParams = { url, events, ...(description && { description }) };
  const plan: WebhookSyncStep[] = [];
  if (!current) {
    plan.push({ operation: 'create', params: createParams, reason: 'missing' });
    if (!enabled) plan.push({ operation: 'update', webhookId: '', params: { enabled } });
  } else {
    if (recoverSecret) {
      // What the create sent must be unchanged; `enabled` is not part of it.
      checkRecoverable(
        current,
        matches.length === 1 && changes(current, events, current.enabled, description),
      );
      plan.push({ operation: 'recover_secret', webhookId: current.id });
    }
    for (const webhook of matches) {
      const params = changes(webhook, events, enabled, description);
      if (params) plan.push({ operation: 'update', webhookId: webhook.id, params });
    }
  }
  const result: WebhookSyncResult = { events, plan, done: [], webhook: current };
  if (previous && current) result.rotation = { previous, current };
  if (dryRun) return result;

  const byId = new Map(matches.map((webhook) => [webhook.id, webhook]));
  // After a create, a failed write loses the result, and with it the only copy of the secret.
  const lostSecret = () =>
    `Webhook ${escapeControls(result.webhook!.id)} was created, but the run stopped before returning its secret, and a plain rerun will not show it: ` +
    `within 24 h, run again with the same options and recoverSecret: true (${recoveryCommand(url, events, description)}), and the create replays it.`;
  await run(plan, result.done, lostSecret, async (step) => {
    if (step.operation === 'create') {
      const created = await createOnce(client, step.params, [step.params]);
      result.secret = created.secret;
      byId.set('', withoutSecret(created));
      result.webhook = withoutSecret(created);
    } else if (step.operation === 'recover_secret') {
      // The body this sync sends, as the run that created it sent it; a rotation's its own.
      result.secret = previous
        ? await recover(client, rotationParts(previous), current!.id)
        : await recover(client, [createParams], current!.id);
    } else if (step.operation === 'update') {
      const target = byId.get(step.webhookId)!;
      // A step planned for a webhook this run creates names it once it exists.
      step.webhookId = target.id;
      const { data } = await client.webhooks.update(target.id, step.params);
      byId.set(target.id, data);
      if (target.id === result.webhook?.id) result.webhook = data;
      if (result.rotation?.previous.id === target.id) result.rotation.previous = data;
      if (result.rotation?.current.id === target.id) result.rotation.current = data;
    }
  });
  return result;
}

/** Options of {@link rotateWebhookSecret}. */
export interface RotateWebhookSecretOptions {
  /** The receiver's URL, whose webhook's secret is replaced. */
  url: string;
  /**
   * `start`: create a second webhook for the URL, a copy of the first, and return its secret;
   * then serve both secrets. `finish`: once the receiver serves the new secret, delete the older
   * webhook. Each step is safe to run again.
   */
  step: 'start' | 'finish';
  /** Only plan: write nothing. */
  dryRun?: boolean | undefined;
}

/** What {@link rotateWebhookSecret} found and did. */
export interface WebhookRotationResult {
  /** The step run. */
  step: 'start' | 'finish';
  /** The writes the step needed, in order; empty when it had been done before. */
  plan: WebhookSyncStep[];
  /** The writes made: the plan, or nothing after a dry run. */
  done: WebhookSyncStep[];
  /** The webhook whose secret is replaced (deleted by `finish`); undefined when `finish` found only one. */
  previous: Webhook | undefined;
  /** The webhook that stays, with the new secret; undefined when a dry run of `start` would create it. */
  current: Webhook | undefined;
  /** The new signing secret, from `start` (again on a rerun within 24 h): serve it beside the old one. */
  secret?: string;
}

/**
 * Replaces the secret of the webhook for `url`, losing no delivery. The contract has no rotation
 * call and an update cannot change a secret, so: `start` creates a second webhook for the URL
 * with the same events and returns its secret; you then serve both secrets (the receiver's
 * `secret` takes an array), and every event arrives twice with one `webhook-id`, which
 * de-duplication absorbs; `finish` deletes the older webhook. Run `start` again within 24 h to get
 * its secret once more.
 *
 * @throws WebhookSyncError when no webhook serves the URL, three or more do, a write fails, or a
 * rerun of `start` comes too late to replay the secret.
 * @example
 * ```ts
 * const { secret } = await rotateWebhookSecret(client, { url, step: 'start' });
 * // deploy the receiver with secret: [secret, oldSecret], then:
 * await rotateWebhookSecret(client, { url, step: 'finish' });
 * ```
 */
export async function rotateWebhookSecret(
  client: WebhookSyncClient,
  options: RotateWebhookSecretOptions,
): Promise<WebhookRotationResult> {
  const { url, step, dryRun } = options;
  if (step !== 'start' && step !== 'finish') {
    throw new ConfigurationError('step', "`step` must be 'start' or 'finish'.");
  }
  const matches = await webhooksFor(client, url);
  if (matches.length === 0) {
    throw new WebhookSyncError('no_webhook', `No webhook serves ${safeUrl(url)}: sync first.`);
  }
  const [first, second] = matches;
  const plan: WebhookSyncStep[] = [];
  const result: WebhookRotationResult = { step, plan, done: [], previous: first, current: second };
  if (step === 'finish') {
    if (second) plan.push({ operation: 'delete', webhookId: first!.id });
    else Object.assign(result, { previous: undefined, current: first });
  } else if (second) {
    // Started before: its answer is replayed, for a run whose answer was lost.
    checkRecoverable(second, false);
    plan.push({ operation: 'recover_secret', webhookId: second.id });
  } else {
    plan.push({ operation: 'create', params: copyParams(first!), reason: 'rotation' });
  }
  if (dryRun) return result;

  await run(plan, result.done, undefined, async (each) => {
    if (each.operation === 'delete') {
      // Gone already (an earlier attempt's answer lost): what was asked is done.
      await client.webhooks.delete(each.webhookId).catch((error: unknown) => {
        if (!(error instanceof NotFoundError)) throw error;
      });
    } else if (each.operation === 'recover_secret') {
      result.secret = await recover(client, rotationParts(first!), second!.id);
    } else if (each.operation === 'create') {
      const created = await createOnce(client, each.params, rotationParts(first!));
      result.secret = created.secret;
      result.current = withoutSecret(created);
    }
  });
  return result;
}

// How long after a create its replay is still sure: the contract's window, less an hour for the
// clocks of this machine and the service.
const REPLAY_MARGIN_MS = 60 * 60 * 1000;
// A replayed answer may name a webhook deleted since; each such answer moves the key on.
const MAX_STALE_REPLAYS = 3;
// The ids a message names at most; it says how many more there are.
const MESSAGE_IDS = 5;

/** The receiver's `events`, checked: a subscription needs at least one. */
function receiverEvents(receiver: Pick<WebhookReceiver, 'events'>): (WebhookEventType | '*')[] {
  const events = (receiver as { events?: unknown } | null)?.events;
  if (!Array.isArray(events) || events.length === 0) {
    throw new ConfigurationError(
      'receiver',
      'The receiver has no handlers: register them with on() or onAny() before syncing.',
    );
  }
  return [...(events as (WebhookEventType | '*')[])];
}

/**
 * The webhooks whose `url` is `url`, oldest first (list order among equals): one is the
 * subscription, two a rotation in progress; three or more cannot be told apart.
 */
async function webhooksFor(client: WebhookSyncClient, url: string): Promise<Webhook[]> {
  const wanted = normalUrl(url);
  if (wanted === undefined) throw new ConfigurationError('url', '`url` must be an absolute URL.');
  const {
    data: { data },
    response,
    requestId,
  } = await client.webhooks.list().withResponse();
  // The list's records pass the client's `validateResponses` as received (a record of the wrong
  // shape is only a warning by default): what a plan is made of is checked here, before use.
  const bad = (index: number, field: string, problem: string): never => {
    const id = (data[index] as { id?: unknown } | null)?.id;
    const which =
      typeof id === 'string' && id ? `webhook ${escapeControls(id.slice(0, 64))}` : 'a webhook';
    throw new InvalidResponseError({
      message: `The service listed ${which} (data.${index}) whose ${field} ${problem}: the SDK cannot plan a sync on it, and wrote nothing.`,
      status: response.status,
      requestId,
      issues: [{ path: `data.${index}.${field}`, message: problem }],
    });
  };
  const matches = data.filter((webhook, index) => {
    const record = webhook as Partial<Record<keyof Webhook, unknown>> | null;
    if (typeof record !== 'object' || record === null)
      return bad(index, 'record', 'is not an object');
    // Whether a webhook is ours depends on its URL: one unreadable leaves that open.
    if (typeof record.url !== 'string') return bad(index, 'url', 'is not a string');
    if (normalUrl(record.url) !== wanted) return false;
    if (typeof record.id !== 'string' || !record.id) bad(index, 'id', 'is not a non-empty string');
    if (!Array.isArray(record.events) || !record.events.every((e) => typeof e === 'string')) {
      bad(index, 'events', 'is not a list of strings');
    }
    if (typeof record.enabled !== 'boolean') bad(index, 'enabled', 'is not a boolean');
    if (record.description != null && typeof record.description !== 'string') {
      bad(index, 'description', 'is neither a string nor null');
    }
    if (typeof record.created_at !== 'string') bad(index, 'created_at', 'is not a string');
    return true;
  });
  matches.sort((a, b) => (Date.parse(a.created_at) || 0) - (Date.parse(b.created_at) || 0));
  if (matches.length > 2) {
    throw new WebhookSyncError(
      'ambiguous',
      `${matches.length} webhooks serve ${safeUrl(url)} (${someIds(matches.map(({ id }) => id))}); ` +
        'one is a subscription and two a secret rotation. Delete the extra ones, then run again.',
    );
  }
  return matches;
}

/**
 * The CLI command that recovers the secret of the webhook a sync created, as a shell reads it;
 * a URL whose query or user info may hold a token is left for the reader to fill in.
 */
function recoveryCommand(
  url: string,
  events: readonly string[],
  description: string | undefined,
): string {
  const word = (text: string) => `'${escapeControls(text).replaceAll("'", "'\\''")}'`;
  const exact = normalUrl(url) === safeUrl(url);
  return [
    'employee-recognition webhooks sync --url',
    exact ? word(url) : '<url>',
    `--events ${word(events.join(','))}`,
    ...(description === undefined ? [] : [`--description ${word(description)}`]),
    '--recover-secret --secret-file <path>',
  ].join(' ');
}

/** At most a few ids for a message, then how many more: no message grows with the service's data. */
function someIds(ids: readonly string[]): string {
  const shown = ids.slice(0, MESSAGE_IDS).map((id) => escapeControls(id.slice(0, 64)));
  return ids.length > MESSAGE_IDS
    ? `${shown.join(', ')} and ${ids.length - MESSAGE_IDS} more`
    : shown.join(', ');
}

/** `url` as the URL parser writes it, so `HTTPS://App.example` finds `https://app.example/`. */
function normalUrl(url: string): string | undefined {
  return URL.canParse(url) ? new URL(url).href : undefined;
}

/** A URL for a message: without its query and credentials, which may hold a token. */
function safeUrl(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  return parsed ? `${parsed.origin}${parsed.pathname}` : 'the URL';
}

/** What differs between `webhook` and what is wanted; undefined when nothing does. */
function changes(
  webhook: Webhook,
  events: readonly string[],
  enabled: boolean,
  description: string | undefined,
): WebhookUpdateParams | undefined {
  const params: WebhookUpdateParams = {};
  const current = new Set(webhook.events);
  if (current.size !== events.length || !events.every((each) => current.has(each))) {
    params.events = [...events];
  }
  if (webhook.enabled !== enabled) params.enabled = enabled;
  if (description !== undefined && webhook.description !== description) {
    params.description = description;
  }
  return Object.keys(params).length ? params : undefined;
}

/** The body that created `webhook`, as the SDK sends it: a copy for a rotation, or for its replay. */
function copyParams(webhook: Webhook): WebhookCreateParams {
  const { url, events, description } = webhook;
  return { url, events: [...events], ...(description && { description }) };
}

/**
 * Throws unless the create that made `webhook` can still be replayed: within the window, and,
 * for `changed` (what differs from its creation), unchanged since.
 */
function checkRecoverable(webhook: Webhook, changed: unknown): void {
  const age = Date.now() - Date.parse(webhook.created_at);
  if (!changed && age < IDEMPOTENCY_WINDOW_MS - REPLAY_MARGIN_MS) return;
  throw new WebhookSyncError(
    'secret_unrecoverable',
    `The secret of webhook ${webhook.id} cannot be replayed: ${changed ? 'it changed since it was created' : 'it was created more than 23 hours ago'}. ` +
      'Rotate it instead: rotateWebhookSecret (webhooks rotate start).',
  );
}

/** What a rotation's create is made of: the body, a copy of `previous`, and its id for the key. */
function rotationParts(previous: Webhook): [WebhookCreateParams, ...unknown[]] {
  return [copyParams(previous), 'rotation', previous.id];
}

/**
 * Sends again the create that made webhook `id` (its body first in `parts`, the key made of all),
 * so the service replays its answer, and resolves to the secret. A create the service did not
 * take for a replay is undone, and the secret reported unrecoverable.
 */
async function recover(
  client: WebhookSyncClient,
  parts: [WebhookCreateParams, ...unknown[]],
  id: string,
): Promise<string> {
  const key = await idempotencyKey(parts);
  const { data } = await client.webhooks.create(parts[0], { idempotencyKey: key });
  if (data.id === id) return data.secret;
  await client.webhooks.delete(data.id).catch((error: unknown) => {
    if (!(error instanceof NotFoundError)) throw error;
  });
  throw new WebhookSyncError(
    'secret_unrecoverable',
    `The service no longer replays the create of webhook ${id}. Rotate its secret instead: rotateWebhookSecret (webhooks rotate start).`,
  );
}

/**
 * Creates a webhook with `params` under the key made of `parts`, and checks that the webhook
 * answered exists: a replay of the same key may name one deleted since, and the key then moves
 * on, as deterministically.
 */
async function createOnce(
  client: WebhookSyncClient,
  params: WebhookCreateParams,
  parts: unknown[],
): Promise<WebhookWithSecret> {
  let key = await idempotencyKey(parts);
  for (let stale = 0; ; stale++) {
    const { data } = await client.webhooks.create(params, { idempotencyKey: key });
    try {
      await client.webhooks.get(data.id);
      return data;
    } catch (error) {
      if (!(error instanceof NotFoundError) || stale === MAX_STALE_REPLAYS) throw error;
    }
    key = await idempotencyKey([key, data.id]);
  }
}

/**
 * The Idempotency-Key of a create: a SHA-256 of what it creates, so a rerun sends the same key
 * and the same body, and the key shows nothing of the URL (which may hold a token).
 */
async function idempotencyKey(parts: unknown[]): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(parts));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return `webhook-sync-${Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Runs the steps in order, each added to `done` once it succeeded; a failure stops them. A
 * failure after a create adds `lostSecret()` to the message: how to get the secret back.
 */
async function run(
  plan: WebhookSyncStep[],
  done: WebhookSyncStep[],
  lostSecret: (() => string) | undefined,
  write: (step: WebhookSyncStep) => Promise<void>,
): Promise<void> {
  for (const step of plan) {
    try {
      await write(step);
    } catch (error) {
      if (error instanceof WebhookSyncError) {
        throw new WebhookSyncError(error.reason, error.message, { plan, done });
      }
      const message = error instanceof Error ? error.message : String(error);
      const created = lostSecret && done.some(({ operation }) => operation === 'create');
      throw new WebhookSyncError(
        'write_failed',
        `The ${step.operation} step failed after ${done.length} of ${plan.length} writes: ${message}. ` +
          (created
            ? lostSecret()
            : 'Run again: every write is safe to repeat' +
              (step.operation === 'create'
                ? '. If its answer was lost, the webhook exists without your knowing its secret: run again with recoverSecret (webhooks sync --recover-secret) within 24 h, and the create replays it.'
                : '.')),
        { plan, done, cause: error },
      );
    }
    done.push(step);
  }
}

function withoutSecret({ secret: _secret, ...webhook }: WebhookWithSecret): Webhook {
  return webhook;
}
