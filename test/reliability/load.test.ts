/**
 * Load against the mock server over real HTTP: bursts far beyond the rate limit. Every call ends
 * in a result or a RateLimitError, the counts add up with what the server saw, and the opt-in
 * throttle turns the same kind of burst into one with no 429 at all.
 *
 * Time: 27 s of a full run on two shared cores: 2,800 real HTTP exchanges with the mock (the
 * burst, each failed call retried twice), which is the load under test; no test here waits on a
 * clock (the mock's stands still).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Client, type ClientOptions, RateLimitError } from '../../src/index.js';
import {
  type MockServer,
  type MockServerOptions,
  startMockServer,
} from '../../src/testing/index.js';
import { collectErrors, expectNoSecretsIn } from '../support/secrets.js';

const TIER = 100;
let server: MockServer | undefined;
afterEach(() => server?.close());

async function burst(size: number, options: ClientOptions, serverOptions: MockServerOptions = {}) {
  server = await startMockServer({ seed: 5, rateLimitWindowMs: 1000, ...serverOptions });
  const statuses: number[] = [];
  // Answers that did not come from the mock's handler (it stamps each with a request id): what
  // Node's HTTP server says on its own (a 408 or 400 to a connection it gave up on) or the mock
  // server's 500 when a request could not be read. Listed, so a failure names who answered.
  const notFromTheMock: string[] = [];
  const countingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    statuses.push(response.status);
    if (!response.headers.has('x-request-id')) {
      notFromTheMock.push(`${response.status} ${await response.clone().text()}`.slice(0, 200));
    }
    return response;
  };
  const client = new Client({
    baseUrl: server.url,
    apiKey: server.api.testKey,
    fetch: countingFetch,
    ...options,
  });
  const errors = collectErrors();
  const outcomes = await Promise.all(
    Array.from({ length: size }, () =>
      client.users.list({ limit: 2 }).then(
        () => 'ok',
        (error: unknown) => {
          errors.add(error);
          return error instanceof RateLimitError ? 'rate_limited' : 'other';
        },
      ),
    ),
  );
  const count = <T>(list: T[], value: T) => list.filter((item) => item === value).length;
  return {
    ok: count(outcomes, 'ok'),
    limited: count(outcomes, 'rate_limited'),
    other: count(outcomes, 'other'),
    attempts: statuses.length,
    answered200: count(statuses, 200),
    answered429: count(statuses, 429),
    seenByServer: server.api.requests.length,
    notFromTheMock,
    errors,
    key: server.api.testKey,
  };
}

describe('1,000 concurrent calls', () => {
  it('all complete: successes plus RateLimitErrors make 1,000, and match what the server served', async () => {
    const maxRetries = 2;
    // The mock's clock stands still, so its window never resets however slowly a loaded machine
    // runs the burst: exactly one window's worth succeeds and every other call spends its retries.
    const frozen = Date.now();
    const result = await burst(1000, { maxRetries, rateLimit: 'off' }, { now: () => frozen });
    expect(result.other).toBe(0);
    expect(result.ok + result.limited).toBe(1000);
    // Every attempt reached the server and got a 200 or a 429, one 200 per successful call. Once
    // in ten runs beside two busy cores the mock saw 17 requests fewer than the client's 2,800
    // answers (docs/mutation-testing.md, "The ten-runs check"): the list says what answered them.
    expect(
      result.notFromTheMock.slice(0, 3),
      `${result.notFromTheMock.length} answers not from the mock`,
    ).toEqual([]);
    expect(result.attempts).toBe(result.seenByServer);
    expect(result.answered200).toBe(result.ok);
    expect(result.answered429).toBe(result.attempts - result.ok);
    // A call that failed spent all its attempts; one that succeeded, one to all of them.
    expect(result.attempts).toBeGreaterThanOrEqual(result.ok + result.limited * (maxRetries + 1));
    expect(result.attempts).toBeLessThanOrEqual(1000 * (maxRetries + 1));
    expect(result.ok).toBe(TIER);
    expect(result.attempts).toBe(TIER + (1000 - TIER) * (maxRetries + 1));
    expectNoSecretsIn(result.errors.all, [result.key]);
    // 2,800 real HTTP exchanges with the mock in this process: about 16 s on an idle machine, so
    // the suite's 20 s default is no guard here, only a coin toss when other suites share the cores.
  }, 120_000);
});

describe("the throttle (rateLimit: 'auto') on the same burst", () => {
  it('without it, a burst of 3 windows’ worth meets 429s', async () => {
    const result = await burst(TIER * 3, { maxRetries: 0, rateLimit: 'off' });
    expect(result.limited).toBeGreaterThan(0);
    expect(result.ok + result.limited).toBe(TIER * 3);
  });

  it('with it, the burst finishes with no 429 at all', async () => {
    const result = await burst(TIER * 3, { maxRetries: 0, rateLimit: 'auto' });
    expect(result).toMatchObject({ ok: TIER * 3, limited: 0, other: 0, answered429: 0 });
    expect(result.seenByServer).toBe(TIER * 3);
  });
});
