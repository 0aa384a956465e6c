import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@employee-recognition/sdk';
import type { MockCollection, MockStore } from '@employee-recognition/sdk/testing';
// Constants only: the bundler copies the few it uses, so the bin carries no second client.
import { ENV_WEBHOOK_SECRET, WEBHOOK_DELIVERY_TIMEOUT_MS } from '../contract.js';
import {
  type Command,
  describe,
  EXIT,
  parseCommandArgs,
  readJsonFile,
  UsageError,
} from './command.js';
// Enough of a rejecting receiver's answer to show why it refused.
const REPLY_SNIPPET_CHARS = 300;

const OPTIONS = {
  url: { type: 'string' },
  secret: { type: 'string' },
  data: { type: 'string' },
} as const;

/** `employee-recognition trigger`: one signed delivery of a sample event to a receiver. */
export const trigger: Command = {
  name: 'trigger',
  summary: 'Send one signed sample event to a webhook receiver',
  help: `Usage: employee-recognition trigger <event-type> --url <receiver> [options]

Sends one signed Standard Webhooks delivery of a realistic <event-type> event to <receiver>,
as the service would: POST, JSON body, webhook-id, webhook-timestamp and webhook-signature
headers. Prints the receiver's status and the time taken. A receiver that answers other than
2xx, or none within ${WEBHOOK_DELIVERY_TIMEOUT_MS / 1000} s, or cannot be reached, gives exit code 1 and the reason.

Event types:
${wrap(WEBHOOK_EVENT_TYPES.join(', '), '  ')}

Options:
  --url <url>            The receiver, such as http://127.0.0.1:3000/webhooks (required)
  --secret <whsec_…>     The signing secret (default: $${ENV_WEBHOOK_SECRET}; with
                         neither, a new secret is made and printed)
  --data <file.json>     The event's data from a file (- for standard input) instead of a
                         sample record from the mock's seeded data
  -h, --help             Show this help`,
  options: OPTIONS,
  connects: false,
  async run(args) {
    const parsed = parseCommandArgs(this, args, OPTIONS);
    if (!parsed) return EXIT.ok;
    const { values, positionals } = parsed;
    const [type, extra] = positionals;
    if (type === undefined) throw new UsageError('Name the event type to send.');
    if (!isEventType(type)) {
      throw new UsageError(
        `Unknown event type "${type}"; see employee-recognition trigger --help.`,
      );
    }
    if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}".`);
    const url = receiverUrl(values.url);
    // Loaded here, so `api` and `export` start without the mock's code.
    const { createMockApi, generateWebhookSecret, signWebhook } =
      await import('@employee-recognition/sdk/testing');
    let secret = values.secret ?? process.env[ENV_WEBHOOK_SECRET];
    if (secret) {
      await signWebhook('', secret).catch(() => {
        throw new UsageError(
          `The secret (--secret or ${ENV_WEBHOOK_SECRET}) must be whsec_ followed by base64.`,
        );
      });
    } else {
      secret = generateWebhookSecret();
      process.stdout.write(`Signing with a new secret (choose one with --secret): ${secret}\n`);
    }
    const data = values.data === undefined ? undefined : await readJsonFile('data', values.data);

    // The mock delivers the event: its signing, its timeout, one attempt (no retries).
    let failure: string | undefined;
    let reply = '';
    const api = createMockApi({
      // A fresh seed each run: event ids (webhook-id) must differ, or receivers drop repeats.
      seed: crypto.getRandomValues(new Uint32Array(1))[0],
      webhookRetryDelaysMs: [],
      async webhookFetch(target, init) {
        try {
          // A redirect is a failed delivery, as the service counts any answer other than 2xx.
          const response = await fetch(target, { ...init, redirect: 'manual' });
          if (!response.ok) reply = await readSnippet(response);
          else await response.body?.cancel();
          return new Response(null, { status: response.status, statusText: response.statusText });
        } catch (error) {
          failure = describe(error);
          throw error;
        }
      },
    });
    try {
      api.store.webhooks.insert({ url, events: [type], secret, enabled: true });
      const started = performance.now();
      const event = await api.emit(type, data ?? SAMPLES[type](api.store));
      const ms = Math.round(performance.now() - started);
      const [attempt] = api.deliveries;
      const what = `${type} ${event.id} -> ${url}`;
      if (attempt?.ok) {
        process.stdout.write(`${what}: ${attempt.status} in ${ms} ms\n`);
        return EXIT.ok;
      }
      const why =
        attempt?.status === undefined
          ? `not delivered after ${ms} ms: ${failure ?? attempt?.error ?? 'no attempt was made'}`
          : `rejected with ${attempt.status} in ${ms} ms${reply && `: ${reply}`}`;
      process.stderr.write(`${what}: ${why}\n`);
      return EXIT.failure;
    } finally {
      await api.close();
    }
  },
};

function isEventType(type: string): type is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}

// An http(s) URL: parseCommandArgs has checked it.
function receiverUrl(value: string | undefined): string {
  if (value === undefined) throw new UsageError('--url is required: where to send the event.');
  return new URL(value).href;
}

// The start of the answer's body on one line; the rest is not downloaded.
async function readSnippet(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    text += decoder.decode(chunk.value, { stream: true });
    if (text.length > REPLY_SNIPPET_CHARS) break;
  }
  await reader.cancel();
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > REPLY_SNIPPET_CHARS ? `${line.slice(0, REPLY_SNIPPET_CHARS)}…` : line;
}

function first<T extends { id: string }>(
  collection: MockCollection<T>,
  where: (record: T) => boolean = () => true,
): T {
  const record = collection.all().find(where);
  if (!record) throw new Error('The mock has no record of this kind to sample');
  return record;
}

// Each event's `data`: a record of the mock's seeded data, in the state the event reports.
const SAMPLES: Record<WebhookEventType, (store: MockStore) => unknown> = {
  'recognition.created': (store) => first(store.recognitions),
  'recognition.updated': (store) => first(store.recognitions),
  'recognition.deleted': (store) => first(store.recognitions),
  'user.created': (store) => first(store.users, (user) => user.status === 'active'),
  'user.updated': (store) => first(store.users, (user) => user.status === 'active'),
  'user.deactivated': (store) => ({
    ...first(store.users, (user) => user.role === 'member'),
    status: 'deactivated',
  }),
  'reward.created': (store) => first(store.rewards),
  'reward.updated': (store) => first(store.rewards),
  'reward.deleted': (store) => first(store.rewards),
  'reward.redeemed': (store) => first(store.rewards, (reward) => reward.available),
  'team.created': (store) => first(store.teams),
  'team.updated': (store) => first(store.teams),
  'team.deleted': (store) => first(store.teams),
  'team.member_added': (store) => memberEvent(store, 'added'),
  'team.member_removed': (store) => memberEvent(store, 'removed'),
  'budget.created': (store) => first(store.budgets),
  'budget.updated': (store) => first(store.budgets),
  'budget.depleted': (store) => {
    const budget = first(store.budgets, (each) => each.team_id !== null);
    return { ...budget, used_points: budget.total_points, remaining_points: 0 };
  },
};

// A member event's data is `{ team, user }`: the user as they are after joining or leaving.
function memberEvent(store: MockStore, change: 'added' | 'removed') {
  const user = first(store.users, (each) => each.team_id !== null && each.status === 'active');
  const team = first(store.teams, (each) => each.id === user.team_id);
  return { team, user: change === 'added' ? user : { ...user, team_id: null } };
}

function wrap(text: string, indent: string, width = 94): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && (indent + line + word).length > width) {
      lines.push(indent + line.trimEnd());
      line = '';
    }
    line += `${word} `;
  }
  return [...lines, indent + line.trimEnd()].join('\n');
}
