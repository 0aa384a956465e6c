/**
 * The fault suite: real HTTP servers on 127.0.0.1 misbehaving in every way a network, a proxy or
 * the service can. Each call must end, within its time budget, in a result or the right typed
 * error; nothing may hang, reject unhandled, or stay open afterwards.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiConnectionError,
  ApiTimeoutError,
  Client,
  type ClientOptions,
  InternalServerError,
  InvalidResponseError,
  RateLimitError,
} from '../../src/index.js';
import { closedPort, startTestServer, type TestServer } from '../support/http-server.js';
import { collectErrors, expectNoSecretsIn } from '../support/secrets.js';

const API_KEY = `rk_test_${'Fau1tSuiteKey'.repeat(3)}`;
const errors = collectErrors();
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
const servers: TestServer[] = [];
const OUR_RESOURCES = ['Timeout', 'TCPSocketWrap', 'TCPServerWrap'];
const countOpen = () =>
  process.getActiveResourcesInfo().filter((kind) => OUR_RESOURCES.includes(kind)).length;
let openBefore = 0;

beforeAll(() => {
  openBefore = countOpen();
  process.on('unhandledRejection', onUnhandled);
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  process.off('unhandledRejection', onUnhandled);
  expect(unhandled).toEqual([]);
  expectNoSecretsIn(errors.all, [API_KEY]);
  // Closed sockets need a few turns of the event loop to finish tearing down.
  for (let turn = 0; turn < 20 && countOpen() > openBefore; turn++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  expect(countOpen()).toBeLessThanOrEqual(openBefore);
});

const USERS_PAGE = JSON.stringify({
  data: [],
  pagination: { page: 1, total_pages: 0, next_cursor: null },
});

function json(
  response: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(body);
}

async function serve(handle: Parameters<typeof startTestServer>[0]) {
  const server = await startTestServer(handle);
  servers.push(server);
  return server;
}

/** Runs `users.list()` and reports the outcome and how long it took. */
async function listUsers(url: string, options: ClientOptions = {}) {
  const client = new Client({
    apiKey: API_KEY,
    baseUrl: url,
    maxRetries: 1,
    timeout: 2000,
    ...options,
  });
  const started = performance.now();
  try {
    const page = await client.users.list();
    return { page, error: undefined, ms: performance.now() - started };
  } catch (error) {
    errors.add(error);
    return { page: undefined, error, ms: performance.now() - started };
  }
}

describe('faults against a real server', () => {
  it('connection refused: retried, then ApiConnectionError', async () => {
    const { error } = await listUsers(await closedPort());
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).not.toBeInstanceOf(ApiTimeoutError);
  });

  it('connection reset before headers: retried, and the retry succeeds', async () => {
    const server = await serve((request, response, index) => {
      if (index === 0) request.socket.destroy();
      else json(response, 200, USERS_PAGE);
    });
    const { page, error } = await listUsers(server.url);
    expect(error).toBeUndefined();
    expect(page?.data).toEqual([]);
    expect(server.requests).toHaveLength(2);
  });

  it('connection reset in the middle of the body: ApiConnectionError', async () => {
    const server = await serve((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      response.write('{"data": [{"id": "');
      setTimeout(() => request.socket.destroy(), 20);
    });
    const { error } = await listUsers(server.url);
    expect(error).toBeInstanceOf(ApiConnectionError);
  });

  it('a server that never answers: each attempt times out, then ApiTimeoutError', async () => {
    const server = await serve(() => {});
    const { error } = await listUsers(server.url, { timeout: 150 });
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(server.requests).toHaveLength(2);
  });

  it('headers sent, then the body stalls: ApiTimeoutError, not a hang', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"data": [');
    });
    const { error } = await listUsers(server.url, { timeout: 150, maxRetries: 0 });
    expect(error).toBeInstanceOf(ApiTimeoutError);
  });

  it('truncated JSON in a 200: InvalidResponseError naming the body', async () => {
    const server = await serve((_request, response) =>
      json(response, 200, USERS_PAGE.slice(0, 20)),
    );
    const { error } = await listUsers(server.url);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).issues).toEqual([
      { path: '(body)', message: 'must be JSON' },
    ]);
  });

  it('200 with a body that is not JSON at all: InvalidResponseError', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('OK');
    });
    const { error } = await listUsers(server.url);
    expect(error).toBeInstanceOf(InvalidResponseError);
  });

  it('502 with an HTML page: retried, then InternalServerError quoting the page title', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end(
        '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>',
      );
    });
    const { error } = await listUsers(server.url);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502 });
    expect((error as Error).message).toContain('502 Bad Gateway');
    expect(server.requests).toHaveLength(2);
  });

  it('503 with Retry-After in seconds: waits, retries, succeeds', async () => {
    const server = await serve((_request, response, index) => {
      if (index === 0)
        json(response, 503, '{"error":{"code":"unavailable","message":"busy"}}', {
          'retry-after': '1',
        });
      else json(response, 200, USERS_PAGE);
    });
    const { error, ms } = await listUsers(server.url);
    expect(error).toBeUndefined();
    expect(ms).toBeGreaterThanOrEqual(950);
  });

  it('429 with Retry-After as an HTTP-date: waits until then, retries, succeeds', async () => {
    const server = await serve((_request, response, index) => {
      if (index === 0) {
        const at = new Date(Date.now() + 1000).toUTCString();
        json(response, 429, '{"error":{"code":"rate_limited","message":"slow down"}}', {
          'retry-after': at,
        });
      } else json(response, 200, USERS_PAGE);
    });
    const { error } = await listUsers(server.url);
    expect(error).toBeUndefined();
    expect(server.requests).toHaveLength(2);
  });

  it('a storm of 429s longer than maxRetries: RateLimitError after exactly maxRetries + 1 attempts', async () => {
    const server = await serve((_request, response) =>
      json(response, 429, '{"error":{"code":"rate_limited","message":"slow down"}}', {
        'retry-after': '0',
      }),
    );
    const { error } = await listUsers(server.url, { maxRetries: 3 });
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(0);
    expect(server.requests).toHaveLength(4);
  });
});
