/**
 * `diagnose(client, options)`: checks the service a client talks to against every assumption the
 * SDK makes (docs/doctor.md), read-only unless asked, within a bounded budget of requests. Each
 * probe goes through the client (its credential, hooks and pacing), with a fetch that keeps a
 * copy of each answer's status, headers and body for the checks: no value of a record ever
 * leaves this module, only names, types, counts and dates.
 */
import type { Client } from '../client.js';
import {
  ERROR_CODES,
  HEADER_LINK,
  HEADER_REQUEST_ID,
  type OperationName,
  OPERATIONS,
  SCOPES,
  type Scope,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_HEADER_TIMESTAMP,
  WEBHOOK_TOLERANCE_SECONDS,
} from '../contract.js';
import { checkFunction, checkObject, ConfigurationError } from '../core/config.js';
import { parseDeprecation } from '../internal/deprecation.js';
import { parseRateLimit } from '../internal/headers.js';
import { isLoopbackHost } from '../internal/loopback.js';
import type { WebhookReceiver } from '../webhooks/receiver.js';
import { syncWebhooks } from '../webhooks/sync.js';
import { codeOf, probeSockets, runtimeCheck } from './connection.js';
import {
  checkRecords,
  type NewField,
  plural,
  type RecordDifference,
  recordsCheck,
} from './records.js';
import { createReport, type DoctorCheck, type DoctorReport, redactReport } from './report.js';
import { ASSUMPTIONS } from './assumptions.js';
import { judge, type Judgement } from './judge.js';

/** What kind of credential a client holds, for the `credential` check and the `write` gate. */
export interface CredentialKind {
  /** `live` (`rk_live_…`), `test` (`rk_test_…`) or `oauth` (an access token). */
  kind: 'live' | 'test' | 'oauth';
  /** When an OAuth token expires, where known. */
  expiresAt?: Date | string | number | undefined;
}

/** Options of {@link diagnose}; every one is optional. */
export interface DiagnoseOptions {
  /**
   * The client's credential, or its kind. The client keeps its own where nothing can read it, so
   * the `credential` check and the `write` gate learn it here; it is never shown, and removed
   * from the report wherever the service echoed it. Without it the kind shows as unknown and
   * `write` is refused.
   */
  credential?: string | CredentialKind | undefined;
  /**
   * Also check what the SDK writes, with a webhook made for the purpose (created, disabled, sent
   * again with the same Idempotency-Key, deleted, even when a step fails). Only with an
   * `rk_test_` key. Default false: nothing is written.
   */
  write?: boolean | undefined;
  /** A receiver whose handlers give the events: the `webhooks` check shows the plan `syncWebhooks` would make. */
  receiver?: Pick<WebhookReceiver, 'events'> | undefined;
  /** The receiver's URL for that plan. Default: the URL of the only webhook, when there is one. */
  receiverUrl?: string | undefined;
  /** The fetch the client uses, when it is not the global one (the probes run through it). */
  fetch?: typeof globalThis.fetch | undefined;
  /** Stops the run: the checks not done yet are skipped. */
  signal?: AbortSignal | undefined;
  /** The local clock, in ms since the epoch. Default `Date.now`. */
  now?: (() => number) | undefined;
  /** Environment variables the `runtime` check reads (proxies). Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Told of each check as it completes, for progress lines. */
  onCheck?: ((check: DoctorCheck) => void) | undefined;
}

/** The checks of {@link diagnose}, in the order of its report. */
export const CHECK_IDS = [
  'runtime',
  'connection',
  'credential',
  'scopes',
  'rate-limit',
  'clock',
  'errors',
  'pagination',
  'records',
  'deprecations',
  'webhooks',
  'idempotency',
] as const;

/** The most requests one run spends. */
export const MAX_REQUESTS = 25;
/** The share of the rate-limit window a run always leaves to the app. */
export const WINDOW_RESERVE = 0.1;
/** Each probe's bound. */
const PROBE_TIMEOUT_MS = 5_000;
/** The whole run's bound: past it, the checks not yet run are skipped, with why. */
const RUN_TIMEOUT_MS = 30_000;
/** A clock further off than this, in seconds, is a `warn`. */
const CLOCK_WARNING_SECONDS = 30;
/** The subscriptions the webhooks check lists, of a service that may have thousands. */
const MAX_WEBHOOKS_SHOWN = 50;
/** How much of an answer's body is kept for the checks. */
const MAX_BODY_BYTES = 1024 * 1024;

/** The scope each read probe needs, and the operation it calls. */
const READ_PROBES: readonly {
  operation: OperationName;
  scope: Scope;
  query?: Record<string, number>;
}[] = [
  { operation: 'recognitions.list', scope: 'recognitions:read', query: { limit: 1 } },
  { operation: 'users.list', scope: 'users:read', query: { limit: 1 } },
  { operation: 'rewards.list', scope: 'rewards:read', query: { limit: 1 } },
  { operation: 'teams.list', scope: 'teams:read', query: { limit: 1 } },
  { operation: 'webhooks.list', scope: 'webhooks:read' },
  { operation: 'budgets.list', scope: 'budgets:read' },
  { operation: 'analytics.summary', scope: 'analytics:read' },
];
const WRITE_SCOPES: readonly Scope[] = SCOPES.filter((scope) => scope.endsWith(':write'));

/** One answer as the probes' fetch recorded it. */
interface Exchange {
  operation: string;
  method: string;
  url: string;
  status: number;
  headers: Headers;
  /** Local ms when the request left. */
  sentAt: number;
  durationMs: number;
  /** The body's text (its first MAX_BODY_BYTES), else undefined. */
  text: Promise<string | undefined>;
  /** The body: parsed JSON, else its text, else undefined. */
  body: Promise<unknown>;
}

/** The outcome of one probe: its answer, or the error that stopped it before one came. */
interface Probe {
  exchange: Exchange | undefined;
  error: unknown;
  /** Why the probe was not sent. */
  skipped?: string | undefined;
}

/**
 * Checks the service `client` talks to against the SDK's assumptions and returns the report
 * (docs/doctor.md): `runtime`, `connection`, `credential`, `scopes`, `rate-limit`, `clock`,
 * `errors`, `pagination`, `records`, `deprecations`, `webhooks` and `idempotency`. At most 25
 * requests, never leaving the rate-limit window below 10 % of its limit: a check it cannot afford
 * is skipped, with why, rather than waited for. Never throws for what the service answers; a
 * `write` without an `rk_test_` key is refused before anything is sent.
 *
 * @throws {ConfigurationError} when `write` is asked without an `rk_test_` credential.
 */
export async function diagnose(
  client: Client,
  options: DiagnoseOptions = {},
): Promise<DoctorReport> {
  checkOptions(client, options);
  const now = options.now ?? Date.now;
  const credential = credentialKind(options.credential, now());
  if (options.write && credential.kind !== 'test') {
    throw new ConfigurationError(
      'write',
      `The write checks create and delete a webhook: they run only with an rk_test_ key, and this credential is ${credential.label}.`,
    );
  }
  const run = new Run(client, options, now);
  const checks = await run.all(credential);
  const secrets = typeof options.credential === 'string' ? [options.credential] : [];
  return redactReport(createReport(checks, client.baseUrl), secrets);
}

/** Refuses what cannot work, before anything is sent: a ConfigurationError naming the option. */
function checkOptions(client: Client, options: DiagnoseOptions): void {
  if (typeof (client as Partial<Client> | null)?.withOptions !== 'function') {
    throw new ConfigurationError('client', 'diagnose() takes a Client of this SDK.');
  }
  if (options === null || typeof options !== 'object') {
    throw new ConfigurationError('options', 'diagnose() takes an options object.');
  }
  for (const name of ['fetch', 'now', 'onCheck'] as const) checkFunction(name, options[name]);
  checkObject('env', options.env);
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new ConfigurationError('signal', '`signal` must be an AbortSignal.');
  }
  const { credential } = options;
  if (
    credential !== undefined &&
    typeof credential !== 'string' &&
    !['live', 'test', 'oauth'].includes((credential as Partial<CredentialKind> | null)?.kind ?? '')
  ) {
    throw new ConfigurationError(
      'credential',
      "`credential` must be the credential, or { kind: 'live' | 'test' | 'oauth' }.",
    );
  }
}

interface KnownCredential {
  kind: 'live' | 'test' | 'oauth' | 'unknown';
  label: string;
  expiresAt: number | undefined;
}

/** The kind of a credential (and an OAuth token's expiry, from its JWT `exp`), never the value. */
function credentialKind(given: DiagnoseOptions['credential'], now: number): KnownCredential {
  if (given === undefined)
    return { kind: 'unknown', label: 'of a kind not given', expiresAt: undefined };
  if (typeof given === 'string') {
    if (given.startsWith('rk_live_'))
      return { kind: 'live', label: 'an rk_live_ key', expiresAt: undefined };
    if (given.startsWith('rk_test_'))
      return { kind: 'test', label: 'an rk_test_ key', expiresAt: undefined };
    return { kind: 'oauth', label: 'an OAuth token', expiresAt: jwtExpiry(given, now) };
  }
  const expiresAt = given.expiresAt === undefined ? undefined : new Date(given.expiresAt).getTime();
  const label = given.kind === 'oauth' ? 'an OAuth token' : `an rk_${given.kind}_ key`;
  return { kind: given.kind, label, expiresAt: Number.isFinite(expiresAt) ? expiresAt : undefined };
}

function jwtExpiry(token: string, now: number): number | undefined {
  const payload = token.split('.')[1];
  if (token.split('.').length !== 3 || !payload || payload.length > 8192) return undefined;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as {
      exp?: unknown;
    };
    const exp = typeof json.exp === 'number' ? json.exp * 1000 : undefined;
    // A date no token has: not a JWT of this kind after all.
    return exp !== undefined && Math.abs(exp - now) < 10 * 365 * 86_400_000 ? exp : undefined;
  } catch {
    return undefined;
  }
}

/** One run of the doctor: its probes, the budget they spend, and the checks made of them. */
class Run {
  readonly #client: Client;
  readonly #options: DiagnoseOptions;
  readonly #now: () => number;
  readonly #exchanges: Exchange[] = [];
  #operation = '';
  readonly #probes = new Map<OperationName, Probe>();
  readonly #startedAt: number;

  constructor(client: Client, options: DiagnoseOptions, now: () => number) {
    const base = options.fetch ?? globalThis.fetch;
    const record = async (input: RequestInfo | URL, init?: RequestInit) => {
      const sentAt = now();
      const response = await base(input, init);
      const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
      const url = input instanceof Request ? input.url : String(input);
      const text = readBody(response.clone());
      this.#exchanges.push({
        operation: this.#operation,
        method,
        url,
        status: response.status,
        headers: response.headers,
        sentAt,
        durationMs: now() - sentAt,
        text,
        body: text.then(parseOrText),
      });
      return response;
    };
    // The run paces itself: it reads the window from every answer and stops at 10 % of it, never
    // waiting. The SDK's pacing would wait where other clients spend the key live: it then spaces
    // this client's sends over the time left, up to a second apart (core/throttle.ts), where the
    // doctor must finish in seconds and skip a check rather than wait.
    this.#client = client.withOptions({
      fetch: record,
      maxRetries: 0,
      validateResponses: 'off',
      rateLimit: 'off',
    });
    this.#options = options;
    this.#now = now;
    this.#startedAt = now();
  }

  get #signal() {
    return this.#options.signal;
  }

  #done(check: DoctorCheck): DoctorCheck {
    this.#options.onCheck?.(check);
    return check;
  }

  /** Why `count` more requests cannot be afforded, or undefined when they can. */
  #unaffordable(count: number): string | undefined {
    if (this.#signal?.aborted) return 'the run was stopped';
    if (this.#now() - this.#startedAt > RUN_TIMEOUT_MS - PROBE_TIMEOUT_MS) {
      return `the run spends at most ${RUN_TIMEOUT_MS / 1000} s, and the service answered slowly`;
    }
    if (this.#exchanges.length + count > MAX_REQUESTS) {
      return `the doctor spends at most ${MAX_REQUESTS} requests`;
    }
    const window = this.#window();
    if (window) {
      const reserve = Math.ceil(window.limit * WINDOW_RESERVE);
      if (window.remaining - count < reserve) {
        return `the rate-limit window has ${window.remaining} of ${window.limit} requests left, and the doctor leaves ${reserve} (10 %) to your app; run it again after ${window.reset.toISOString()}`;
      }
    }
    return undefined;
  }

  #window() {
    for (let index = this.#exchanges.length - 1; index >= 0; index--) {
      const window = parseRateLimit(this.#exchanges[index]!.headers);
      if (window) return window;
    }
    return undefined;
  }

  /** Sends one probe through the client, unless the budget says no; never throws. */
  async #probe<T>(
    operation: string,
    send: (client: Client) => PromiseLike<T>,
  ): Promise<Probe & { data?: T }> {
    const skipped = this.#unaffordable(1);
    if (skipped) return { exchange: undefined, error: undefined, skipped };
    this.#operation = operation;
    const before = this.#exchanges.length;
    try {
      const data = await send(this.#client);
      return { exchange: this.#exchanges[this.#exchanges.length - 1], error: undefined, data };
    } catch (error) {
      const exchange =
        this.#exchanges.length > before ? this.#exchanges[this.#exchanges.length - 1] : undefined;
      return { exchange, error };
    }
  }

  #callOptions(extra?: Record<string, unknown>) {
    return { timeout: PROBE_TIMEOUT_MS, maxRetries: 0, signal: this.#signal, ...extra };
  }

  async #read(operation: OperationName, query?: Record<string, number>): Promise<Probe> {
    const probe = await this.#probe(operation, (client) =>
      client.get(OPERATIONS[operation].slice(4), this.#callOptions({ query })),
    );
    this.#probes.set(operation, probe);
    return probe;
  }

  async all(credential: KnownCredential): Promise<DoctorCheck[]> {
    const env =
      this.#options.env ??
      (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ??
      {};
    const report = createReport([]);
    const runtime = this.#done(runtimeCheck(report.sdk, report.node, env, this.#now()));

    const sockets = await probeSockets(this.#client.baseUrl, this.#now, this.#signal).catch(
      (error: unknown) => ({
        details: {},
        summary: '',
        failure: { summary: `the connection check failed (${codeOf(error)})`, fix: 'Run again.' },
        warning: undefined,
      }),
    );
    const first = sockets?.failure
      ? undefined
      : await this.#read(READ_PROBES[0]!.operation, READ_PROBES[0]!.query);
    const connection = this.#done(connectionCheck(sockets, first));
    const reached = connection.status !== 'fail';
    const unreachable = (id: string) =>
      this.#done(skip(id, 'the service could not be reached (see connection)'));
    if (!reached) {
      return [runtime, connection, ...CHECK_IDS.slice(2).map(unreachable)];
    }

    const credentialResult = this.#done(credentialCheck(credential, first!, this.#now()));
    const accepted = credentialResult.status !== 'fail';
    const refused = (id: string) =>
      this.#done(skip(id, 'the credential was refused (see credential)'));

    if (accepted) {
      for (const { operation, query } of READ_PROBES.slice(1)) await this.#read(operation, query);
    }
    const write = accepted && this.#options.write ? await this.#writeChecks() : undefined;
    const checks: DoctorCheck[] = [runtime, connection, credentialResult];
    checks.push(accepted ? this.#done(this.#scopes(write)) : refused('scopes'));
    checks.push(this.#done(this.#rateLimit()));
    checks.push(this.#done(this.#clock()));
    checks.push(accepted ? this.#done(await this.#errors()) : refused('errors'));
    checks.push(accepted ? this.#done(await this.#pagination()) : refused('pagination'));
    checks.push(accepted ? this.#done(await this.#records()) : refused('records'));
    checks.push(this.#done(this.#deprecations()));
    checks.push(accepted ? this.#done(await this.#webhooks()) : refused('webhooks'));
    checks.push(
      write
        ? this.#done(write.check)
        : this.#done(
            skip(
              'idempotency',
              accepted
                ? 'read-only run: the write checks (--write, with an rk_test_ key) test the Idempotency-Key replay'
                : 'the credential was refused (see credential)',
              ASSUMPTIONS.idempotency,
            ),
          ),
    );
    return checks;
  }

  #scopes(write: WriteOutcome | undefined): DoctorCheck {
    const granted: Scope[] = [];
    const missing: Scope[] = [];
    const unchecked: Scope[] = [];
    const reasons: Record<string, string> = {};
    for (const { operation, scope } of READ_PROBES) {
      const probe = this.#probes.get(operation);
      const status = probe?.exchange?.status;
      if (status !== undefined && status >= 200 && status < 300) granted.push(scope);
      else if (status === 403) missing.push(scope);
      else {
        unchecked.push(scope);
        reasons[scope] =
          probe?.skipped ?? (status ? `answered ${status}` : `no answer (${codeOf(probe?.error)})`);
      }
    }
    for (const scope of WRITE_SCOPES) {
      const result = scope === 'webhooks:write' ? write?.scope : undefined;
      if (result === 'granted') granted.push(scope);
      else if (result === 'missing') missing.push(scope);
      else {
        unchecked.push(scope);
        reasons[scope] =
          scope === 'recognitions:write'
            ? 'never checked: it would create a recognition people see, and start deliveries'
            : (write?.reason ?? 'read-only run: the write checks (--write) test it');
      }
    }
    const details = { granted, missing, unchecked, reasons };
    if (missing.length > 0) {
      // A read scope covers its namespace's GETs, a write scope the rest.
      const operations = Object.entries(OPERATIONS)
        .filter(([name, route]) =>
          missing.includes(
            `${name.split('.')[0]}:${route.startsWith('GET ') ? 'read' : 'write'}` as Scope,
          ),
        )
        .map(([name]) => name);
      return {
        id: 'scopes',
        status: 'warn',
        summary: `missing ${missing.join(', ')}: ${operations.join(', ')} fail with 403 insufficient_scope`,
        fix: `Give the key (or the OAuth client) the scopes ${missing.join(', ')}, or leave those operations out of your app.`,
        assumption: ASSUMPTIONS.scopes,
        details,
      };
    }
    return {
      id: 'scopes',
      status: 'ok',
      summary: `granted ${granted.length} of ${SCOPES.length}${
        unchecked.length
          ? `; unchecked ${unchecked.map((scope) => `${scope} (${reasons[scope]})`).join(', ')}`
          : ''
      }`,
      assumption: ASSUMPTIONS.scopes,
      details,
    };
  }

  #rateLimit(): DoctorCheck {
    // The latest answer that described the window (an error answer may not), else the latest.
    const last =
      this.#exchanges.findLast((exchange) => parseRateLimit(exchange.headers)) ??
      this.#exchanges.at(-1);
    if (!last)
      return skip('rate-limit', 'no answer to read the headers from', ASSUMPTIONS.rateLimit);
    const headers = rateLimitHeaderNames(last.headers);
    const window = parseRateLimit(last.headers);
    if (!window) {
      return {
        id: 'rate-limit',
        status: 'warn',
        summary: headers.length
          ? `the answers carry ${headers.join(', ')}, in a form the SDK does not read: pacing is off`
          : 'the answers carry no rate-limit headers: pacing is off',
        fix: 'Without the headers the SDK cannot pace: a bulk job runs until the service answers 429, then waits its Retry-After; each 429 is a request spent for nothing. Lower the job’s concurrency, or ask the service which headers it sends.',
        assumption: ASSUMPTIONS.rateLimit,
        details: { limit: null, remaining: null, resetAt: null, headers },
      };
    }
    const family = (window as { family?: string }).family;
    const tier = [10, 100, 1000].includes(window.limit) ? window.limit : null;
    const details = {
      limit: window.limit,
      remaining: window.remaining,
      resetAt: window.reset.toISOString(),
      headers,
      ...(family !== undefined && { family }),
      tier,
    };
    const variant = headers.some((name) => !name.startsWith('x-ratelimit-'));
    return {
      id: 'rate-limit',
      status: 'ok',
      summary: `${tier ? `tier ${tier}` : `limit ${window.limit}`}: ${window.remaining} left, reset at ${window.reset.toISOString()}, from ${headers.join(', ')}${variant ? ' (a standard variant the SDK reads)' : ''}`,
      assumption: ASSUMPTIONS.rateLimit,
      details,
    };
  }

  #clock(): DoctorCheck {
    // The answer that came fastest bounds the error best: its Date is within its round trip.
    const timed = this.#exchanges
      .filter((exchange) => Number.isFinite(Date.parse(exchange.headers.get('date') ?? '')))
      .sort((a, b) => a.durationMs - b.durationMs)[0];
    if (!timed) {
      return skip('clock', 'no answer carried a Date header', ASSUMPTIONS.clock);
    }
    // Date has whole seconds: its middle, against the middle of the round trip.
    const serverMs = Date.parse(timed.headers.get('date')!) + 500;
    const localMs = timed.sentAt + timed.durationMs / 2;
    const skewSeconds = Math.round((localMs - serverMs) / 1000);
    const size = Math.abs(skewSeconds);
    const direction = skewSeconds > 0 ? 'ahead of' : 'behind';
    const details = { skewSeconds, roundTripMs: timed.durationMs };
    if (size > WEBHOOK_TOLERANCE_SECONDS) {
      const code = skewSeconds > 0 ? 'timestamp_too_old' : 'timestamp_too_new';
      return {
        id: 'clock',
        status: 'fail',
        summary: `this machine's clock is ${size} s ${direction} the service's: every webhook delivery is refused (verifyWebhook throws WebhookVerificationError ${code}: ${WEBHOOK_HEADER_TIMESTAMP} beyond the ${WEBHOOK_TOLERANCE_SECONDS} s tolerance)`,
        fix: 'Synchronize this machine’s clock (NTP: timedatectl set-ntp true, or the platform’s time service).',
        assumption: ASSUMPTIONS.clock,
        details,
      };
    }
    if (size > CLOCK_WARNING_SECONDS) {
      return {
        id: 'clock',
        status: 'warn',
        summary: `this machine's clock is ${size} s ${direction} the service's: within the ${WEBHOOK_TOLERANCE_SECONDS} s webhook tolerance, but drifting`,
        fix: 'Synchronize this machine’s clock (NTP) before it reaches 300 s, where webhook deliveries are refused.',
        assumption: ASSUMPTIONS.clock,
        details,
      };
    }
    return {
      id: 'clock',
      status: 'ok',
      summary: `within ${Math.max(size, 1)} s of the service's`,
      assumption: ASSUMPTIONS.clock,
      details,
    };
  }

  async #errors(): Promise<DoctorCheck> {
    const id = crypto.randomUUID();
    const probe = await this.#probe('users.get', (client) =>
      client.get(`/v1/users/${id}`, this.#callOptions()),
    );
    if (probe.skipped) return skip('errors', probe.skipped, ASSUMPTIONS.errorBody);
    const exchange = probe.exchange;
    if (!exchange) {
      return skip(
        'errors',
        `no answer to GET /v1/users/<random id> (${codeOf(probe.error)})`,
        ASSUMPTIONS.errorBody,
      );
    }
    const judged = await this.#judge('users.get', exchange);
    const shape = judged.errorShape ?? 'other';
    const requestId = exchange.headers.has(HEADER_REQUEST_ID);
    const details = { status: exchange.status, shape, requestIdHeader: requestId };
    const problems: string[] = [];
    const fixes: string[] = [];
    if (exchange.status !== 404) {
      problems.push(
        `an unknown user's id answered ${exchange.status}, not 404: the call gets ${judged.error?.name ?? 'no error'}, not NotFoundError`,
      );
    }
    if (shape === 'other') {
      problems.push(
        'the error body is not the SDK’s { error: { code, message } } nor RFC 9457 problem+json: every ApiError’s message is the raw body text, and its code the status’s',
      );
      fixes.push('Branch on the error classes (NotFoundError…) and `status`, not on `code`.');
    }
    if (!requestId) {
      problems.push(
        `the answer has no ${HEADER_REQUEST_ID} header: errors carry no request id for support`,
      );
      fixes.push('Quote the time and the operation when contacting support.');
    }
    if (problems.length > 0) {
      return {
        id: 'errors',
        status: 'warn',
        summary: problems.join('; '),
        fix:
          fixes.join(' ') ||
          'Tell the service’s support which status it answers for an unknown id.',
        assumption: ASSUMPTIONS.errorBody,
        details,
      };
    }
    return {
      id: 'errors',
      status: 'ok',
      summary: `404 ${ERROR_CODES[404]}${shape === 'problem+json' ? ' as RFC 9457 problem+json (a standard variant the SDK reads)' : ' in the SDK’s error body'}, with ${HEADER_REQUEST_ID}`,
      assumption: ASSUMPTIONS.errorBody,
      details,
    };
  }

  /**
   * The 2xx answer to `operation`'s probe, or why there is none (a missing scope said as such):
   * the preamble of every check that reads a probed answer.
   */
  #answered(operation: OperationName): { exchange: Exchange } | { why: string } {
    const probe = this.#probes.get(operation);
    const status = probe?.exchange?.status ?? 0;
    if (probe?.exchange && status >= 200 && status < 300) return { exchange: probe.exchange };
    const scope = READ_PROBES.find((each) => each.operation === operation)?.scope;
    return {
      why:
        status === 403
          ? `the key lacks ${scope}`
          : (probe?.skipped ??
            (status ? `${operation} answered ${status}` : `no answer to ${operation}`)),
    };
  }

  /** What the SDK makes of a probed answer: the judge's verdict (judge.ts). */
  async #judge(operation: OperationName, exchange: Exchange): Promise<Judgement> {
    const page = new URL(exchange.url).searchParams.get('page');
    return judge(
      this.#client,
      operation,
      exchange.url,
      { status: exchange.status, headers: exchange.headers, body: await exchange.text },
      page ? Number(page) : undefined,
    );
  }

  async #pagination(): Promise<DoctorCheck> {
    const answered = this.#answered('recognitions.list');
    if (!('exchange' in answered)) {
      return skip('pagination', answered.why, ASSUMPTIONS.pagination);
    }
    const { exchange } = answered;
    const judged = await this.#judge('recognitions.list', exchange);
    const body = (await exchange.body) as { pagination?: unknown } | undefined;
    // For the wording only: whether the SDK follows the link is the judge's to say.
    const link = /rel="?next/i.test(exchange.headers.get(HEADER_LINK) ?? '');
    const pagination = body && typeof body === 'object' ? body.pagination : undefined;
    const fields =
      pagination && typeof pagination === 'object' && !Array.isArray(pagination)
        ? (pagination as Record<string, unknown>)
        : undefined;
    const otherCursor = fields
      ? Object.keys(fields).find(
          (key) => key !== 'next_cursor' && /cursor|next|after|token/i.test(key),
        )
      : undefined;
    // The service's names, a bounded few of them.
    const names = fields
      ? Object.keys(fields)
          .slice(0, 20)
          .map((name) => name.slice(0, 60))
      : [];
    const mode = judged.paging === 'last' ? 'none' : (judged.paging ?? 'none');
    const details = {
      mode,
      cursorField: judged.paging === 'cursor' ? 'next_cursor' : (otherCursor ?? null),
      link,
      fields: names,
    };
    const common = { id: 'pagination', assumption: ASSUMPTIONS.pagination, details };
    if (judged.error) {
      return {
        ...common,
        status: 'fail',
        summary: `${link ? 'a Link header with rel="next", but ' : ''}${
          fields ? `pagination holds ${names.join(', ') || 'nothing'}` : 'no pagination object'
        }: every list call fails with ${judged.error.name} (${judged.error.message})`,
        fix: 'Tell the SDK’s maintainers the envelope the service sends (docs/doctor.md, “Reporting a difference”); meanwhile read lists with client.get() and page them yourself.',
      };
    }
    return {
      ...common,
      status: 'ok',
      summary:
        judged.paging === 'link'
          ? 'Link paging (RFC 8288): the SDK follows rel="next"'
          : judged.paging === 'cursor'
            ? 'cursor mode: pagination.next_cursor, with page and total_pages'
            : judged.paging === 'page'
              ? `page mode: pagination.page and total_pages${otherCursor ? ` (${otherCursor} unread)` : ''}`
              : 'one page only',
    };
  }

  async #records(): Promise<DoctorCheck> {
    const differences: RecordDifference[] = [];
    const newFields: NewField[] = [];
    const unknownValues: RecordDifference[] = [];
    const sampled: string[] = [];
    const unsampled: string[] = [];
    // What fails a call outright (the envelope, a record's id), as the SDK reads each answer.
    const failing: string[] = [];
    for (const { operation } of READ_PROBES) {
      const answered = this.#answered(operation);
      if (!('exchange' in answered)) {
        unsampled.push(operation);
        continue;
      }
      const judged = await this.#judge(operation, answered.exchange);
      // The pagination check reports a list's paging; the errors of its records are this check's.
      if (judged.error && !isPagingFault(judged.error.paths)) {
        failing.push(`${operation}: ${judged.error.name} (${judged.error.message})`);
      }
      const body = sampleOne(await answered.exchange.body);
      if (isEmptyList(body)) {
        unsampled.push(operation);
        continue;
      }
      sampled.push(operation);
      const found = checkRecords(operation, body);
      differences.push(...found.differences);
      newFields.push(...found.newFields);
      unknownValues.push(...found.unknownValues);
    }
    const details = { differences, newFields, unknownValues, sampled, unsampled };
    if (sampled.length === 0 && failing.length === 0) {
      return skip('records', 'no readable record to sample', ASSUMPTIONS.records, details);
    }
    const check = recordsCheck(
      { differences, newFields, unknownValues, failing },
      details,
      ASSUMPTIONS.records,
      `${plural(sampled.length, 'record type')} match${sampled.length === 1 ? 'es' : ''}`,
    );
    if (unsampled.length) check.summary += `; not sampled: ${unsampled.join(', ')}`;
    return check;
  }

  #deprecations(): DoctorCheck {
    const notices: Record<string, unknown>[] = [];
    const seen = new Set<string>();
    let retired = false;
    for (const exchange of this.#exchanges) {
      const notice = parseDeprecation(exchange.headers, exchange.url, this.#now());
      if (!notice || seen.has(exchange.operation)) continue;
      seen.add(exchange.operation);
      if (notice.sunsetAt && notice.sunsetAt.getTime() <= this.#now()) retired = true;
      notices.push({
        operation: exchange.operation,
        deprecated: notice.deprecated,
        deprecatedAt: notice.deprecatedAt?.toISOString() ?? null,
        sunsetAt: notice.sunsetAt?.toISOString() ?? null,
        link: notice.deprecationLink ? withoutQuery(notice.deprecationLink) : null,
      });
    }
    const details = { notices };
    if (notices.length === 0) {
      return {
        id: 'deprecations',
        status: 'ok',
        summary: `no Deprecation or Sunset notice on ${plural(this.#exchanges.length, 'answer')}`,
        assumption: ASSUMPTIONS.deprecations,
        details,
      };
    }
    const now = this.#now();
    const list = notices
      .map(
        (each) =>
          `${String(each.operation)}${
            each.sunsetAt
              ? Date.parse(String(each.sunsetAt)) <= now
                ? ` (its sunset passed on ${String(each.sunsetAt)})`
                : ` (sunset ${String(each.sunsetAt)})`
              : ''
          }`,
      )
      .join(', ');
    const links = notices.filter((each) => each.link);
    return {
      id: 'deprecations',
      status: retired ? 'fail' : 'warn',
      summary: `deprecated: ${list}`,
      fix: `${
        retired
          ? 'A sunset has passed: calls may fail at any time; move off now.'
          : 'Move off these operations before their sunset.'
      }${links.map((each) => ` ${String(each.operation)}: ${String(each.link)}`).join('')}`,
      assumption: ASSUMPTIONS.deprecations,
      details,
    };
  }

  async #webhooks(): Promise<DoctorCheck> {
    const answered = this.#answered('webhooks.list');
    if (!('exchange' in answered)) return skip('webhooks', answered.why, ASSUMPTIONS.webhooks);
    const body = (await answered.exchange.body) as { data?: unknown } | undefined;
    const list = (Array.isArray(body?.data) ? (body.data as unknown[]) : []).filter(
      (each): each is Record<string, unknown> => typeof each === 'object' && each !== null,
    );
    const known = new Set<string>([...WEBHOOK_EVENT_TYPES, '*']);
    const problems: string[] = [];
    const webhooks = list.map((webhook) => {
      const url = typeof webhook.url === 'string' ? webhook.url : '';
      const shown = withoutQuery(url);
      const secure = urlIsDeliverable(url);
      const events = Array.isArray(webhook.events)
        ? webhook.events.filter((each) => typeof each === 'string')
        : [];
      const unknownEvents = events.filter((each) => !known.has(each));
      if (!secure)
        problems.push(`${shown || '(no url)'} is neither https nor http on this machine`);
      if (webhook.enabled === false) problems.push(`${shown} is disabled: nothing is delivered`);
      if (unknownEvents.length) {
        problems.push(
          `${shown} subscribes to ${unknownEvents.length} event type${unknownEvents.length === 1 ? '' : 's'} this SDK does not know`,
        );
      }
      return {
        id: typeof webhook.id === 'string' ? webhook.id : null,
        url: shown,
        https: secure,
        enabled: webhook.enabled === true,
        events: events.length,
        unknownEvents,
      };
    });
    const details: Record<string, unknown> = {
      webhooks: webhooks.slice(0, MAX_WEBHOOKS_SHOWN),
      total: webhooks.length,
    };
    const receiver = this.#options.receiver;
    if (receiver) {
      const url =
        this.#options.receiverUrl ??
        (list.length === 1 && typeof list[0]!.url === 'string' ? list[0]!.url : undefined);
      if (!url) {
        details.plan = null;
        problems.push(
          'with a receiver, say its URL (--url): more or fewer than one webhook exists',
        );
      } else {
        const planned = await this.#probe('webhooks.list', (client) =>
          syncWebhooks(client.withOptions({ timeout: PROBE_TIMEOUT_MS }), receiver, {
            url,
            dryRun: true,
          }),
        );
        if (planned.data) {
          details.plan = planned.data.plan.map((step) => ({
            operation: step.operation,
            ...('webhookId' in step && { webhookId: step.webhookId }),
            ...('params' in step && 'events' in step.params && { events: step.params.events }),
            ...('params' in step && 'enabled' in step.params && { enabled: step.params.enabled }),
          }));
          if (planned.data.plan.length > 0) {
            problems.push(
              `webhooks sync would make ${planned.data.plan.length} change${planned.data.plan.length === 1 ? '' : 's'} for ${withoutQuery(url)} (details.plan)`,
            );
          }
        } else {
          details.plan = null;
          problems.push(
            `the sync plan could not be made (${planned.skipped ?? codeOf(planned.error)})`,
          );
        }
      }
    }
    if (problems.length > 0) {
      const insecure = webhooks.some((webhook) => !webhook.https);
      return {
        id: 'webhooks',
        status: insecure ? 'fail' : 'warn',
        summary:
          problems.slice(0, 5).join('; ') +
          (problems.length > 5 ? `; and ${problems.length - 5} more (details.webhooks)` : ''),
        fix: 'employee-recognition webhooks sync --url <url> --receiver <module> makes the subscription match the receiver; an unknown event type reaches onAny() handlers only.',
        assumption: ASSUMPTIONS.webhooks,
        details,
      };
    }
    return {
      id: 'webhooks',
      status: 'ok',
      summary:
        list.length === 0
          ? 'no webhook subscription'
          : `${list.length} subscription${list.length === 1 ? '' : 's'}, enabled, https, known events${receiver ? '; in step with the receiver' : ''}`,
      assumption: ASSUMPTIONS.webhooks,
      details,
    };
  }

  /**
   * The write checks: a webhook created for the purpose (to a discard port on this machine, for
   * one rare event), disabled at once, created again with the same Idempotency-Key, then deleted,
   * along with any copy the replay made, whatever failed in between.
   */
  async #writeChecks(): Promise<WriteOutcome> {
    const unaffordable = this.#unaffordable(6);
    if (unaffordable) {
      return {
        scope: undefined,
        reason: unaffordable,
        check: skip('idempotency', unaffordable, ASSUMPTIONS.idempotency),
      };
    }
    const marker = crypto.randomUUID();
    const params = {
      url: `http://127.0.0.1:9/employee-recognition-doctor/${marker}`,
      events: ['budget.depleted' as const],
      description: 'employee-recognition doctor --write: a probe, deleted at once',
    };
    const key = `doctor-${marker}`;
    const created = new Set<string>();
    try {
      const first = await this.#probe('webhooks.create', (client) =>
        client.webhooks.create(params, this.#callOptions({ idempotencyKey: key })),
      );
      const firstData = (first.data as { data?: { id?: unknown; secret?: unknown } } | undefined)
        ?.data;
      if (typeof firstData?.id === 'string') created.add(firstData.id);
      if (first.exchange?.status === 403) {
        return {
          scope: 'missing',
          reason: undefined,
          check: skip(
            'idempotency',
            'the key lacks webhooks:write, which the replay check needs',
            ASSUMPTIONS.idempotency,
          ),
        };
      }
      if (!firstData) {
        const why = first.exchange
          ? `answered ${first.exchange.status}`
          : `no answer (${codeOf(first.error)})`;
        return {
          scope: undefined,
          reason: `the create ${why}`,
          check: {
            id: 'idempotency',
            status: 'fail',
            summary: `the webhook create ${why}`,
            fix: 'Run again; if it persists, tell the service’s support with the time of the run.',
            assumption: ASSUMPTIONS.idempotency,
            details: { created: false },
          },
        };
      }
      if (typeof firstData.id === 'string') {
        await this.#probe('webhooks.update', (client) =>
          client.webhooks.update(firstData.id as string, { enabled: false }, this.#callOptions()),
        );
      }
      const again = await this.#probe('webhooks.create', (client) =>
        client.webhooks.create(params, this.#callOptions({ idempotencyKey: key })),
      );
      const againData = (again.data as { data?: { id?: unknown; secret?: unknown } } | undefined)
        ?.data;
      if (typeof againData?.id === 'string') created.add(againData.id);
      const sameId = againData?.id === firstData.id;
      const sameSecret = againData?.secret === firstData.secret;
      const details = {
        created: true,
        replayStatus: again.exchange?.status ?? null,
        sameId,
        sameSecret,
      };
      if (sameId && sameSecret) {
        return {
          scope: 'granted',
          reason: undefined,
          check: {
            id: 'idempotency',
            status: 'ok',
            summary:
              'the same Idempotency-Key twice gave the same webhook and secret: retried writes are not repeated',
            assumption: ASSUMPTIONS.idempotency,
            details,
          },
        };
      }
      return {
        scope: 'granted',
        reason: undefined,
        check: {
          id: 'idempotency',
          status: 'fail',
          summary: again.exchange
            ? `the same Idempotency-Key twice gave ${sameId ? 'another secret' : againData ? 'a second webhook' : `${again.exchange.status}`}: a retried write may be done twice`
            : 'the replay got no answer',
          fix: 'Until the service replays writes, keep maxRetries: 0 for creates whose repetition matters (recognitions), and check before creating again.',
          assumption: ASSUMPTIONS.idempotency,
          details,
        },
      };
    } finally {
      // The clean-up: never left behind, whatever failed above. Any answer that never came (the
      // first create's, the replay's) may still have made a webhook: every one is found by the
      // unique URL they were all created with, beside the ids the answers gave.
      this.#operation = 'webhooks.list';
      const listed = await this.#client.webhooks.list(this.#callOptions()).catch(() => undefined);
      for (const webhook of listed?.data ?? []) {
        if (webhook.url === params.url) created.add(webhook.id);
      }
      for (const id of created) {
        this.#operation = 'webhooks.delete';
        await this.#client.webhooks.delete(id, this.#callOptions()).catch(() => undefined);
      }
    }
  }
}

interface WriteOutcome {
  scope: 'granted' | 'missing' | undefined;
  reason: string | undefined;
  check: DoctorCheck;
}

function skip(
  id: string,
  reason: string,
  assumption?: string,
  details: Record<string, unknown> = {},
): DoctorCheck {
  return { id, status: 'skip', summary: reason, assumption, details };
}

/** The `connection` check: the socket layers, then the first probe's HTTP answer. */
function connectionCheck(
  sockets: Awaited<ReturnType<typeof probeSockets>>,
  first: Probe | undefined,
): DoctorCheck {
  const details: Record<string, unknown> = { ...(sockets?.details ?? {}) };
  if (sockets?.failure) {
    return {
      id: 'connection',
      status: 'fail',
      summary: sockets.failure.summary,
      fix: sockets.failure.fix,
      details,
    };
  }
  const layers = sockets?.summary ? `${sockets.summary}, ` : '';
  const exchange = first?.exchange;
  if (!exchange) {
    const code = codeOf(first?.error);
    details.http = null;
    return {
      id: 'connection',
      status: 'fail',
      summary: `${layers}HTTP: no answer (${first?.skipped ?? code}): calls get ApiConnectionError`,
      fix: 'Check the base URL and that the service is up; a proxy in the way shows in the runtime check.',
      details,
    };
  }
  details.httpStatus = exchange.status;
  details.roundTripMs = exchange.durationMs;
  if (exchange.status >= 500) {
    return {
      id: 'connection',
      status: 'fail',
      summary: `${layers}HTTP ${exchange.status} in ${exchange.durationMs} ms: the service is failing (calls get an ApiError)`,
      fix: 'The service (or a proxy before it) is down or failing: run again later, or ask its status page.',
      details,
    };
  }
  const summary = `${layers}HTTP ${exchange.status} in ${exchange.durationMs} ms`;
  if (sockets?.warning) {
    return {
      id: 'connection',
      status: 'warn',
      summary: `${summary}; ${sockets.warning.summary}`,
      fix: sockets.warning.fix,
      details,
    };
  }
  return { id: 'connection', status: 'ok', summary, details };
}

/** The `credential` check: the first probe's answer, and the kind the caller said. */
function credentialCheck(credential: KnownCredential, first: Probe, now: number): DoctorCheck {
  const status = first.exchange?.status;
  const expiresAt = credential.expiresAt;
  const details = {
    kind: credential.kind,
    accepted:
      status !== undefined && status !== 401 && status < 500 ? true : status === 401 ? false : null,
    expiresAt: expiresAt === undefined ? null : new Date(expiresAt).toISOString(),
  };
  if (status === 401) {
    return {
      id: 'credential',
      status: 'fail',
      summary: `refused (401): ${credential.label} the service does not accept (AuthenticationError)`,
      fix: 'Check RECOGNITION_API_KEY (a live key goes with the live service, a test key with the test one), or the OAuth client; a revoked key needs a new one.',
      assumption: ASSUMPTIONS.credential,
      details,
    };
  }
  if (status === undefined || status >= 500) {
    return skip(
      'credential',
      'the service gave no answer to judge it by (see connection)',
      ASSUMPTIONS.credential,
      details,
    );
  }
  const expiry =
    expiresAt === undefined
      ? ''
      : expiresAt <= now
        ? ', expired'
        : `, expires in ${Math.round((expiresAt - now) / 60_000)} min`;
  if (credential.kind === 'unknown') {
    return {
      id: 'credential',
      status: 'ok',
      summary: 'accepted; its kind was not given',
      assumption: ASSUMPTIONS.credential,
      details,
    };
  }
  return {
    id: 'credential',
    status: expiresAt !== undefined && expiresAt <= now ? 'warn' : 'ok',
    summary: `accepted: ${credential.label}${expiry}`,
    fix:
      expiresAt !== undefined && expiresAt <= now
        ? 'The token has expired: a token function (clientCredentials()) refreshes it.'
        : undefined,
    assumption: ASSUMPTIONS.credential,
    details,
  };
}

/** The names of the rate-limit headers an answer carries, lower-cased. */
function rateLimitHeaderNames(headers: Headers): string[] {
  const names: string[] = [];
  for (const [name] of headers) {
    if (/^(x-)?ratelimit(-|$)/.test(name) || name === 'retry-after') names.push(name);
  }
  return names.filter((name) => name !== 'retry-after');
}

/** Whether an InvalidResponseError's paths are all the paging's: the pagination check's to report. */
function isPagingFault(paths: readonly string[]): boolean {
  return (
    paths.length > 0 && paths.every((path) => path === 'link' || path.startsWith('pagination'))
  );
}

/** A list's body cut to its first record: one sampled record per type. */
function sampleOne(body: unknown): unknown {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return body;
  return { ...(body as object), data: data.slice(0, 1) };
}

function isEmptyList(body: unknown): boolean {
  const data = (body as { data?: unknown } | null)?.data;
  return Array.isArray(data) && data.length === 0;
}

/** A URL without user info, query or fragment: what may be shown of it. */
function withoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url ? '(not a URL)' : '';
  }
}

function urlIsDeliverable(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (
      parsed.protocol === 'https:' ||
      (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname))
    );
  } catch {
    return false;
  }
}

/** The first MAX_BODY_BYTES of a body as text; undefined when empty, longer or unreadable. */
async function readBody(response: Response): Promise<string | undefined> {
  try {
    const reader = response.body?.getReader();
    if (!reader) return undefined;
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel();
        return undefined;
      }
    }
    const bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    return new TextDecoder().decode(bytes) || undefined;
  } catch {
    return undefined;
  }
}

/** A body's JSON, else its text. */
function parseOrText(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
