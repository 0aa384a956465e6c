import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createMetrics } from '../../examples/hooks/metrics.js';
import { tracingHooks } from '../../examples/hooks/opentelemetry.js';
import { ApiConnectionError, Client, type ClientOptions, NotFoundError } from '../../src/index.js';
import { createMockApi, type MockApi } from '../../src/testing/index.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

let mock: MockApi;
beforeEach(() => {
  mock = createMockApi({ seed: 3 });
});
afterEach(() => mock.close());

const clientWith = (options: ClientOptions) =>
  new Client({ fetch: mock.fetch, baseUrl: mock.baseUrl, apiKey: mock.testKey, ...options });

/** A first user's id, a retried call (503 then 200), a 404 and a dropped connection. */
async function callsOfEveryOutcome(client: Client) {
  const { data: users } = await client.users.list({ limit: 2 });
  const id = users[0]!.id;
  mock.faults.failNext('GET /v1/users/:id', { status: 503, retryAfter: 0 });
  await client.users.get(id);
  await expect(client.users.get(MISSING)).rejects.toBeInstanceOf(NotFoundError);
  mock.faults.dropNext('GET /v1/teams');
  await expect(client.teams.list({}, { maxRetries: 0 })).rejects.toBeInstanceOf(ApiConnectionError);
  return id;
}

it('metrics: counts calls, attempts, retries, statuses, errors and answer times per operation', async () => {
  const metrics = createMetrics();
  await callsOfEveryOutcome(clientWith({ hooks: metrics.hooks }));
  const snapshot = metrics.snapshot();

  expect(Object.keys(snapshot).sort()).toEqual([
    'GET /v1/teams',
    'GET /v1/users',
    'GET /v1/users/{id}',
  ]);
  expect(snapshot['GET /v1/users']).toMatchObject({
    calls: 1,
    attempts: 1,
    retries: 0,
    statuses: { 200: 1 },
    errors: {},
  });
  // Two calls: one retried after a 503, one answered 404.
  expect(snapshot['GET /v1/users/{id}']).toMatchObject({
    calls: 2,
    attempts: 3,
    retries: 1,
    statuses: { 200: 1, 404: 1, 503: 1 },
    errors: { NotFoundError: 1 },
  });
  // No answer, so no status and no answer time.
  expect(snapshot['GET /v1/teams']).toMatchObject({
    calls: 1,
    attempts: 1,
    retries: 0,
    statuses: {},
    errors: { ApiConnectionError: 1 },
    durationMs: { count: 0, total: 0, max: 0 },
  });
  const { durationMs } = snapshot['GET /v1/users/{id}']!;
  expect(durationMs.count).toBe(3);
  expect(durationMs.max).toBeGreaterThanOrEqual(0);
  expect(durationMs.total).toBeGreaterThanOrEqual(durationMs.max);

  // A snapshot is a copy; reset starts over.
  snapshot['GET /v1/users']!.calls = 99;
  expect(metrics.snapshot()['GET /v1/users']!.calls).toBe(1);
  metrics.reset();
  expect(metrics.snapshot()).toEqual({});
});

it('opentelemetry: one CLIENT span per attempt, with the HTTP conventions, errors marked', async () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  try {
    const id = await callsOfEveryOutcome(
      clientWith({ hooks: tracingHooks(provider.getTracer('test')) }),
    );
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual([
      'GET /v1/users',
      'GET /v1/users/{id}', // 503
      'GET /v1/users/{id}', // its retry
      'GET /v1/users/{id}', // 404
      'GET /v1/teams', // dropped
    ]);
    expect(spans.every((span) => span.kind === SpanKind.CLIENT)).toBe(true);
    const [list, unavailable, retry, missing, dropped] = spans;

    expect(list!.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.template': '/v1/users',
      'server.address': new URL(mock.baseUrl).hostname,
      'server.port': 443,
      'http.response.status_code': 200,
    });
    expect(String(list!.attributes['url.full'])).toMatch(/\/v1\/users\?limit=2$/);
    expect(list!.attributes['employee_recognition.request_id']).toMatch(/^req_/);
    expect(list!.status.code).toBe(SpanStatusCode.UNSET);

    expect(unavailable!.attributes).toMatchObject({
      'http.response.status_code': 503,
      'error.type': '503',
      'url.full': `${mock.baseUrl}/v1/users/${id}`,
    });
    expect(unavailable!.status.code).toBe(SpanStatusCode.ERROR);
    expect(unavailable!.attributes['http.request.resend_count']).toBeUndefined();
    expect(retry!.attributes).toMatchObject({
      'http.request.resend_count': 1,
      'http.response.status_code': 200,
    });

    expect(missing!.attributes).toMatchObject({
      'http.response.status_code': 404,
      'error.type': '404',
    });
    expect(missing!.status.code).toBe(SpanStatusCode.ERROR);

    expect(dropped!.attributes['http.response.status_code']).toBeUndefined();
    expect(dropped!.attributes['error.type']).toBe('ApiConnectionError');
    expect(dropped!.status.code).toBe(SpanStatusCode.ERROR);
    expect(dropped!.events.map((event) => event.name)).toEqual(['exception']);

    // No span is left open, and none carries the credential.
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain(mock.testKey);
  } finally {
    await provider.shutdown();
  }
});
