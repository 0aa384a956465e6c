/**
 * Per-call metrics through the client's hooks: for each operation (method and path, ids as
 * `{id}`), the calls made, their attempts and retries, every answer's status, the calls that
 * failed by error class, and how long answers took (milliseconds until their headers).
 *
 * Hand `metrics.hooks` to the client, read `metrics.snapshot()` whenever you export (to
 * Prometheus, StatsD, your logs…):
 *
 *   const metrics = createMetrics();
 *   const client = new Client({ hooks: metrics.hooks });
 *
 * Against the built-in mock, with nothing to set up: `npx tsx examples/hooks/metrics.ts`.
 */
import { pathToFileURL } from 'node:url';
import { Client, type Hooks, NotFoundError } from '@employee-recognition/sdk';

export interface OperationMetrics {
  /** Calls started (their first attempt was about to be sent). */
  calls: number;
  /** Attempts sent: calls, their retries and followed redirects. */
  attempts: number;
  /** Retries the SDK decided on, after an error status or a connection failure. */
  retries: number;
  /** Answers received, by HTTP status (retried ones included). */
  statuses: Record<number, number>;
  /** Calls that failed, by error class (`NotFoundError`, `ApiConnectionError`…). */
  errors: Record<string, number>;
  /** Milliseconds from sending to the answer's headers, over every answer. */
  durationMs: { count: number; total: number; max: number };
}

// The contract's ids are UUIDs; as `{id}` they keep one series per operation, not per record.
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** `GET /v1/users/{id}` for `GET` and `/v1/users/2236ac14-…`. */
const operationOf = (method: string, path: string) => `${method} ${path.replace(UUID, '{id}')}`;

/** Hooks that count every call by operation, and the metrics they have gathered so far. */
export function createMetrics() {
  const operations = new Map<string, OperationMetrics>();
  const metricsOf = (context: { method: string; path: string }) => {
    const operation = operationOf(context.method, context.path);
    let metrics = operations.get(operation);
    if (!metrics) {
      metrics = {
        calls: 0,
        attempts: 0,
        retries: 0,
        statuses: {},
        errors: {},
        durationMs: { count: 0, total: 0, max: 0 },
      };
      operations.set(operation, metrics);
    }
    return metrics;
  };

  const hooks = {
    beforeRequest: [
      (context) => {
        const metrics = metricsOf(context);
        metrics.attempts++;
        if (context.attempt === 1) metrics.calls++;
      },
    ],
    afterResponse: [
      ({ status, durationMs, ...context }) => {
        const metrics = metricsOf(context);
        metrics.statuses[status] = (metrics.statuses[status] ?? 0) + 1;
        metrics.durationMs.count++;
        metrics.durationMs.total += durationMs;
        metrics.durationMs.max = Math.max(metrics.durationMs.max, durationMs);
      },
    ],
    beforeRetry: [
      (context) => {
        metricsOf(context).retries++;
      },
    ],
    beforeError: [
      (error, context) => {
        const { errors } = metricsOf(context);
        errors[error.name] = (errors[error.name] ?? 0) + 1;
      },
    ],
  } satisfies Hooks;

  return {
    hooks,
    /** A copy of the metrics by operation, for an exporter to read. */
    snapshot(): Record<string, OperationMetrics> {
      return structuredClone(Object.fromEntries(operations));
    },
    /** Forgets everything counted so far, as after an export of deltas. */
    reset() {
      operations.clear();
    },
  };
}

/** A few calls against the built-in mock, then the metrics as a table. */
async function main() {
  const { startMockServer } = await import('@employee-recognition/sdk/testing');
  const server = await startMockServer();
  try {
    const metrics = createMetrics();
    const client = new Client({
      baseUrl: server.url,
      apiKey: server.api.testKey,
      hooks: metrics.hooks,
    });
    const { data: users } = await client.users.list({ limit: 3 });
    for (const user of users) await client.users.get(user.id);
    await client.users.get('00000000-0000-4000-8000-000000000000').catch((error: unknown) => {
      if (!(error instanceof NotFoundError)) throw error;
    });
    for (const [operation, m] of Object.entries(metrics.snapshot())) {
      const mean = m.durationMs.count ? (m.durationMs.total / m.durationMs.count).toFixed(1) : '-';
      console.log(
        `${operation.padEnd(24)} calls ${m.calls}  attempts ${m.attempts}  retries ${m.retries}  ` +
          `statuses ${JSON.stringify(m.statuses)}  errors ${JSON.stringify(m.errors)}  mean ${mean} ms`,
      );
    }
  } finally {
    await server.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
