import type * as NodeHttp from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  HEADER_IDEMPOTENCY_KEY,
  HEADER_LINK,
  HEADER_RATE_LIMIT_LIMIT,
  HEADER_RATE_LIMIT_REMAINING,
  HEADER_RATE_LIMIT_RESET,
  HEADER_REQUEST_ID,
  HEADER_RETRY_AFTER,
} from '../contract.js';
import type { Har } from './har.js';
import { HEADER_IDEMPOTENT_REPLAYED } from './idempotency.js';
import { createMockApi, type MockApi } from './mock-api.js';
import type { MockApiOptions } from './options.js';
import { createReplayer, type ReplayOptions } from './replay.js';

/**
 * Options of {@link startMockServer}: where to listen, plus those of `createMockApi` but
 * `baseUrl` (such as `seed`, `recognitions`, `tier` and `rateLimitWindowMs`).
 */
export interface MockServerOptions extends Omit<MockApiOptions, 'baseUrl'>, ReplayOptions {
  /** Default 0: any free port. */
  port?: number | undefined;
  /** Default `127.0.0.1`. */
  host?: string | undefined;
  /**
   * A recording (`recorder.har()`, or a HAR file's JSON) to answer from instead of the mock:
   * each request gets the recorded answer of its method, path, query and body, repeats in the
   * recorded order, and what was not recorded a 501 (`onUnrecorded`). Loads no msw.
   */
  replay?: Har | undefined;
}

/** A mock API served over HTTP. */
export interface MockServer {
  /** The base URL, such as `http://127.0.0.1:4010`. */
  url: string;
  /** The mock behind it, whose `baseUrl` is `url`. */
  api: MockApi;
  /** Stops listening, closes every connection and the mock; leaves no handle open. */
  close(): Promise<void>;
}

// Browsers may call the server from a page on another origin.
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': [
    HEADER_REQUEST_ID,
    HEADER_RATE_LIMIT_LIMIT,
    HEADER_RATE_LIMIT_REMAINING,
    HEADER_RATE_LIMIT_RESET,
    HEADER_RETRY_AFTER,
    HEADER_IDEMPOTENT_REPLAYED,
    // What the `dialect` option sends instead (dialect.ts), and the service's clock.
    'ratelimit-limit',
    'ratelimit-remaining',
    'ratelimit-reset',
    'ratelimit',
    'ratelimit-policy',
    HEADER_LINK,
    'date',
  ].join(', '),
};
const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'access-control-allow-methods': 'GET, POST, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers': [
    'authorization',
    'content-type',
    HEADER_IDEMPOTENCY_KEY,
    'accept',
  ].join(', '),
  'access-control-max-age': '600',
};

// Not a literal specifier, so bundlers leave it alone and the testing entry still bundles for
// browsers, where the MSW handlers work and this function is not called.
const NODE_HTTP = 'node:http';

/**
 * Serves a new mock API over real HTTP through node:http, with CORS for browser pages. Node
 * only; node:http is imported when called, so the testing entry still bundles for browsers.
 * Prints nothing: callers such as the CLI say what they want.
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const { port = 0, host = '127.0.0.1', replay, onUnrecorded, ...apiOptions } = options;
  const { createServer }: typeof NodeHttp = await import(
    /* webpackIgnore: true */ /* @vite-ignore */ NODE_HTTP
  );
  let handle: MockApi['handle'] | undefined;
  const server = createServer((request, response) => void serve(handle!, request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: actualPort } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
  // Created once the port is known, before the first request can arrive; options it refuses
  // (a dialect it does not know, a replay that is not a HAR) close the server again, so nothing
  // is left listening.
  let api: MockApi;
  try {
    api = createMockApi({ ...apiOptions, baseUrl: url });
    // `api.handle` looked up on each request, so a test's spy on it sees every request.
    const mock = (request: Request) => api.handle(request);
    handle = replay
      ? createReplayer(replay, {
          fallback: onUnrecorded === 'mock' ? mock : undefined,
          now: apiOptions.now,
          origin: url,
        }).handle
      : mock;
  } catch (error) {
    await new Promise((resolve) => server.close(resolve));
    throw error;
  }
  return {
    url,
    api,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await api.close();
    },
  };
}

async function serve(
  handle: MockApi['handle'],
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Promise<void> {
  if (incoming.method === 'OPTIONS') {
    outgoing.writeHead(204, PREFLIGHT_HEADERS).end();
    return;
  }
  // A client that goes away aborts the request, which cancels a fault's delay.
  const controller = new AbortController();
  outgoing.on('close', () => {
    if (!outgoing.writableFinished) controller.abort(new Error('The client disconnected'));
  });
  try {
    let response: Response;
    try {
      response = await handle(await toRequest(incoming, controller.signal));
    } catch (error) {
      // A client gone needs no answer; anything else that failed here is the server's 500.
      if (controller.signal.aborted) return void outgoing.destroy();
      throw error;
    }
    if (response.type === 'error') {
      incoming.socket.destroy();
      return;
    }
    outgoing.writeHead(response.status, {
      ...Object.fromEntries(response.headers),
      ...CORS_HEADERS,
    });
    const reader = response.body?.getReader();
    for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader!.read()) {
      if (outgoing.destroyed) return void reader!.cancel();
      outgoing.write(chunk.value);
    }
    outgoing.end();
  } catch (error) {
    // Never an unhandled rejection that ends the test process, never a request left unanswered.
    if (outgoing.headersSent) return void outgoing.destroy();
    const message = `The mock server failed to answer: ${error instanceof Error ? error.message : String(error)}`;
    outgoing
      .writeHead(500, { 'content-type': 'application/json', ...CORS_HEADERS })
      .end(JSON.stringify({ error: { code: 'internal_error', message } }));
  }
}

async function toRequest(incoming: IncomingMessage, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
    headers.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
  }
  const method = incoming.method ?? 'GET';
  const chunks: Uint8Array[] = [];
  if (method !== 'GET' && method !== 'HEAD') for await (const chunk of incoming) chunks.push(chunk);
  return new Request(
    new URL(incoming.url ?? '/', `http://${incoming.headers.host ?? 'localhost'}`),
    {
      method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
      signal,
    },
  );
}
