/**
 * The OpenTelemetry entry against the real OpenTelemetry SDK: a Node tracer provider with its
 * in-memory exporter, a meter provider collected on demand, W3C propagation, and a node:http
 * service that continues the trace from the request's headers, as a traced service does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import {
  type CollectionResult,
  type HistogramMetricData,
  MeterProvider,
  MetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiConnectionError,
  type ApiError,
  Client,
  ConfigurationError,
  NotFoundError,
} from '@employee-recognition/sdk';
import { openTelemetry } from '@employee-recognition/sdk/otel';
import { RedisStore } from '@employee-recognition/sdk/redis';
import { createWebhookReceiver } from '@employee-recognition/sdk/webhooks';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '../../packages/mcp/src/index.js';
import { signWebhook } from '../../src/testing/webhook-signer.js';
import { connectRedisClient, describeRedis, redisTarget } from '../support/redis.js';
import { recognitionCreated, SECRET } from '../webhooks/fixtures.js';

const API_KEY = 'rk_test_otelSecretKey0000000000000000';

/** A reader the test collects when it wants the measurements. */
class OnDemandReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const exporter = new InMemorySpanExporter();
const tracerProvider = new NodeTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
const reader = new OnDemandReader();
const meterProvider = new MeterProvider({ readers: [reader] });
const serviceTracer = tracerProvider.getTracer('the-service');
const appTracer = tracerProvider.getTracer('the-app');

/** One request as the service saw it. */
interface Received {
  method: string;
  url: string;
  /** Every `traceparent` header line that reached the wire. */
  traceparents: string[];
  /** The trace the service continued: its SERVER span's trace and parent. */
  traceId: string;
  parentSpanId: string | undefined;
}

type Reply = (request: IncomingMessage) => {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
};

/** The service: continues the trace from the headers, and answers from `replies`, in order. */
let server: Server;
let origin: string;
const received: Received[] = [];
const replies: Reply[] = [];
const ok: Reply = () => ({ status: 200, body: { data: { id: 'usr_1', name: 'Ada' } } });
/** A 200 that spends the rate-limit window until the next second but one: the next call waits. */
const windowSpent: Reply = () => ({
  status: 200,
  headers: {
    'x-ratelimit-limit': '10',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 1),
  },
  body: { data: { id: 'usr_1' } },
});

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  server = createServer((request, response) => {
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = serviceTracer.startSpan(
      `${request.method} ${request.url}`,
      { kind: SpanKind.SERVER },
      parent,
    );
    const traceparents: string[] = [];
    for (let index = 0; index < request.rawHeaders.length; index += 2) {
      if (request.rawHeaders[index]!.toLowerCase() === 'traceparent') {
        traceparents.push(request.rawHeaders[index + 1]!);
      }
    }
    received.push({
      method: request.method!,
      url: request.url!,
      traceparents,
      traceId: span.spanContext().traceId,
      parentSpanId: trace.getSpanContext(parent)?.spanId,
    });
    const reply = (replies.shift() ?? ok)(request);
    response.writeHead(reply.status, {
      'content-type': 'application/json',
      'x-request-id': `req_${received.length}`,
      ...reply.headers,
    });
    response.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    span.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
  context.disable();
  propagation.disable();
});

beforeEach(() => {
  exporter.reset();
  received.length = 0;
  replies.length = 0;
});

function client(options: ConstructorParameters<typeof Client>[0] = {}) {
  return new Client({
    apiKey: API_KEY,
    baseUrl: origin,
    rateLimit: 'off',
    validateResponses: 'off',
    instrumentation: openTelemetry({ tracerProvider, meterProvider }),
    ...options,
  });
}

/**
 * A logger whose first info line (a wait of a second or more is told at info) resolves
 * `waitLogged`: it is logged in the turn the wait's timer is set.
 */
function firstInfoLine() {
  let told!: (line: string) => void;
  const waitLogged = new Promise<string>((resolve) => (told = resolve));
  const logger = { debug() {}, info: (line: string) => told(line), warn() {}, error() {} };
  return { logger, waitLogged };
}

const ours = () =>
  exporter
    .getFinishedSpans()
    .filter((span) => span.instrumentationScope.name === '@employee-recognition/sdk');
const named = (name: string) => ours().filter((span) => span.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const only = <T>(items: T[]): T => {
  expect(items).toHaveLength(1);
  return items[0]!;
};

async function collect(): Promise<CollectionResult> {
  return reader.collect();
}

function metric(result: CollectionResult, name: string) {
  return result.resourceMetrics.scopeMetrics
    .filter((scope) => scope.scope.name === '@employee-recognition/sdk')
    .flatMap((scope) => scope.metrics)
    .find((each) => each.descriptor.name === name);
}

describe('the instrumentation option', () => {
  it('is checked: a value that is not an object is a ConfigurationError naming it', () => {
    expect(() => new Client({ apiKey: API_KEY, instrumentation: 'otel' as never })).toThrow(
      expect.objectContaining({ name: 'ConfigurationError', option: 'instrumentation' }),
    );
    expect(() => new Client({ apiKey: API_KEY, instrumentation: 'otel' as never })).toThrow(
      ConfigurationError,
    );
  });

  it('leaves @opentelemetry/api to the otel entry: no other source file imports it', () => {
    const importers = readdirSync('src', { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => /from '@opentelemetry\//.test(readFileSync(`src/${file}`, 'utf8')));
    expect(importers).toEqual(['otel/index.ts']);
  });
});

describe('openTelemetry(): the client', () => {
  it('traces a get as one call span with one CLIENT attempt, continued by the service', async () => {
    await client().users.get('usr_1');
    const call = only(named('users.get'));
    const attempt = only(named('GET /v1/users/{id}'));
    expect(call.kind).toBe(SpanKind.INTERNAL);
    expect(call.attributes['employee_recognition.operation']).toBe('users.get');
    expect(call.parentSpanContext).toBeUndefined();
    expect(attempt.kind).toBe(SpanKind.CLIENT);
    expect(parentOf(attempt)).toBe(call.spanContext().spanId);
    expect(attempt.attributes).toEqual({
      'http.request.method': 'GET',
      'url.full': `${origin}/v1/users/usr_1`,
      'url.template': '/v1/users/{id}',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(origin).port),
      'http.response.status_code': 200,
      'http.response.header.x-request-id': ['req_1'],
    });
    expect(attempt.status.code).toBe(SpanStatusCode.UNSET);
    const wire = only(received);
    expect(wire.traceparents).toHaveLength(1);
    expect(wire.traceId).toBe(call.spanContext().traceId);
    expect(wire.parentSpanId).toBe(attempt.spanContext().spanId);
  });

  it('makes a call inside an app span its child', async () => {
    const sdk = client();
    await appTracer.startActiveSpan('checkout', async (app: Span) => {
      await sdk.users.get('usr_1');
      app.end();
    });
    const app = only(exporter.getFinishedSpans().filter((span) => span.name === 'checkout'));
    const call = only(named('users.get'));
    expect(parentOf(call)).toBe(app.spanContext().spanId);
    expect(call.spanContext().traceId).toBe(app.spanContext().traceId);
    expect(only(received).traceId).toBe(app.spanContext().traceId);
  });

  it('keeps a retried call one trace: a 429 then a 200, the wait and the resend counted', async () => {
    replies.push(() => ({ status: 429, headers: { 'retry-after': '0' }, body: { error: {} } }));
    const before = await collect();
    const retriesBefore = metric(before, 'employee_recognition.client.retries');
    await client().users.get('usr_1');
    const call = only(named('users.get'));
    const [first, second] = named('GET /v1/users/{id}').sort(
      (a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1],
    );
    expect(first!.attributes['http.response.status_code']).toBe(429);
    expect(first!.attributes['error.type']).toBe('429');
    expect(first!.status.code).toBe(SpanStatusCode.ERROR);
    expect(first!.attributes['http.request.resend_count']).toBeUndefined();
    expect(second!.attributes['http.request.resend_count']).toBe(1);
    expect(second!.attributes['http.response.status_code']).toBe(200);
    const wait = only(named('retry wait'));
    expect(parentOf(wait)).toBe(call.spanContext().spanId);
    expect(wait.attributes['employee_recognition.wait.cause']).toBe('Retry-After');
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
    // Both attempts reached the service in the call's trace, each under its own attempt span.
    expect(received.map((each) => each.traceId)).toEqual([
      call.spanContext().traceId,
      call.spanContext().traceId,
    ]);
    expect(received.map((each) => each.parentSpanId)).toEqual([
      first!.spanContext().spanId,
      second!.spanContext().spanId,
    ]);
    const after = await collect();
    const retries = metric(after, 'employee_recognition.client.retries')!;
    const point = retries.dataPoints.find(
      (each) => each.attributes['employee_recognition.retry.cause'] === 'Retry-After',
    )!;
    const earlier =
      retriesBefore?.dataPoints.find(
        (each) => each.attributes['employee_recognition.retry.cause'] === 'Retry-After',
      )?.value ?? 0;
    expect(point.value).toBe((earlier as number) + 1);
    expect(point.attributes['error.type']).toBe('429');
  });

  it('marks a 404 an error on both spans, with error.type and the duration measured', async () => {
    replies.push(() => ({
      status: 404,
      body: { error: { code: 'not_found', message: 'No such user' } },
    }));
    await expect(client().users.get('usr_404')).rejects.toBeInstanceOf(NotFoundError);
    const call = only(named('users.get'));
    const attempt = only(named('GET /v1/users/{id}'));
    expect(attempt.attributes['error.type']).toBe('404');
    expect(attempt.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.attributes['error.type']).toBe('404');
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.events.map((event) => event.name)).toContain('exception');
    const duration = metric(await collect(), 'http.client.request.duration')!;
    expect(duration.descriptor.unit).toBe('s');
    const point = (duration as HistogramMetricData).dataPoints.find(
      (each) => each.attributes['http.response.status_code'] === 404,
    )!;
    expect(point.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.template': '/v1/users/{id}',
      'server.address': '127.0.0.1',
      'error.type': '404',
    });
    expect(point.value.count).toBeGreaterThanOrEqual(1);
  });

  it('marks a network failure with the error class, each attempt a span', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const sdk = client({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1 });
    await expect(sdk.users.get('usr_1')).rejects.toBeInstanceOf(ApiConnectionError);
    const call = only(named('users.get'));
    const attempts = named('GET /v1/users/{id}');
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts) {
      expect(attempt.attributes['error.type']).toBe('ApiConnectionError');
      expect(attempt.status.code).toBe(SpanStatusCode.ERROR);
      expect(attempt.attributes['http.response.status_code']).toBeUndefined();
    }
    expect(call.attributes['error.type']).toBe('ApiConnectionError');
    expect(only(named('retry wait')).attributes['employee_recognition.wait.cause']).toBe(
      'connection error',
    );
  });

  it('shows a local rate-limit wait as a span with its cause, and measures it', async () => {
    // On a frozen clock, the window the first answer spends resets a second or two ahead
    // however long this machine stalls; the wait is a timer the test ends.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      replies.push(windowSpent);
      const { logger, waitLogged } = firstInfoLine();
      const sdk = client({
        rateLimit: 'auto',
        logLevel: 'info',
        logger,
      });
      await sdk.users.get('usr_1');
      const call = sdk.users.get('usr_1');
      // Logged as the wait's timer is set, in the same turn.
      expect(await waitLogged).toMatch(/waiting \d+ s \(rate limit: X-RateLimit-Reset\)/);
      // Past the reset (at most 2 s on), its second of rounding, and more: nothing else is due.
      await vi.advanceTimersByTimeAsync(5_000);
      await call;
    } finally {
      vi.useRealTimers();
    }
    const second = named('users.get')[1]!;
    const wait = only(named('rate limit wait'));
    expect(parentOf(wait)).toBe(second.spanContext().spanId);
    expect(wait.attributes).toMatchObject({
      'employee_recognition.wait.cause': 'rate limit: X-RateLimit-Reset',
      'employee_recognition.rate_limit.pacing': 'local',
    });
    const waits = metric(await collect(), 'employee_recognition.client.rate_limit.wait.duration')!;
    const local = (waits as HistogramMetricData).dataPoints.find(
      (each) => each.attributes['employee_recognition.rate_limit.pacing'] === 'local',
    )!;
    expect(local.value.count).toBeGreaterThanOrEqual(1);
    expect(local.value.sum).toBeGreaterThan(0);
  });

  it('puts each page of a for await in the iterating trace', async () => {
    const page = (n: number) => () => ({
      status: 200,
      body: {
        data: [{ id: `usr_${n}` }],
        pagination: { page: n, total_pages: 3, next_cursor: n < 3 ? `c${n}` : null },
      },
    });
    replies.push(page(1), page(2), page(3));
    const sdk = client();
    const ids: string[] = [];
    await appTracer.startActiveSpan('export', async (app: Span) => {
      for await (const user of sdk.users.list()) ids.push(user.id);
      app.end();
    });
    expect(ids).toEqual(['usr_1', 'usr_2', 'usr_3']);
    const app = only(exporter.getFinishedSpans().filter((span) => span.name === 'export'));
    const calls = named('users.list');
    expect(calls).toHaveLength(3);
    for (const call of calls) expect(parentOf(call)).toBe(app.spanContext().spanId);
    expect(new Set(received.map((each) => each.traceId))).toEqual(
      new Set([app.spanContext().traceId]),
    );
  });

  it('follows a redirect as a resend under the same call, noted on the call span', async () => {
    replies.push(() => ({ status: 307, headers: { location: '/v1/users/usr_2' } }));
    await client().users.get('usr_1');
    const call = only(named('users.get'));
    const attempts = named('GET /v1/users/{id}');
    expect(attempts.map((each) => each.attributes['http.response.status_code'])).toEqual([
      307, 200,
    ]);
    expect(attempts[1]!.attributes['http.request.resend_count']).toBe(1);
    expect(attempts[1]!.attributes['url.full']).toBe(`${origin}/v1/users/usr_2`);
    expect(call.events.find((event) => event.name === 'redirect')?.attributes).toMatchObject({
      'employee_recognition.wait.cause': 'redirect 307',
    });
    expect(received.every((each) => each.traceparents.length === 1)).toBe(true);
  });

  it('puts the service’s deprecation notice on the call span, as attributes and an event', async () => {
    replies.push(() => ({
      status: 200,
      headers: {
        deprecation: '@1767225600',
        sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
        link: '</docs/deprecations/users-get>; rel="deprecation"',
      },
      body: { data: { id: 'usr_1' } },
    }));
    await client({ logger: { debug() {}, info() {}, warn() {}, error() {} } }).users.get('usr_1');
    const call = only(named('users.get'));
    const expected = {
      'employee_recognition.deprecation.deprecated': true,
      'employee_recognition.deprecation.date': '2026-01-01T00:00:00.000Z',
      'employee_recognition.deprecation.sunset': '2027-06-30T00:00:00.000Z',
      'employee_recognition.deprecation.link': `${origin}/docs/deprecations/users-get`,
    };
    expect(call.attributes).toMatchObject(expected);
    expect(call.events.find((event) => event.name === 'deprecation')?.attributes).toEqual(expected);
  });

  it('names a raw request by its method', async () => {
    await client().get('/v1/users/usr_1');
    const call = only(ours().filter((span) => span.kind === SpanKind.INTERNAL));
    const attempt = only(ours().filter((span) => span.kind === SpanKind.CLIENT));
    expect(call.name).toBe('GET');
    expect(call.attributes['employee_recognition.operation']).toBeUndefined();
    expect(attempt.name).toBe('GET');
    expect(parentOf(attempt)).toBe(call.spanContext().spanId);
    expect(attempt.attributes['url.template']).toBeUndefined();
  });

  it('sends one traceparent with @opentelemetry/instrumentation-undici on, and no second span', async () => {
    const undici = new UndiciInstrumentation();
    undici.setTracerProvider(tracerProvider);
    undici.enable();
    try {
      // The instrumentation is live: a plain fetch gets its span and its traceparent.
      await fetch(`${origin}/v1/users/plain`);
      expect(only(received).traceparents).toHaveLength(1);
      received.length = 0;
      exporter.reset();
      // A header already there gets a second one from it (opentelemetry-js-contrib#2796)…
      await appTracer.startActiveSpan('app', async (app: Span) => {
        await client({
          headers: { traceparent: '00-11111111111111111111111111111111-2222222222222222-01' },
        }).users.get('usr_1');
        app.end();
      });
    } finally {
      undici.disable();
    }
    // …but the SDK's attempt suppresses it: one traceparent, the attempt's, and one CLIENT span.
    const attempt = only(named('GET /v1/users/{id}'));
    const wire = only(received);
    expect(wire.traceparents).toEqual([
      `00-${attempt.spanContext().traceId}-${attempt.spanContext().spanId}-01`,
    ]);
    const clientSpans = exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.CLIENT);
    expect(clientSpans).toEqual([attempt]);
  });

  /** What a careless service (or proxy) echoes the credential it was sent into: every header
   * and body field the SDK reads, on a 200 and on an error answer. */
  const echoing =
    (status: number): Reply =>
    (request) => {
      const credential = String(request.headers.authorization).replace(/^Bearer /, '');
      return {
        status,
        headers: {
          'x-request-id': `req ${credential}`,
          'www-authenticate': `Bearer error="invalid_token", error_description="${credential}"`,
          deprecation: 'true',
          sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
          link: `<https://docs.example/d?token=${credential}>; rel="deprecation", <https://docs.example/${encodeURIComponent(credential)}/policy>; rel="sunset"`,
        },
        body:
          status < 300
            ? // `role` is an enumeration: a value the SDK does not know is quoted in a warning.
              { data: { id: 'usr_1', name: 'Ada', role: credential } }
            : {
                error: {
                  code: credential,
                  message: `bad credential ${credential}`,
                  details: [{ field: credential, message: `is ${credential}` }],
                },
              },
      };
    };
  const OAUTH_TOKEN = 'ya29.A0ARrdaM/Secr3t+T0ken/Part-Xy_z9.r0tat3d';

  describe.each([
    ['an API key', API_KEY, API_KEY],
    ['an OAuth token', () => OAUTH_TOKEN, OAUTH_TOKEN],
  ] as const)('a service that echoes %s everywhere', (_kind, apiKey, secret) => {
    it.each([200, 400])(
      'shows it in no span, event, status, metric, log line, error or notice (status %i)',
      async (status) => {
        replies.push(echoing(status));
        const lines: string[] = [];
        const write = (line: string) => void lines.push(line);
        const notices: unknown[] = [];
        const sdk = client({
          apiKey,
          maxRetries: 0,
          logLevel: 'debug',
          validateResponses: 'warn',
          logger: { debug: write, info: write, warn: write, error: write },
          hooks: { afterResponse: [({ deprecation }) => void notices.push(deprecation)] },
        });
        let error: unknown;
        try {
          const { deprecation } = await sdk.users.get('usr_1').withResponse();
          notices.push(deprecation);
        } catch (caught) {
          error = caught;
        }
        expect(error === undefined).toBe(status === 200);
        const call = only(named('users.get'));
        // The notice is read and kept, its secrets out.
        expect(call.attributes['employee_recognition.deprecation.link']).toBe(
          'https://docs.example/d?token=[redacted]',
        );
        // The hook's, and withResponse()'s on a success.
        expect(notices).toHaveLength(status === 200 ? 2 : 1);
        for (const notice of notices) {
          expect(notice).toMatchObject({
            deprecationLink: 'https://docs.example/d?token=[redacted]',
            sunsetLink: 'https://docs.example/[redacted]/policy',
          });
        }
        const spans = JSON.stringify(
          ours().map((span) => ({
            name: span.name,
            attributes: span.attributes,
            events: span.events,
            status: span.status,
          })),
        );
        const measured = JSON.stringify((await collect()).resourceMetrics);
        const shown = [
          spans,
          measured,
          lines.join('\n'),
          JSON.stringify(notices),
          ...(error instanceof Error
            ? [
                String(error),
                error.stack,
                JSON.stringify(error),
                inspect(error, { depth: 5 }),
                JSON.stringify([...(error as ApiError).headers]),
              ]
            : []),
        ].join('\n');
        for (const form of [secret, encodeURIComponent(secret), 'otelSecretKey', 'Secr3t']) {
          expect(shown).not.toContain(form);
        }
        expect(spans).toContain('req [redacted]');
        expect(lines.some((line) => line.includes('request id req [redacted]'))).toBe(true);
        if (status === 200) {
          expect(lines).toContainEqual(
            expect.stringMatching(/data\.role is (a \d+-character string|"\[redacted\]"), a value/),
          );
        }
      },
    );
  });

  it('keeps a signature parameter and user info out of the status and the exception, as url.full does', async () => {
    replies.push(() => ({
      status: 307,
      headers: { location: '/v1/users/usr_2?sig=s1gNatur3Value&X-Amz-Credential=AKIA1234' },
    }));
    replies.push(() => ({
      status: 404,
      body: { error: { message: 'see https://admin:hunter2pass@internal.example/logs' } },
    }));
    const error = await client({ maxRetries: 0 })
      .users.get('usr_1')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    const { message, stack } = error as Error;
    const attempt = named('GET /v1/users/{id}')[1]!;
    expect(attempt.attributes['url.full']).toBe(
      `${origin}/v1/users/usr_2?sig=REDACTED&X-Amz-Credential=REDACTED`,
    );
    const call = only(named('users.get'));
    const exception = call.events.find((event) => event.name === 'exception')!;
    for (const text of [
      message,
      stack,
      attempt.status.message,
      call.status.message,
      exception.attributes?.['exception.message'],
      exception.attributes?.['exception.stacktrace'],
    ]) {
      expect(text).toContain('sig=[redacted]&X-Amz-Credential=[redacted]');
      expect(text).toContain('https://[redacted]@internal.example/logs');
      expect(text).not.toMatch(/s1gNatur3Value|AKIA1234|hunter2pass/);
    }
  });
});

describe('openTelemetry(): the webhook receiver', () => {
  async function delivery(id: string) {
    const body = JSON.stringify({ ...recognitionCreated, id });
    return [body, await signWebhook(body, SECRET, { id, timestamp: new Date() })] as const;
  }

  const tracedReceiver = () =>
    createWebhookReceiver({
      secret: SECRET,
      instrumentation: openTelemetry({ tracerProvider, meterProvider }),
      logLevel: 'off',
    });

  it('makes one span per delivery, with the API calls of its handlers beneath it', async () => {
    const sdk = client();
    const receiver = tracedReceiver()
      .on('recognition.created', async () => {
        await sdk.users.get('usr_1');
      })
      .onAny(() => {
        throw new Error('second handler failed');
      });
    const [body, headers] = await delivery('evt_otel_1');
    expect((await receiver.receive(body, headers)).outcome).toBe('failed');
    const span = only(named('webhook recognition.created'));
    expect(span.kind).toBe(SpanKind.CONSUMER);
    expect(span.attributes).toMatchObject({
      'employee_recognition.webhook.event_type': 'recognition.created',
      'employee_recognition.webhook.delivery_id': 'evt_otel_1',
      'employee_recognition.webhook.outcome': 'failed',
      'http.response.status_code': 500,
      'error.type': 'WebhookHandlerError',
    });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    const exceptions = span.events.filter((event) => event.name === 'exception');
    expect(exceptions.map((event) => event.attributes?.['exception.message'])).toEqual([
      'second handler failed',
    ]);
    expect(parentOf(only(named('users.get')))).toBe(span.spanContext().spanId);
  });

  it('redacts what a handler’s error quotes in the exception event and the status', async () => {
    const receiver = tracedReceiver().on('recognition.created', () => {
      throw new Error(
        `cannot fetch https://ops:hunter2pass@files.example/x?sig=s1gNatur3 with ${SECRET}`,
      );
    });
    const [body, headers] = await delivery('evt_otel_redact');
    expect((await receiver.receive(body, headers)).outcome).toBe('failed');
    const span = only(named('webhook recognition.created'));
    const event = span.events.find((each) => each.name === 'exception')!;
    const shown = JSON.stringify([span.status, event.attributes]);
    expect(event.attributes?.['exception.message']).toBe(
      'cannot fetch https://[redacted]@files.example/x?sig=[redacted] with [redacted]',
    );
    expect(shown).not.toMatch(/hunter2pass|s1gNatur3|whsec_/);
  });

  it('records a duplicate as its own span, with its outcome', async () => {
    const receiver = tracedReceiver().on('recognition.created', () => {});
    const [body, headers] = await delivery('evt_otel_2');
    await receiver.receive(body, headers);
    await receiver.receive(body, headers);
    expect(
      named('webhook recognition.created').map(
        (span) => span.attributes['employee_recognition.webhook.outcome'],
      ),
    ).toEqual(['handled', 'duplicate']);
  });

  it('ends the span of a delivery accepted under waitUntil when its handlers finish', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const kept: Promise<unknown>[] = [];
    const receiver = tracedReceiver().on('recognition.created', () => held);
    const [body, headers] = await delivery('evt_otel_3');
    const receipt = await receiver.receive(body, headers, { waitUntil: (p) => kept.push(p) });
    expect(receipt.status).toBe(202);
    expect(named('webhook recognition.created')).toEqual([]);
    release();
    await Promise.all(kept);
    await new Promise((resolve) => setImmediate(resolve));
    expect(only(named('webhook recognition.created')).attributes).toMatchObject({
      'employee_recognition.webhook.outcome': 'accepted',
      'http.response.status_code': 202,
    });
  });
});

describe('openTelemetry(): the MCP server', () => {
  it('makes one span per tool call, with its API call beneath it', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(client(), {
      instrumentation: openTelemetry({ tracerProvider, meterProvider }),
    }).connect(serverSide);
    const mcp = new McpClient({ name: 'test', version: '1.0.0' });
    await mcp.connect(clientSide);
    try {
      // A UUID, as the tool's schema asks: the server sends nothing for another id.
      await mcp.callTool({
        name: 'users_get',
        arguments: { id: '3f0c2b9e-8d4a-4c1e-9b7f-1a2b3c4d5e6f' },
      });
    } finally {
      await mcp.close();
    }
    const tool = only(named('tools/call users_get'));
    expect(tool.kind).toBe(SpanKind.SERVER);
    expect(tool.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'users_get',
      'gen_ai.operation.name': 'execute_tool',
    });
    expect(tool.status.code).toBe(SpanStatusCode.UNSET);
    expect(parentOf(only(named('users.get')))).toBe(tool.spanContext().spanId);
  });
});

describeRedis('openTelemetry(): pacing through Redis', () => {
  it('says a rate-limit wait came from the shared store', async () => {
    const target = await redisTarget();
    const redis = await connectRedisClient('ioredis 5', target.url);
    const prefix = `test:otel:${process.pid}:${Date.now()}:`;
    try {
      // A window spent until 20 s on: Redis, on its own clock, has the next call wait. The wait
      // is a fake timer the test ends, so no stall of this machine decides whether it happens.
      replies.push(() => ({
        ...windowSpent(undefined as never),
        headers: {
          'x-ratelimit-limit': '10',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 20),
        },
      }));
      const store = new RedisStore({ client: redis.client, prefix });
      // The answer frees its place and records the window after the call returns: the store's
      // release, once it has run, says Redis holds the window.
      const release = store.release.bind(store);
      let released!: () => void;
      const windowRecorded = new Promise<void>((resolve) => (released = resolve));
      store.release = async (...args) => {
        await release(...args);
        released();
      };
      const { logger, waitLogged } = firstInfoLine();
      const sdk = client({
        rateLimit: { store, key: 'otel-test' },
        logLevel: 'info',
        logger,
      });
      await sdk.users.get('usr_1');
      // Once Redis holds the window, the next question meets the reset, not a place in flight.
      await windowRecorded;
      expect(await redis.command('KEYS', `${prefix}*:window`)).toHaveLength(1);
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        const second = sdk.users.get('usr_1');
        // Logged as the wait's timer is set, in the same turn.
        expect(await waitLogged).toMatch(/waiting \d+ s \(rate limit: shared pacing store\)/);
        // The window resets on Redis's clock: its keys go, as they would expire.
        const keys = (await redis.command('KEYS', `${prefix}*`)) as string[];
        expect(keys.length).toBeGreaterThan(0);
        await redis.command('DEL', ...keys);
        // The wait is the one timer set; it ends, and the call asks Redis again.
        expect(vi.getTimerCount()).toBe(1);
        await vi.advanceTimersToNextTimerAsync();
        await second;
      } finally {
        vi.useRealTimers();
      }
      const wait = only(named('rate limit wait'));
      expect(wait.attributes).toMatchObject({
        'employee_recognition.wait.cause': 'rate limit: shared pacing store',
        'employee_recognition.rate_limit.pacing': 'store',
      });
      expect(parentOf(wait)).toBe(named('users.get')[1]!.spanContext().spanId);
      const waits = metric(
        await collect(),
        'employee_recognition.client.rate_limit.wait.duration',
      ) as HistogramMetricData;
      expect(
        waits.dataPoints.some(
          (each) => each.attributes['employee_recognition.rate_limit.pacing'] === 'store',
        ),
      ).toBe(true);
    } finally {
      await redis.close();
      await target.close();
    }
  });
});

afterEach(() => {
  expect(replies).toEqual([]);
});
