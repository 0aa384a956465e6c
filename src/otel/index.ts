/**
 * `@employee-recognition/sdk/otel`: OpenTelemetry traces and metrics for the client, the webhook
 * receiver and the MCP server, through `@opentelemetry/api` (an optional peer dependency) and the
 * observer points of the core (core/observer.ts). The app brings the OpenTelemetry SDK; without
 * one registered, every span and instrument here is the API's no-op. docs/observability.md.
 */
import {
  type Attributes,
  type Context,
  context,
  type Counter,
  createContextKey,
  type Histogram,
  type MeterProvider,
  metrics,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { HEADER_REQUEST_ID, OPERATIONS, type OperationName } from '../contract.js';
import { ApiError, type EmployeeRecognitionError } from '../core/errors.js';
import { redactSecrets, redactUrl } from '../internal/redact.js';
import type { CallObserver, Instrumentation, SentAttempt, WaitKind } from '../core/observer.js';
import { type DeprecationNotice, parseDeprecation } from '../internal/deprecation.js';
import { VERSION } from '../version.js';
import type {
  DeliveryObserver,
  WebhookInstrumentation,
  WebhookReceipt,
} from '../webhooks/receiver.js';

/** The instrumentation scope of every span and instrument: the package, at its version. */
const SCOPE = '@employee-recognition/sdk';
/** Attributes of our own, where the semantic conventions have none. */
const NS = 'employee_recognition';
/**
 * The service's request id, as the HTTP conventions name a response header's attribute
 * (`http.response.header.<name>`, a list of its values).
 */
const REQUEST_ID_ATTRIBUTE = `http.response.header.${HEADER_REQUEST_ID}`;
/**
 * The context key `@opentelemetry/core`'s `suppressTracing()` sets (created with the same
 * description, so the same key: `createContextKey` is `Symbol.for`). Each attempt's own fetch
 * runs under it, so an instrumentation of fetch beneath ours (`@opentelemetry/instrumentation-
 * undici`) records no second span for the same HTTP request and adds no second `traceparent`.
 */
const SUPPRESS_TRACING = createContextKey('OpenTelemetry SDK Context Key SUPPRESS_TRACING');
/** The buckets the HTTP metric conventions advise for `http.client.request.duration`, in s. */
const DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];
/** Buckets for rate-limit waits, which last up to the 60 s cap, in s. */
const WAIT_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 20, 30, 45, 60];
/** The cause the shared pacing store's queue names for its waits (core/shared-throttle.ts). */
const STORE_CAUSE = /shared pacing store/;
/** The redirect statuses the core follows (core/request.ts). */
const REDIRECTS = /^30[12378]$/;
/** A credential wait shorter than this (a token held by the provider) is not a span. */
const CREDENTIAL_SPAN_MS = 1;

/** Options of {@link openTelemetry}. */
export interface OpenTelemetryOptions {
  /** Where spans go. Default: the global provider (`trace.setGlobalTracerProvider`, the Node SDK's). */
  tracerProvider?: TracerProvider | undefined;
  /** Where measurements go. Default: the global provider (`metrics.setGlobalMeterProvider`). */
  meterProvider?: MeterProvider | undefined;
}

/**
 * The MCP server's observer point (`@employee-recognition/mcp`'s `instrumentation` option): told
 * of each tool call.
 */
export interface ToolCallObserver {
  /** Runs the tool in the call's context, so the API calls it makes are the span's children. */
  run<T>(tool: () => Promise<T>): Promise<T>;
  /** The call ended: `error` when it failed, `isError` when it answered a tool error. */
  end(outcome: { error?: unknown; isError?: boolean | undefined }): void;
}

/**
 * What {@link openTelemetry} returns: one object for the `instrumentation` option of
 * `new Client()`, `createWebhookReceiver()` and `createMcpServer()`.
 */
export interface OpenTelemetryInstrumentation extends Instrumentation, WebhookInstrumentation {
  /** A tool call of the MCP server starts. */
  toolCall(name: string): ToolCallObserver;
}

/**
 * Traces and metrics for the SDK, through OpenTelemetry's API.
 *
 * - The client: one span per call, named for the operation (`users.get`), with one CLIENT span
 *   per attempt beneath it under the HTTP client conventions (`GET /v1/users/{id}`), the waits
 *   (rate limit, retry, credential) as spans and redirects as events; `traceparent` sent on each
 *   attempt through the registered propagator; `http.client.request.duration` per attempt, and
 *   the SDK's own counts of rate-limit waits and retries.
 * - The webhook receiver: one span per delivery, with its outcome and each handler's failure.
 * - The MCP server: one span per tool call.
 *
 * Every span's parent is the context active when the method is called (captured then, so no
 * zones are needed in browsers or workerd).
 *
 * @example
 * ```ts
 * import { Client } from '@employee-recognition/sdk';
 * import { openTelemetry } from '@employee-recognition/sdk/otel';
 *
 * const client = new Client({ instrumentation: openTelemetry() });
 * ```
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): OpenTelemetryInstrumentation {
  const telemetry = new Telemetry(options);
  return {
    call: (operation) => new CallTrace(telemetry, operation),
    delivery: () => new DeliveryTrace(telemetry),
    toolCall: (name) => new ToolCallTrace(telemetry, name),
  };
}

/** The tracer and instruments of one {@link openTelemetry}, made once. */
class Telemetry {
  readonly tracer: Tracer;
  readonly duration: Histogram;
  readonly rateLimitWaits: Histogram;
  readonly retries: Counter;

  constructor({ tracerProvider, meterProvider }: OpenTelemetryOptions) {
    this.tracer = (tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE, VERSION);
    const meter = (meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE, VERSION);
    this.duration = meter.createHistogram('http.client.request.duration', {
      description: 'Duration of HTTP client requests: each attempt, from sending to its body read.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.rateLimitWaits = meter.createHistogram(`${NS}.client.rate_limit.wait.duration`, {
      description:
        'Waits for a place under the rate limit before an attempt (count and total time).',
      unit: 's',
      advice: { explicitBucketBoundaries: WAIT_BUCKETS },
    });
    this.retries = meter.createCounter(`${NS}.client.retries`, {
      description: 'Attempts the client retried, by cause.',
      unit: '{retry}',
    });
  }
}

/** A wait announced by the core, made a span when it ends (its length is known then). */
interface OpenWait {
  kind: WaitKind;
  cause: string;
  /** How long the SDK expected it to last. */
  expectedMs: number;
  started: number;
}

/** An attempt's span and what its duration measurement needs. */
interface OpenAttempt {
  span: Span;
  /** The attempt's URL: the base of the links an answer gives. */
  url: string;
  started: number;
  attributes: Attributes;
}

/** One call: its span, and the span of the attempt or wait under way. */
class CallTrace implements CallObserver {
  readonly #telemetry: Telemetry;
  readonly #span: Span;
  /** The call span's context: every attempt and wait is its child. */
  readonly #context: Context;
  readonly #template: string | undefined;
  readonly #named: boolean;
  #attempt: OpenAttempt | undefined;
  #wait: OpenWait | undefined;
  /** The status of the last attempt's answer: a redirect's makes the next attempt its hop. */
  #lastStatus = 0;
  /** Whether an answer's deprecation notice is already on the call span. */
  #deprecationNoted = false;
  /**
   * The credential of the last attempt, read from the headers the core hands the attempt's
   * fetch: a service may echo it anywhere, and nothing copied from an answer or an error reaches
   * a span or a measurement without {@link CallTrace.#redact}.
   */
  #credential: string | undefined;

  constructor(telemetry: Telemetry, operation: OperationName | undefined) {
    this.#telemetry = telemetry;
    // Captured now, where the method is called: the caller's span, with or without zones.
    const parent = context.active();
    const route = operation && OPERATIONS[operation];
    this.#template = route?.slice(route.indexOf(' ') + 1);
    this.#named = operation !== undefined;
    this.#span = telemetry.tracer.startSpan(
      // A raw request is named by its method once it is known (the first attempt).
      operation ?? 'HTTP',
      { kind: SpanKind.INTERNAL, attributes: operation ? { [`${NS}.operation`]: operation } : {} },
      parent,
    );
    this.#context = trace.setSpan(parent, this.#span);
  }

  wait(kind: WaitKind, ms: number, cause?: string, error?: EmployeeRecognitionError): void {
    this.#endAttempt(error);
    this.#endWait();
    const named = this.#redact(cause ?? kind);
    if (kind === 'retry') {
      this.#telemetry.retries.add(1, {
        [`${NS}.retry.cause`]: named,
        ...(error && { 'error.type': this.#redact(errorType(error)) }),
      });
    }
    this.#wait = { kind, cause: named, expectedMs: ms, started: now() };
  }

  attempt(attempt: SentAttempt, fetch: typeof globalThis.fetch): typeof globalThis.fetch {
    this.#endAttempt();
    this.#endWait();
    const { method, url } = attempt;
    if (!this.#named && attempt.attempt === 1) this.#span.updateName(method);
    if (REDIRECTS.test(String(this.#lastStatus))) {
      // A hop is an attempt like any other (its own span, a resend); the call notes why.
      this.#span.addEvent('redirect', {
        [`${NS}.wait.cause`]: `redirect ${this.#lastStatus}`,
        'http.response.status_code': this.#lastStatus,
      });
    }
    const parsed = new URL(url);
    const attributes: Attributes = {
      'http.request.method': method,
      'server.address': parsed.hostname,
      'server.port': Number(parsed.port) || (parsed.protocol === 'https:' ? 443 : 80),
      ...(this.#template && { 'url.template': this.#template }),
    };
    const span = this.#telemetry.tracer.startSpan(
      this.#template ? `${method} ${this.#template}` : method,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          ...attributes,
          'url.full': redactUrl(parsed.href, this.#credential, 'REDACTED'),
          ...(attempt.attempt > 1 && { 'http.request.resend_count': attempt.attempt - 1 }),
        },
      },
      this.#context,
    );
    const open: OpenAttempt = (this.#attempt = { span, url, started: now(), attributes });
    const attemptContext = trace.setSpan(this.#context, span);
    const carrier: Record<string, string> = {};
    propagation.inject(attemptContext, carrier);
    const quiet = attemptContext.setValue(SUPPRESS_TRACING, true);
    // The core's headers are a plain object of lower-case names: ours replace one of the same
    // name, so one `traceparent` is sent.
    return (input, init) => {
      const authorization = (init?.headers as Record<string, string> | undefined)?.authorization;
      this.#credential = authorization?.replace(/^Bearer /, '') ?? this.#credential;
      return context
        .with(quiet, () =>
          fetch(input, {
            ...init,
            headers: { ...(init?.headers as Record<string, string>), ...carrier },
          }),
        )
        .then((response) => {
          // An answer after the attempt timed out (its span ended) is nobody's.
          if (this.#attempt === open) this.#answered(open, response);
          return response;
        });
    };
  }

  readonly end = (error?: unknown): void => {
    this.#endAttempt(error);
    this.#endWait();
    if (error !== undefined) fail(this.#span, error, this.#redact);
    this.#span.end();
  };

  /** Server or error text as a span may hold it: without the credential or any secret. */
  readonly #redact = (text: string): string => redactSecrets(text, this.#credential);

  /** Records an attempt's answer: its status, the service's request id, an error's type. */
  #answered({ span, url, attributes }: OpenAttempt, response: Response): void {
    const { status } = response;
    this.#lastStatus = status;
    attributes['http.response.status_code'] = status;
    span.setAttribute('http.response.status_code', status);
    const requestId = response.headers.get(HEADER_REQUEST_ID);
    if (requestId) span.setAttribute(REQUEST_ID_ATTRIBUTE, [this.#redact(requestId)]);
    if (status >= 400) attributes['error.type'] = String(status);
    if (!this.#deprecationNoted) {
      const notice = parseDeprecation(response.headers, url, undefined, this.#redact);
      if (notice) this.#noteDeprecation(notice);
    }
  }

  /**
   * The service's deprecation notice (docs/errors-and-retries.md), on the call span: once per
   * call, as attributes a backend can query and an event at the answer that carried it.
   */
  #noteDeprecation(notice: DeprecationNotice): void {
    this.#deprecationNoted = true;
    const attributes: Attributes = {
      [`${NS}.deprecation.deprecated`]: notice.deprecated,
      ...(notice.deprecatedAt && {
        [`${NS}.deprecation.date`]: notice.deprecatedAt.toISOString(),
      }),
      ...(notice.sunsetAt && { [`${NS}.deprecation.sunset`]: notice.sunsetAt.toISOString() }),
      ...(notice.deprecationLink && { [`${NS}.deprecation.link`]: notice.deprecationLink }),
      ...(notice.sunsetLink && { [`${NS}.deprecation.sunset_link`]: notice.sunsetLink }),
    };
    this.#span.setAttributes(attributes);
    this.#span.addEvent('deprecation', attributes);
  }

  /** Ends the attempt under way, with the failure it ended with, if any. */
  #endAttempt(error?: unknown): void {
    const open = this.#attempt;
    if (!open) return;
    this.#attempt = undefined;
    const { span, attributes } = open;
    if (error !== undefined && attributes['error.type'] === undefined) {
      attributes['error.type'] = this.#redact(errorType(error));
    }
    if (attributes['error.type'] !== undefined) {
      span.setAttribute('error.type', attributes['error.type']);
      span.setStatus({
        code: SpanStatusCode.ERROR,
        ...(error instanceof Error && { message: this.#redact(error.message) }),
      });
    }
    this.#telemetry.duration.record((now() - open.started) / 1000, attributes);
    span.end();
  }

  /** Ends the wait under way: a span from its start to now, and for the rate limit a measurement. */
  #endWait(): void {
    const open = this.#wait;
    if (!open) return;
    this.#wait = undefined;
    const { kind, cause, expectedMs, started } = open;
    const ms = now() - started;
    if (kind === 'credential' && ms < CREDENTIAL_SPAN_MS) return;
    const attributes: Attributes = {
      [`${NS}.wait.cause`]: cause,
      ...(expectedMs > 0 && { [`${NS}.wait.expected_ms`]: Math.round(expectedMs) }),
    };
    if (kind === 'rate limit') {
      const pacing = STORE_CAUSE.test(cause) ? 'store' : 'local';
      attributes[`${NS}.rate_limit.pacing`] = pacing;
      this.#telemetry.rateLimitWaits.record(ms / 1000, { [`${NS}.rate_limit.pacing`]: pacing });
    }
    this.#telemetry.tracer
      .startSpan(`${kind} wait`, { startTime: timeOrigin + started, attributes }, this.#context)
      .end(timeOrigin + started + ms);
  }
}

/** One webhook delivery: a span from `receive` to the end of its handlers. */
class DeliveryTrace implements DeliveryObserver {
  readonly #span: Span;
  readonly #context: Context;

  constructor(telemetry: Telemetry) {
    const parent = context.active();
    this.#span = telemetry.tracer.startSpan('webhook', { kind: SpanKind.CONSUMER }, parent);
    this.#context = trace.setSpan(parent, this.#span);
  }

  handler<T>(run: () => T): T {
    try {
      const result = context.with(this.#context, run);
      Promise.resolve(result).catch((error: unknown) => record(this.#span, error));
      return result;
    } catch (error) {
      record(this.#span, error);
      throw error;
    }
  }

  end(receipt: WebhookReceipt, failure?: unknown): void {
    const span = this.#span;
    span.setAttributes({
      [`${NS}.webhook.outcome`]: receipt.outcome,
      'http.response.status_code': receipt.status,
    });
    if ('event' in receipt) {
      // A verified event's id is its delivery's `webhook-id`, the same on every retry.
      const { id, type } = receipt.event;
      span.updateName(`webhook ${String(type)}`);
      span.setAttribute(`${NS}.webhook.event_type`, String(type));
      span.setAttribute(`${NS}.webhook.delivery_id`, String(id));
    }
    const error = 'error' in receipt ? receipt.error : failure;
    if (error !== undefined) {
      span.setAttribute('error.type', redactSecrets(error instanceof Error ? error.name : 'Error'));
      span.setStatus({
        code: SpanStatusCode.ERROR,
        ...(error instanceof Error && { message: redactSecrets(error.message) }),
      });
    }
    span.end();
  }
}

/** One tool call of the MCP server, under the MCP semantic conventions. */
class ToolCallTrace implements ToolCallObserver {
  readonly #span: Span;
  readonly #context: Context;

  constructor(telemetry: Telemetry, name: string) {
    const parent = context.active();
    this.#span = telemetry.tracer.startSpan(
      `tools/call ${name}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'mcp.method.name': 'tools/call',
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': name,
        },
      },
      parent,
    );
    this.#context = trace.setSpan(parent, this.#span);
  }

  run<T>(tool: () => Promise<T>): Promise<T> {
    return context.with(this.#context, tool);
  }

  end({ error, isError }: { error?: unknown; isError?: boolean | undefined }): void {
    if (error !== undefined) fail(this.#span, error);
    else if (isError) {
      this.#span.setAttribute('error.type', 'tool_error');
      this.#span.setStatus({ code: SpanStatusCode.ERROR });
    }
    this.#span.end();
  }
}

/**
 * Marks `span` failed with `error`: `error.type`, an exception event and the error status, each
 * through `redact`.
 */
function fail(span: Span, error: unknown, redact = redactSecrets): void {
  span.setAttribute('error.type', redact(errorType(error)));
  record(span, error, redact);
  span.setStatus({
    code: SpanStatusCode.ERROR,
    ...(error instanceof Error && { message: redact(error.message) }),
  });
}

/**
 * An exception event on `span`, its message and stack through `redact`: a span is a third
 * party's storage, and an error that is not the SDK's (a handler's, a tool's) was never redacted.
 */
function record(span: Span, error: unknown, redact = redactSecrets): void {
  span.recordException(
    error instanceof Error
      ? {
          name: error.name,
          message: redact(error.message),
          ...(error.stack && { stack: redact(error.stack) }),
        }
      : redact(String(error)),
  );
}

/**
 * `error.type` as the conventions ask: the status code of an answer that was an error, else the
 * error's class, such as `ApiConnectionError` or `ApiTimeoutError`.
 */
function errorType(error: unknown): string {
  if (error instanceof ApiError && !error.local) return String(error.status);
  return error instanceof Error ? error.name : 'Error';
}

/** Milliseconds on the monotonic clock; `timeOrigin` turns them into epoch times for spans. */
const now = () => performance.now();
const timeOrigin = performance.timeOrigin;
