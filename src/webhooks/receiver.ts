/**
 * The webhook receiver: one delivery's whole flow, in the order it runs. Secret → verification →
 * de-duplication claim → the handlers, in the order they were registered → the claim kept or
 * released → the answer's status. The Fetch and Node adapters (middleware.ts) only read the body
 * and write the status this returns.
 */
import { ConfigurationError, envLogLevel, type Logger, type LogLevel } from '../core/config.js';
import { Log } from '../core/logger.js';
import { later } from '../internal/timers.js';
import {
  ENV_WEBHOOK_SECRET,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_HEADER_ID,
  type WebhookEventType,
} from '../contract.js';
import { parseSecret } from './crypto.js';
import { MemoryDedupeStore, type WebhookClaim, type WebhookDedupeStore } from './dedupe.js';
import { WebhookHandlerError, WebhookVerificationError } from './errors.js';
import type { KnownWebhookEvent, WebhookEvent, WebhookEventOf } from './events.js';
import {
  readHeaders,
  verifyWebhook,
  type WebhookPayload,
  type WebhookRequestHeaders,
} from './verify.js';

/** An endpoint's `whsec_…` secret, or several while rotating: any may match. */
export type WebhookSecret = string | readonly string[];

/** The group of an event type: `recognition` for `recognition.created`. */
export type WebhookEventGroup = {
  [Type in WebhookEventType]: Type extends `${infer Group}.${string}` ? Group : never;
}[WebhookEventType];

/** What {@link WebhookReceiver.on} subscribes to: an event type, or a whole group of them. */
export type WebhookEventName = WebhookEventType | WebhookEventGroup;

/** The events a handler of `Name` receives: that type, or every known type of that group. */
export type WebhookEventFor<Name extends WebhookEventName> = Name extends WebhookEventType
  ? WebhookEventOf<Name>
  : Extract<
      KnownWebhookEvent,
      {
        /** A type of the group `Name`. */
        type: `${Name}.${string}`;
      }
    >;

/** What a secret function and each handler learn about the delivery besides its event. */
export interface WebhookContext<Env = unknown> {
  /** The request's headers, as the adapter or the caller of `receive` passed them. */
  headers: WebhookRequestHeaders;
  /** The request's URL, where it is known: the Fetch and Node handlers pass it. */
  url: string | undefined;
  /**
   * The platform's bindings, where the platform hands them to each request: a Cloudflare
   * Worker's `env`, which the Fetch handler takes as its second argument.
   */
  env: Env | undefined;
}

/** Handles one event; a rejection or throw fails the delivery, which the service then retries. */
export type WebhookHandler<Event, Env = unknown> = (
  event: Event,
  context: WebhookContext<Env>,
) => unknown;

/** Learns of handlers that failed; see {@link WebhookHandlerError}. */
export type WebhookErrorHandler<Env = unknown> = (
  error: WebhookHandlerError,
  context: WebhookContext<Env>,
) => unknown;

/** The secret, or a function that gives it for a request, such as from a Worker's `env`. */
export type WebhookSecretOption<Env = unknown> =
  | WebhookSecret
  | ((
      context: WebhookContext<Env>,
    ) => WebhookSecret | undefined | Promise<WebhookSecret | undefined>);

/** De-duplication settings of {@link createWebhookReceiver}. */
export interface WebhookDedupeOptions {
  /** Where handled ids are kept. Default: an in-memory store of 10,000 ids. */
  store?: WebhookDedupeStore | undefined;
  /**
   * Seconds an id stays claimed while its handlers run; if the process dies, the service's retry
   * after that is handled. Default 120: within the 5 min before the service's third attempt.
   */
  leaseSeconds?: number | undefined;
  /** Seconds a handled id is remembered. Default 28 hours, past the last retry (27.6 h). */
  retentionSeconds?: number | undefined;
}

/** Options of {@link createWebhookReceiver}; every one may be left out. */
export interface WebhookReceiverOptions<Env = unknown> {
  /**
   * The endpoint's `whsec_…` secret, several while rotating, or a function of the request that
   * returns them. Default: the `RECOGNITION_WEBHOOK_SECRET` binding of a Worker's `env`, else the
   * `RECOGNITION_WEBHOOK_SECRET` environment variable, as `verifyWebhook` reads it.
   */
  secret?: WebhookSecretOption<Env> | undefined;
  /** Seconds the `webhook-timestamp` may differ from now, either way. Default 300. */
  tolerance?: number | undefined;
  /**
   * De-duplication by `webhook-id`: a store, its settings, or `false` to handle every copy.
   * Default: an in-memory store, which covers copies reaching the same process.
   */
  dedupe?: WebhookDedupeStore | WebhookDedupeOptions | false | undefined;
  /** Where log lines go. Default: `console`. Every line has secrets redacted. */
  logger?: Logger | undefined;
  /** How much to log. Default: the `RECOGNITION_LOG` environment variable, else `warn`. */
  logLevel?: LogLevel | undefined;
  /**
   * Told of every delivery, such as `openTelemetry()` from `@employee-recognition/sdk/otel` for a
   * span per delivery (docs/observability.md).
   */
  instrumentation?: WebhookInstrumentation | undefined;
}

/** The receiver's observer point: told of each delivery as `receive` is called. */
export interface WebhookInstrumentation {
  /** A delivery arrives; returns its observer, or undefined to observe nothing. */
  delivery(): DeliveryObserver | undefined;
}

/** Told what becomes of one delivery. None of its methods may throw. */
export interface DeliveryObserver {
  /** Runs one handler (in the delivery's context, say) and returns what it returns. */
  handler<T>(run: () => T): T;
  /**
   * The delivery is over: its receipt (the event's id is the delivery's `webhook-id`). For an
   * `accepted` one, called when the handlers have finished after the answer, with their failure.
   */
  end(receipt: WebhookReceipt, failure?: unknown): void;
}

/** How the receiver handles one delivery, beyond its body and headers. */
export interface WebhookReceiveOptions<Env = unknown> {
  /** The request's URL, for the secret function and handlers. */
  url?: string | undefined;
  /** The platform's bindings (a Worker's `env`), for the secret function and handlers. */
  env?: Env | undefined;
  /**
   * Keeps the platform working after the answer (a Worker's `ctx.waitUntil`, Vercel's
   * `waitUntil`). When given, a verified delivery is answered 202 at once and the handlers run
   * after; a failure there goes to `onError`.
   */
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
}

/**
 * What became of a delivery, and the status to answer it with:
 * - `handled` (204): every handler succeeded;
 * - `accepted` (202): verified, handlers running after the answer (`waitUntil`);
 * - `duplicate` (204): a copy of an event handled before; the handlers did not run;
 * - `in_progress` (409): a copy of an event still being handled; the service retries later;
 * - `rejected` (400, or 500 for `invalid_secret`): verification failed;
 * - `failed` (500): a handler failed; the service retries the delivery.
 */
export type WebhookReceipt =
  | {
      /** Every handler succeeded, or the event was handled before and none ran. */
      outcome: 'handled' | 'duplicate';
      /** 204 No Content. */
      status: 204;
      /** The verified event. */
      event: WebhookEvent;
    }
  | {
      /** Verified; the handlers run after the answer (`waitUntil`). */
      outcome: 'accepted';
      /** 202 Accepted. */
      status: 202;
      /** The verified event. */
      event: WebhookEvent;
    }
  | {
      /** A copy of an event whose handlers are still running elsewhere. */
      outcome: 'in_progress';
      /** 409 Conflict: the service tries the delivery again later. */
      status: 409;
      /** The verified event. */
      event: WebhookEvent;
    }
  | {
      /** Verification failed, or there was no secret to verify with. */
      outcome: 'rejected';
      /** 400 for a delivery that does not verify, 500 for a missing or malformed secret. */
      status: 400 | 500;
      /** Why, with its `code`; the answer's body carries none of it. */
      error: WebhookVerificationError;
    }
  | {
      /** A handler failed. */
      outcome: 'failed';
      /** 500: the service retries the delivery. */
      status: 500;
      /** The verified event. */
      event: WebhookEvent;
      /** The handlers' failures; `onError` handlers received it too. */
      error: WebhookHandlerError;
    };

/** A receiver: register handlers, then pass it to an adapter or call `receive`. */
export interface WebhookReceiver<Env = unknown> {
  /**
   * Runs `handler` for each event of `name`: an event type such as `recognition.created`, a group
   * such as `recognition` (all its known types), or a list of them. Chainable.
   */
  on<Name extends WebhookEventName>(
    name: Name | readonly Name[],
    handler: WebhookHandler<WebhookEventFor<Name>, Env>,
  ): this;
  /** Runs `handler` for every verified event, including types newer than this SDK. */
  onAny(handler: WebhookHandler<WebhookEvent, Env>): this;
  /** Runs `handler` when handlers failed; with none registered, the failure is logged. */
  onError(handler: WebhookErrorHandler<Env>): this;
  /**
   * The `events` a webhook subscription needs for the handlers registered so far: `["*"]` once
   * there is an `onAny` handler, else every type of each `on` name (a group gives its types), in
   * the order of `WEBHOOK_EVENT_TYPES`. A new array on each read; `syncWebhooks` reads it.
   */
  readonly events: readonly (WebhookEventType | '*')[];
  /**
   * Verifies, de-duplicates and handles one delivery whose raw body you already have; resolves
   * to what became of it, with the status to answer. It never rejects.
   */
  receive(
    payload: WebhookPayload,
    headers: WebhookRequestHeaders,
    options?: WebhookReceiveOptions<Env>,
  ): Promise<WebhookReceipt>;
}

// Within the 5 min before the service's third attempt (contract §9).
const DEFAULT_LEASE_SECONDS = 120;
// A store that has not answered by then is treated as failed: a third of the service's 15 s.
const STORE_TIMEOUT_MS = 5000;
// The retry schedule spans 27.6 h (WEBHOOK_RETRY_SCHEDULE_SECONDS; a test holds this past it).
// Literal values, here and below, so that an app that only verifies bundles none of this.
export const DEFAULT_RETENTION_SECONDS = 28 * 3600;

let knownNames: ReadonlySet<string> | undefined;

/** The 18 event types and their groups. */
function isKnownName(name: string): boolean {
  knownNames ??= new Set<string>([
    ...WEBHOOK_EVENT_TYPES,
    ...WEBHOOK_EVENT_TYPES.map((type) => type.slice(0, type.indexOf('.'))),
  ]);
  return knownNames.has(name);
}

interface DedupeSettings {
  store: WebhookDedupeStore;
  leaseMs: number;
  retentionMs: number;
}

interface Registration {
  /** The types and groups it handles; `undefined` for `onAny`. */
  names: ReadonlySet<string> | undefined;
  handler: (event: never, context: never) => unknown;
}

/**
 * Creates a webhook receiver. Register handlers with `on`, `onAny` and `onError`, then serve it
 * with `createWebMiddleware` (Fetch: Next.js, Hono, Workers, Bun, Deno, Remix) or
 * `createNodeMiddleware` (node:http, Express, Connect), or call `receive` with a raw body.
 *
 * @throws ConfigurationError when an option is invalid, naming it.
 * @example
 * ```ts
 * const receiver = createWebhookReceiver().on('recognition.created', async (event) => {
 *   console.log(event.data.message);
 * });
 * export const POST = createWebMiddleware(receiver);
 * ```
 */
export function createWebhookReceiver<Env = unknown>(
  options: WebhookReceiverOptions<Env> = {},
): WebhookReceiver<Env> {
  return new Receiver(options);
}

class Receiver<Env> implements WebhookReceiver<Env> {
  readonly #secret: WebhookSecretOption<Env> | undefined;
  readonly #tolerance: number | undefined;
  readonly #dedupe: DedupeSettings | undefined;
  readonly #log: Log;
  readonly #logged = new Set<string>();
  readonly #handlers: Registration[] = [];
  readonly #errorHandlers: WebhookErrorHandler<Env>[] = [];
  readonly #instrumentation: WebhookInstrumentation | undefined;

  constructor(options: WebhookReceiverOptions<Env>) {
    this.#instrumentation = options.instrumentation;
    const { secret, tolerance, dedupe } = options;
    if (secret !== undefined && typeof secret !== 'function') checkSecret(secret);
    if (tolerance !== undefined && !(tolerance >= 0)) {
      throw new ConfigurationError(
        'tolerance',
        '`tolerance` must be a number of seconds, 0 or more.',
      );
    }
    this.#secret = secret;
    this.#tolerance = tolerance;
    this.#dedupe = dedupe === false ? undefined : dedupeSettings(dedupe);
    this.#log = new Log(options.logger ?? console, options.logLevel ?? envLogLevel());
  }

  on<Name extends WebhookEventName>(
    name: Name | readonly Name[],
    handler: WebhookHandler<WebhookEventFor<Name>, Env>,
  ): this {
    const names = typeof name === 'string' ? [name] : name;
    if (!Array.isArray(names) || names.length === 0) {
      throw new ConfigurationError('name', 'on() takes an event type, a group, or a list of them.');
    }
    for (const each of names) {
      if (!isKnownName(each)) {
        throw new ConfigurationError(
          'name',
          `on() got ${JSON.stringify(each)}, which is no event type or group of this SDK; onAny() receives every type.`,
        );
      }
    }
    return this.#register(new Set(names), handler);
  }

  onAny(handler: WebhookHandler<WebhookEvent, Env>): this {
    return this.#register(undefined, handler);
  }

  onError(handler: WebhookErrorHandler<Env>): this {
    checkFunction(handler);
    this.#errorHandlers.push(handler);
    return this;
  }

  get events(): (WebhookEventType | '*')[] {
    const handlers = this.#handlers;
    return handlers.some(({ names }) => !names)
      ? ['*']
      : WEBHOOK_EVENT_TYPES.filter((type) =>
          handlers.some(({ names }) => names!.has(type) || names!.has(type.split('.')[0]!)),
        );
  }

  #register(names: ReadonlySet<string> | undefined, handler: Registration['handler']): this {
    checkFunction(handler);
    this.#handlers.push({ names, handler });
    return this;
  }

  async receive(
    payload: WebhookPayload,
    headers: WebhookRequestHeaders,
    options: WebhookReceiveOptions<Env> = {},
  ): Promise<WebhookReceipt> {
    const observer = this.#instrumentation?.delivery();
    const receipt = await this.#receive(payload, headers, options, observer);
    if (receipt.outcome !== 'accepted') observer?.end(receipt);
    return receipt;
  }

  async #receive(
    payload: WebhookPayload,
    headers: WebhookRequestHeaders,
    options: WebhookReceiveOptions<Env>,
    observer: DeliveryObserver | undefined,
  ): Promise<WebhookReceipt> {
    const context: WebhookContext<Env> = { headers, url: options.url, env: options.env };
    if (!isRawBody(payload)) {
      return this.#rejected(new WebhookVerificationError('invalid_payload', PARSED_BODY));
    }
    let event: WebhookEvent;
    try {
      const secret = await this.#resolveSecret(context);
      event = await verifyWebhook(payload, headers, secret, { tolerance: this.#tolerance });
    } catch (error) {
      return this.#rejected(error);
    }
    // Verification checked that the header is there.
    const id = readHeaders(headers, [WEBHOOK_HEADER_ID])[0]!;
    const token = crypto.randomUUID();
    const claim = await this.#store('claim', id, token);
    if (claim === 'handled') return { outcome: 'duplicate', status: 204, event };
    if (claim === 'in_progress') return { outcome: 'in_progress', status: 409, event };

    const handling = this.#handle(event, context, { id, token }, observer);
    if (options.waitUntil && keptAlive(options.waitUntil, handling)) {
      // The answer does not wait; failures reach onError (or the log) all the same.
      const receipt = { outcome: 'accepted', status: 202, event } as const;
      if (observer) void handling.then((failure) => observer.end(receipt, failure));
      return receipt;
    }
    const error = await handling;
    return error
      ? { outcome: 'failed', status: 500, event, error }
      : { outcome: 'handled', status: 204, event };
  }

  /** The secret to verify with; `undefined` lets verifyWebhook read the environment variable. */
  async #resolveSecret(context: WebhookContext<Env>): Promise<WebhookSecret | undefined> {
    const secret = this.#secret;
    if (typeof secret !== 'function') return secret ?? bindingSecret(context.env);
    let resolved: WebhookSecret | undefined;
    try {
      resolved = await secret(context);
    } catch (error) {
      throw new WebhookVerificationError(
        'invalid_secret',
        `The secret function failed: ${describe(error)}`,
      );
    }
    // Undefined would silently fall back to the environment: say so instead.
    if (resolved === undefined) {
      throw new WebhookVerificationError(
        'invalid_secret',
        'The secret function returned no secret',
      );
    }
    return resolved;
  }

  #rejected(error: unknown): WebhookReceipt {
    const failure =
      error instanceof WebhookVerificationError
        ? error
        : new WebhookVerificationError('invalid_payload', describe(error));
    if (failure.reason === 'invalid_secret' || failure.message === PARSED_BODY) {
      // The receiver's own configuration: every delivery fails the same way until it is fixed.
      const message = `Webhook deliveries are answered 500: ${failure.message}`;
      this.#logOnce(message, 'error', message);
      return { outcome: 'rejected', status: 500, error: failure };
    }
    this.#log.debug(`Webhook delivery rejected (400): ${failure.reason}: ${failure.message}`);
    return { outcome: 'rejected', status: 400, error: failure };
  }

  /**
   * Asks the de-duplication store, within STORE_TIMEOUT_MS. Without a store, or when it fails
   * or does not answer in time, the answer is `unknown`: the event is handled as one not seen
   * (at least once, never lost) and the failure is logged once.
   */
  async #store(
    method: 'claim' | 'complete' | 'release',
    id: string,
    token: string,
  ): Promise<WebhookClaim | 'unknown'> {
    const dedupe = this.#dedupe;
    if (!dedupe) return 'unknown';
    const { store, leaseMs, retentionMs } = dedupe;
    try {
      return await bounded(
        STORE_TIMEOUT_MS,
        // Also catches a store method that throws instead of rejecting.
        async () => {
          if (method === 'claim') return store.claim(id, token, leaseMs);
          if (method === 'complete') await store.complete(id, token, retentionMs);
          else await store.release(id, token);
          return 'unknown' as const;
        },
      );
    } catch (error) {
      // Once for the receiver's life, whatever the error: an outage fails every call alike.
      this.#logOnce(
        'store',
        'warn',
        `The webhook de-duplication store failed (${describe(error)}); deliveries are handled without it, so a copy may be handled twice`,
      );
      return 'unknown';
    }
  }

  /**
   * Runs the handlers of `event` one after another, in the order they were registered; each
   * runs even when an earlier one failed. Keeps the claim when all succeeded, releases it when
   * one failed and reports the failure. Resolves to that failure, never rejects.
   */
  async #handle(
    event: WebhookEvent,
    context: WebhookContext<Env>,
    { id, token }: { id: string; token: string },
    observer: DeliveryObserver | undefined,
  ): Promise<WebhookHandlerError | undefined> {
    const type = String(event.type);
    const known = isKnownName(type);
    const group = type.slice(0, type.indexOf('.'));
    const errors: unknown[] = [];
    for (const { names, handler } of this.#handlers) {
      if (names && !(known && (names.has(type) || names.has(group)))) continue;
      try {
        const run = () => (handler as WebhookHandler<WebhookEvent, Env>)(event, context);
        await (observer ? observer.handler(run) : run());
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 0) {
      await this.#store('complete', id, token);
      return undefined;
    }
    await this.#store('release', id, token);
    const failure = new WebhookHandlerError(event, errors);
    await this.#report(failure, context);
    return failure;
  }

  async #report(failure: WebhookHandlerError, context: WebhookContext<Env>): Promise<void> {
    if (this.#errorHandlers.length === 0) {
      this.#log.error(failure.message);
      return;
    }
    for (const handler of this.#errorHandlers) {
      try {
        await handler(failure, context);
      } catch (error) {
        this.#log.error(
          `An onError handler failed: ${describe(error)}; it was told: ${failure.message}`,
        );
      }
    }
  }

  /** Logs `message` unless a line of the same `kind` was logged before. */
  #logOnce(kind: string, level: 'warn' | 'error', message: string): void {
    if (this.#logged.has(kind)) return;
    this.#logged.add(kind);
    this.#log[level](message);
  }
}

/**
 * Hands `handling` to the platform's `waitUntil`; false when that throws (say, called outside a
 * request), and the receiver then handles before answering instead.
 */
function keptAlive(waitUntil: (promise: Promise<unknown>) => void, handling: Promise<unknown>) {
  try {
    waitUntil(handling);
    return true;
  } catch {
    return false;
  }
}

/** `run()`'s result, or a rejection after `ms`; the timer never outlives the answer. */
function bounded<T>(ms: number, run: () => Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = later(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    run().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

// The body-parser trap: said once, with the fix, instead of an inexplicable invalid_signature.
const PARSED_BODY =
  'the request body reached the receiver parsed or already read, so its signature cannot be checked. ' +
  'Give the receiver the raw body: with Express, mount it before express.json() (or use express.raw({ type: "application/json" }) on its route); in a Fetch handler, do not read the request before it.';

function isRawBody(payload: unknown): payload is WebhookPayload {
  return (
    typeof payload === 'string' || ArrayBuffer.isView(payload) || payload instanceof ArrayBuffer
  );
}

/** A Worker's `env.RECOGNITION_WEBHOOK_SECRET`, where the platform passes bindings per request. */
function bindingSecret(env: unknown): string | undefined {
  const value: unknown = (env as Record<string, unknown> | null | undefined)?.[ENV_WEBHOOK_SECRET];
  return typeof value === 'string' && value ? value : undefined;
}

function dedupeSettings(
  dedupe: WebhookDedupeStore | WebhookDedupeOptions | undefined,
): DedupeSettings {
  const settings: WebhookDedupeOptions =
    dedupe && 'claim' in dedupe ? { store: dedupe } : (dedupe ?? {});
  const seconds = (option: 'leaseSeconds' | 'retentionSeconds', fallback: number) => {
    const value = settings[option] ?? fallback;
    if (!(value > 0 && Number.isFinite(value))) {
      throw new ConfigurationError(
        `dedupe.${option}`,
        `\`dedupe.${option}\` must be a number of seconds above 0.`,
      );
    }
    return value * 1000;
  };
  const store = settings.store ?? new MemoryDedupeStore();
  if (
    !['claim', 'complete', 'release'].every(
      (method) => typeof (store as never)[method] === 'function',
    )
  ) {
    throw new ConfigurationError(
      'dedupe.store',
      '`dedupe.store` must have claim, complete and release methods.',
    );
  }
  return {
    store,
    leaseMs: seconds('leaseSeconds', DEFAULT_LEASE_SECONDS),
    retentionMs: seconds('retentionSeconds', DEFAULT_RETENTION_SECONDS),
  };
}

/** A secret given as a value is checked once, here, rather than failing every delivery. */
function checkSecret(secret: unknown): void {
  const secrets: unknown[] = Array.isArray(secret) ? secret : [secret];
  const valid =
    secrets.length > 0 && secrets.every((each) => typeof each === 'string' && parseSecret(each));
  if (!valid) {
    throw new ConfigurationError(
      'secret',
      '`secret` must be whsec_ followed by non-empty base64, a non-empty array of such, or a function returning them.',
    );
  }
}

function checkFunction(handler: unknown): void {
  if (typeof handler !== 'function') {
    throw new ConfigurationError('handler', 'A webhook handler must be a function.');
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
