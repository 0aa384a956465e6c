/**
 * At `logLevel: 'debug'` every attempt has its line, the failed ones included: its number, its
 * outcome (a status, or the error's class and cause) and what follows it (a retry and its wait, or
 * nothing more). Run against the testing kit's faults, as a customer reproduces a failure.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Client, type ClientOptions, type RetryContext } from '../../src/index.js';
import { createMockApi, type MockApi } from '../../src/testing/index.js';
import { settleWithFakeTimers } from '../support/core.js';

let api: MockApi;
let userId: string;
beforeEach(() => {
  api = createMockApi({ seed: 7 });
  userId = api.store.users.all()[0]!.id;
});
afterEach(() => api.close());

/** GET /v1/users/:id through a client that logs at debug, and what it logged and waited. */
async function getUser(options: ClientOptions = {}) {
  const lines: string[] = [];
  const waits: number[] = [];
  const log = (level: string) => (line: string) => void lines.push(`${level} ${line}`);
  const client = new Client({
    apiKey: api.testKey,
    baseUrl: api.baseUrl,
    fetch: api.fetch,
    rateLimit: 'off',
    logLevel: 'debug',
    logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
    hooks: { beforeRetry: [({ delayMs }: RetryContext) => void waits.push(Math.round(delayMs))] },
    ...options,
  });
  const outcome = await settleWithFakeTimers(() => client.users.get(userId));
  const url = `${api.baseUrl}/v1/users/${userId}`;
  return { ...outcome, lines, waits, url };
}

it('logs an attempt whose connection dropped, its cause and the wait before the next', async () => {
  api.faults.dropResponseNext(`GET /v1/users/:id`);
  const { error, lines, waits, url } = await getUser();
  expect(error).toBeUndefined();
  expect(lines).toEqual([
    `debug [employee-recognition] GET ${url} -> ApiConnectionError (Connection error: GET ${url}: fetch failed) (attempt 1), retry in ${waits[0]} ms`,
    expect.stringMatching(
      new RegExp(
        `^debug \\[employee-recognition\\] GET ${url} -> 200 in \\d+ ms \\(attempt 2, request id req_\\d+\\) received \\{`,
      ),
    ),
  ]);
});

it('logs an attempt that timed out, and the last one as not retried', async () => {
  api.faults.delayNext(`GET /v1/users/:id`, 60_000, { times: 2 });
  const { error, lines, waits, url } = await getUser({ timeout: 1000, maxRetries: 1 });
  expect(error).toMatchObject({ name: 'ApiTimeoutError' });
  expect(lines).toEqual([
    `debug [employee-recognition] GET ${url} -> ApiTimeoutError (GET ${url} timed out after 1000 ms.) (attempt 1), retry in ${waits[0]} ms`,
    `debug [employee-recognition] GET ${url} -> ApiTimeoutError (GET ${url} timed out after 1000 ms.) (attempt 2), no retry`,
  ]);
});

it('logs a 5xx attempt with its status, request id, body and the backoff that follows', async () => {
  api.faults.failNext(`GET /v1/users/:id`, { status: 503 });
  const { lines, waits, url } = await getUser();
  expect(waits).toHaveLength(1);
  expect(lines[0]).toMatch(
    new RegExp(
      `^debug \\[employee-recognition\\] GET ${url} -> 503 in 0 ms \\(attempt 1, request id req_\\d+\\), retry in ${waits[0]} ms received \\{"error":\\{"code":"unavailable"`,
    ),
  );
  expect(lines[1]).toMatch(/ -> 200 in \d+ ms \(attempt 2, /);
  expect(lines).toHaveLength(2);
});

it('logs a 429 with the wait the service asked for, after the info line of that wait', async () => {
  api.faults.failNext(`GET /v1/users/:id`, { status: 429, retryAfter: 3 });
  const { lines, url } = await getUser();
  expect(lines.slice(0, 2)).toEqual([
    `info [employee-recognition] waiting 3 s (Retry-After) before retry 1 of 2 of GET ${url}`,
    expect.stringMatching(
      new RegExp(
        `^debug \\[employee-recognition\\] GET ${url} -> 429 in 0 ms \\(attempt 1, request id req_\\d+\\), retry in 3000 ms received `,
      ),
    ),
  ]);
  expect(lines[2]).toMatch(/ -> 200 in \d+ ms \(attempt 2, /);
});

it('logs a final 4xx as not retried, and writes no attempt line below debug', async () => {
  api.faults.failNext(`GET /v1/users/:id`, { status: 404 });
  const { error, lines } = await getUser();
  expect(error).toMatchObject({ status: 404 });
  expect(lines).toEqual([
    expect.stringMatching(/ -> 404 in 0 ms \(attempt 1, .*\), no retry received /),
  ]);
  api.faults.failNext(`GET /v1/users/:id`, { status: 503 });
  const quiet = await getUser({ logLevel: 'info' });
  expect(quiet.lines).toEqual([]);
});

it('never shows the credential in an attempt line, one of no known shape included', async () => {
  // An OAuth token has no shape a pattern knows: only the call's own redaction can hide it.
  const token = 'opaque7Token9Value3Without5Shape';
  api.close();
  api = createMockApi({ seed: 7, keys: [{ key: token }] });
  userId = api.store.users.all()[0]!.id;
  api.faults.dropResponseNext(`GET /v1/users/:id`);
  api.faults.failNext(`GET /v1/users/:id`, { status: 500 });
  const { lines } = await getUser({ apiKey: () => token });
  expect(lines).toHaveLength(3);
  expect(lines.join('\n')).not.toContain(token);
});
