/**
 * OpenTelemetry tracing with `@employee-recognition/sdk/otel`: an app span, the SDK's calls
 * beneath it (one span per call, one per attempt, the waits), printed as a tree. In your app,
 * register your own provider and exporter instead (docs/observability.md).
 *
 * Against the built-in mock, with nothing to set up: `npx tsx examples/opentelemetry/trace-tree.ts`.
 */
import { pathToFileURL } from 'node:url';
import { trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { Client } from '@employee-recognition/sdk';
import { openTelemetry } from '@employee-recognition/sdk/otel';

/** The spans as an indented tree, each with its duration and its main attributes. */
export function spanTree(spans: readonly ReadableSpan[]): string[] {
  const children = new Map<string | undefined, ReadableSpan[]>();
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent && ids.has(parent) ? parent : undefined;
    children.set(key, [...(children.get(key) ?? []), span]);
  }
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    const level = (children.get(parent) ?? []).sort(
      (a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1],
    );
    for (const span of level) {
      const ms = span.duration[0] * 1000 + span.duration[1] / 1e6;
      const shown = [
        'http.response.status_code',
        'http.request.resend_count',
        'employee_recognition.wait.cause',
      ]
        .filter((name) => span.attributes[name] !== undefined)
        .map((name) => `${name}=${String(span.attributes[name])}`);
      lines.push(
        `${'  '.repeat(depth)}${span.name} (${ms.toFixed(0)} ms) ${shown.join(' ')}`.trimEnd(),
      );
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}

/** Traces a list and a get inside an app span; resolves to the tree of what was recorded. */
export async function traceCalls(
  client: Client,
  exporter: InMemorySpanExporter,
): Promise<string[]> {
  await trace.getTracer('example-app').startActiveSpan('show first user', async (span) => {
    const { data } = await client.users.list({ limit: 1 });
    if (data[0]) await client.users.get(data[0].id);
    span.end();
  });
  return spanTree(exporter.getFinishedSpans());
}

async function main(): Promise<void> {
  const { startMockServer } = await import('@employee-recognition/sdk/testing');
  const server = await startMockServer({ seed: 7 });
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
  try {
    const client = new Client({
      baseUrl: server.url,
      apiKey: server.api.testKey,
      instrumentation: openTelemetry(),
    });
    for (const line of await traceCalls(client, exporter)) console.log(line);
  } finally {
    await provider.shutdown();
    await server.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
