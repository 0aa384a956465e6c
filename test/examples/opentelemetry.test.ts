import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { traceCalls } from '../../examples/opentelemetry/trace-tree.js';
import { Client } from '../../src/index.js';
import { openTelemetry } from '../../src/otel/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ seed: 7 });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterAll(async () => {
  await server.close();
  context.disable();
  propagation.disable();
});

it('trace-tree: the app span, each call beneath it, each attempt beneath its call', async () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const client = new Client({
    baseUrl: server.url,
    apiKey: server.api.testKey,
    instrumentation: openTelemetry({ tracerProvider: provider }),
  });
  trace.setGlobalTracerProvider(provider);
  try {
    const lines = await traceCalls(client, exporter);
    expect(lines.map((line) => line.replace(/ \(\d+ ms\)/, ''))).toEqual([
      'show first user',
      '  users.list',
      '    GET /v1/users http.response.status_code=200',
      '  users.get',
      '    GET /v1/users/{id} http.response.status_code=200',
    ]);
  } finally {
    trace.disable();
    await provider.shutdown();
  }
});
