// The runtime smoke test: the same program on Node, Bun, Deno, Cloudflare workerd and Chromium.
// It imports the BUILT package by its name and runs against a mock server over real HTTP.
//
// Plain JavaScript with no Node-only API, so it also runs in a Worker and in a page. Its
// settings come as JSON from the SMOKE_CONFIG environment variable (Node, Bun, Deno), or from
// the worker or page that imports `runSmoke` (scripts/test-runtimes.mjs builds both):
//   { baseUrl, apiKey, pageSize, expectedTotal, recipientId,
//     webhook: { payload, headers, secret, type } }
// It prints one line per check and `N passed, M failed`; run on its own it exits 1 on a failure.
import { ApiError, Client, NotFoundError, VERSION } from '@employee-recognition/sdk';
import { openTelemetry } from '@employee-recognition/sdk/otel';
import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import {
  createNodeMiddleware,
  createWebhookReceiver,
  createWebMiddleware,
  verifyWebhook,
  WebhookVerificationError,
} from '@employee-recognition/sdk/webhooks';

class CheckFailed extends Error {}

/**
 * A context that lasts for the synchronous part of `context.with()` only, as the web SDK's
 * StackContextManager keeps it: what a browser or a Worker has without zone.js, where no context
 * survives an `await`.
 */
class SynchronousContextManager {
  #active = ROOT_CONTEXT;
  active() {
    return this.#active;
  }
  with(next, fn, thisArg, ...args) {
    const previous = this.#active;
    this.#active = next;
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.#active = previous;
    }
  }
  bind(_context, target) {
    return target;
  }
  enable() {
    return this;
  }
  disable() {
    this.#active = ROOT_CONTEXT;
    return this;
  }
}

function expect(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

/**
 * Runs every check against the mock server described by `config`; `print` receives each line.
 * Resolves to `{ passed, failed, lines }` and never rejects.
 */
export async function runSmoke(config, print = (line) => console.log(line)) {
  const lines = [];
  let passed = 0;
  let failed = 0;
  const say = (line) => {
    lines.push(line);
    print(line);
  };
  const check = async (name, body) => {
    try {
      const detail = await body();
      passed++;
      say(`ok   ${name}${detail ? `: ${detail}` : ''}`);
    } catch (error) {
      failed++;
      const why = error instanceof CheckFailed ? error.message : describe(error);
      say(`FAIL ${name}: ${why}`);
    }
  };

  const client = new Client({
    apiKey: config.apiKey,
    baseUrl: config.baseUrl,
    timeout: 10_000,
    maxRetries: 1,
    // A test key against the local mock; in the browser run the guard would refuse it otherwise.
    dangerouslyAllowBrowser: true,
  });

  await check('import', async () => {
    expect(typeof Client === 'function', 'Client is not a class');
    expect(typeof verifyWebhook === 'function', 'verifyWebhook is not a function');
    // Where the runtime resolves the name (Node, Bun, Deno): the build, never the sources.
    // Bundles resolve it at build time; the driver checks what went into them.
    const where = resolvedPath('@employee-recognition/sdk');
    if (where) expect(/\/dist\/index\.js$/.test(where), `resolved to ${where}`);
    return `@employee-recognition/sdk ${VERSION}${where ? ` from ${where.replace(/^.*\/(dist\/)/, '$1')}` : ''}`;
  });

  await check('list first page', async () => {
    const page = await client.recognitions.list({ limit: config.pageSize });
    expect(Array.isArray(page.data), 'data is not an array');
    expect(page.data.length === config.pageSize, `${page.data.length} records on the first page`);
    expect(page.pagination.page === 1, `pagination.page is ${page.pagination.page}`);
    expect(page.pagination.total_pages >= 3, `only ${page.pagination.total_pages} pages`);
    const first = page.data[0];
    expect(typeof first.id === 'string' && typeof first.message === 'string', 'odd record');
    return `${page.data.length} records, page 1 of ${page.pagination.total_pages}`;
  });

  await check('for await across pages', async () => {
    const ids = new Set();
    let count = 0;
    for await (const recognition of client.recognitions.list({ limit: config.pageSize })) {
      ids.add(recognition.id);
      count++;
      expect(count <= config.expectedTotal, 'iterated past the end of the list');
    }
    expect(count === config.expectedTotal, `${count} records, expected ${config.expectedTotal}`);
    expect(ids.size === count, `${count - ids.size} duplicates`);
    const pages = Math.ceil(count / config.pageSize);
    expect(pages >= 3, `only ${pages} pages`);
    return `${count} records over ${pages} pages`;
  });

  await check('users.list', async () => {
    const page = await client.users.list();
    expect(page.data.length > 0, 'no users');
    let found = false;
    for await (const user of client.users.list({ limit: 100 })) {
      if (user.id === config.recipientId) found = true;
    }
    expect(found, 'the recipient is not listed');
    return `${page.data.length} users on the first page`;
  });

  await check('create', async () => {
    const message = `Smoke test from ${runtimeName()}`;
    const { data } = await client.recognitions.create({
      recipient_id: config.recipientId,
      message,
      points: 5,
    });
    expect(data.message === message, `message came back as ${JSON.stringify(data.message)}`);
    expect(data.recipient.id === config.recipientId, 'wrong recipient');
    expect(data.points === 5, `points came back as ${data.points}`);
    const { data: again } = await client.recognitions.get(data.id);
    expect(again.id === data.id, 'get returned another record');
    return `created ${data.id}`;
  });

  await check('NotFoundError', async () => {
    try {
      await client.recognitions.get('00000000-0000-4000-8000-000000000000');
    } catch (error) {
      expect(error instanceof NotFoundError, `threw ${describe(error)}`);
      expect(error instanceof ApiError, 'NotFoundError is not an ApiError');
      expect(error.status === 404, `status ${error.status}`);
      expect(typeof error.code === 'string' && error.code !== '', 'no code');
      return `${error.status} ${error.code}`;
    }
    throw new CheckFailed('no error thrown');
  });

  await check('ApiError on a bad key', async () => {
    const stranger = new Client({
      apiKey: `rk_test_${'0'.repeat(32)}`,
      baseUrl: config.baseUrl,
      dangerouslyAllowBrowser: true,
    });
    try {
      await stranger.users.list();
    } catch (error) {
      expect(error instanceof ApiError, `threw ${describe(error)}`);
      expect(error.status === 401, `status ${error.status}`);
      return `${error.constructor.name} ${error.status} ${error.code}`;
    }
    throw new CheckFailed('no error thrown');
  });

  await check('verifyWebhook', async () => {
    const { payload, headers, secret, type } = config.webhook;
    const event = await verifyWebhook(payload, headers, secret);
    expect(event.type === type, `event type ${event.type}`);
    const asHeaders = await verifyWebhook(payload, new Headers(headers), secret);
    expect(asHeaders.id === event.id, 'Headers object gave another event');
    // The SDK takes node:crypto where process.getBuiltinModule offers it, Web Crypto elsewhere.
    const backend = globalThis.process?.getBuiltinModule ? 'node:crypto' : 'Web Crypto';
    return `${event.type} ${event.id} (${backend})`;
  });

  await check('verifyWebhook rejects a tampered body', async () => {
    const { payload, headers, secret } = config.webhook;
    try {
      await verifyWebhook(`${payload} `, headers, secret);
    } catch (error) {
      expect(error instanceof WebhookVerificationError, `threw ${describe(error)}`);
      return `rejected: ${error.reason}`;
    }
    throw new CheckFailed('a tampered body verified');
  });

  await check('webhook receiver', async () => {
    const { payload, headers, secret } = config.webhook;
    const handled = [];
    const receiver = createWebhookReceiver({ secret }).onAny((event) => void handled.push(event));
    const handle = createWebMiddleware(receiver);
    const deliver = (body) =>
      handle(new Request('http://receiver.test/webhooks', { method: 'POST', headers, body }));
    const first = await deliver(payload);
    expect(first.status === 204, `a delivery was answered ${first.status}`);
    const copy = await deliver(payload);
    expect(copy.status === 204, `its copy was answered ${copy.status}`);
    expect(handled.length === 1, `handled ${handled.length} times`);
    const forged = await deliver(`${payload} `);
    expect(forged.status === 400, `a forgery was answered ${forged.status}`);
    const get = await handle(new Request('http://receiver.test/webhooks'));
    expect(get.status === 405, `a GET was answered ${get.status}`);
    const served = await serveReceiver(createWebhookReceiver({ secret }), async (url) => {
      const response = await fetch(url, { method: 'POST', headers, body: payload });
      expect(response.status === 204, `the served receiver answered ${response.status}`);
    });
    return `204, copy 204 handled once, forgery 400, GET 405${served ? `; served by ${served}` : ''}`;
  });

  await check('OpenTelemetry without an async context', async () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    context.setGlobalContextManager(new SynchronousContextManager());
    try {
      const traced = new Client({
        apiKey: config.apiKey,
        baseUrl: config.baseUrl,
        dangerouslyAllowBrowser: true,
        instrumentation: openTelemetry({ tracerProvider }),
      });
      const app = tracerProvider.getTracer('smoke').startSpan('app');
      // Called inside the app's context; the call's spans start and end after awaits, where it is gone.
      const listing = context.with(trace.setSpan(ROOT_CONTEXT, app), () =>
        traced.users.list({ limit: 1 }),
      );
      expect(context.active() === ROOT_CONTEXT, 'the app context outlived context.with');
      await listing;
      app.end();
      const spans = exporter.getFinishedSpans();
      const call = spans.find((span) => span.name === 'users.list');
      const attempt = spans.find((span) => span.name === 'GET /v1/users');
      expect(call, `no users.list span among ${spans.map((span) => span.name).join(', ')}`);
      expect(
        call.parentSpanContext?.spanId === app.spanContext().spanId,
        'the call is not a child of the span active when it was made',
      );
      expect(
        attempt?.parentSpanContext?.spanId === call.spanContext().spanId,
        'the attempt is not a child of its call',
      );
      expect(attempt.attributes['http.response.status_code'] === 200, 'no status on the attempt');
      return 'users.list a child of the app span, its attempt a child of it';
    } finally {
      context.disable();
      await tracerProvider.shutdown();
    }
  });

  say(`${runtimeName()}: ${passed} passed, ${failed} failed`);
  return { passed, failed, lines };
}

/**
 * Serves `receiver` on 127.0.0.1 with the runtime's own server (Bun.serve, Deno.serve, or
 * node:http through the Node handler), runs `use(url)` against it and stops it. Resolves to the
 * server's name, or undefined where the runtime has none (a Worker's or a page's smoke).
 */
async function serveReceiver(receiver, use) {
  const g = globalThis;
  if (g.Bun) {
    const server = g.Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: createWebMiddleware(receiver),
    });
    try {
      await use(`http://127.0.0.1:${server.port}/webhooks`);
    } finally {
      server.stop(true);
    }
    return 'Bun.serve';
  }
  if (g.Deno) {
    const stop = new AbortController();
    const server = g.Deno.serve(
      { port: 0, hostname: '127.0.0.1', signal: stop.signal, onListen() {} },
      createWebMiddleware(receiver),
    );
    try {
      await use(`http://127.0.0.1:${server.addr.port}/webhooks`);
    } finally {
      stop.abort();
      await server.finished;
    }
    return 'Deno.serve';
  }
  if (g.process?.versions?.node && g.process.getBuiltinModule) {
    const { createServer } = g.process.getBuiltinModule('node:http');
    const server = createServer(createNodeMiddleware(receiver));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await use(`http://127.0.0.1:${server.address().port}/webhooks`);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    return 'node:http (createNodeMiddleware)';
  }
  return undefined;
}

function resolvedPath(specifier) {
  try {
    const url = import.meta.resolve?.(specifier);
    return typeof url === 'string' && url.startsWith('file:') ? url : undefined;
  } catch {
    return undefined;
  }
}

function describe(error) {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** Which runtime this is, without relying on anything Node-only. */
export function runtimeName() {
  const g = globalThis;
  if (g.Bun) return `bun ${g.Bun.version}`;
  if (g.Deno) return `deno ${g.Deno.version.deno}`;
  if (g.navigator?.userAgent === 'Cloudflare-Workers') return 'workerd';
  if (g.process?.versions?.node) return `node ${g.process.versions.node}`;
  if (g.navigator?.userAgent) {
    const match = /(HeadlessChrome|Chrome|Firefox)\/[\d.]+/.exec(g.navigator.userAgent);
    return match ? match[0] : 'browser';
  }
  return 'unknown runtime';
}

/** The settings from the environment, where the runtime has one; undefined otherwise. */
function configFromEnvironment() {
  const g = globalThis;
  let raw;
  if (g.Deno) {
    try {
      raw = g.Deno.env.get('SMOKE_CONFIG');
    } catch {
      // No --allow-env: not run by the driver.
    }
  } else {
    raw = g.process?.env?.SMOKE_CONFIG;
  }
  return raw ? JSON.parse(raw) : undefined;
}

const standalone = configFromEnvironment();
if (standalone) {
  const { failed } = await runSmoke(standalone);
  if (failed > 0) {
    if (globalThis.Deno) globalThis.Deno.exit(1);
    globalThis.process.exitCode = 1;
  }
}
