/**
 * Properties (fast-check, fixed seeds) over what a server says about waiting and over what a caller
 * passes as options. Whatever the values: the call ends (within a bounded number of timers on a
 * fake clock), in a result or an EmployeeRecognitionError, and no single wait exceeds 60 s.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, ConfigurationError, type RequestOptions } from '@employee-recognition/sdk';
import {
  checkNoLeaks,
  closeAllServers,
  driveClient,
  type Driven,
  EMPTY_PAGE,
  errorBody,
  expectEndedWithinCap,
  headerValues,
  json,
  RECOGNITION,
  startHostileServer,
  USER,
} from '../../support/hostile-server.js';

const API_KEY = `rk_test_${'Pr0pertyWaits'.repeat(2)}`;
/** Attempt timeouts are set to this, so their timers are told apart from waits. */
const TIMEOUT = 600_000;
const SEED = 20261123;

checkNoLeaks();
afterEach(closeAllServers);

// Header values a server can send (visible ASCII and spaces), shaped like what parsers expect and not.
const chars = fc.constantFrom(...'0123456789.,;=-+eE :"abcdefGMTNaInfity'.split(''));
const numberText = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.integer({ min: 0, max: 10_000_000_000 }).map(String),
  fc.double({ noNaN: false }).map(String),
  fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e308', '-0', '0x1F', '1_000', '', ' 5 ', '5s'),
);
const dateText = fc
  .date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true })
  .map((date) => date.toUTCString());
const anyText = fc.string({ unit: chars, maxLength: 40 });
const waitText = fc.oneof(
  numberText,
  dateText,
  anyText,
  fc.array(numberText, { minLength: 2, maxLength: 3 }).map((values) => values.join(', ')),
);
const relativeResetText = fc
  .integer({ min: -120, max: 200_000 })
  .map((seconds) => (now: number) => String(Math.floor(now / 1000) + seconds));
const rateLimitHeaders = fc.record(
  {
    'retry-after': waitText,
    'x-ratelimit-limit': numberText,
    'x-ratelimit-remaining': numberText,
    'x-ratelimit-reset': waitText,
    'ratelimit-limit': numberText,
    'ratelimit-remaining': numberText,
    'ratelimit-reset': waitText,
    ratelimit: fc.oneof(
      fc
        .tuple(numberText, numberText, numberText)
        .map(
          ([limit, remaining, reset]) => `limit=${limit}, remaining=${remaining}, reset=${reset}`,
        ),
      fc
        .tuple(numberText, numberText)
        .map(([remaining, reset]) => `"default";r=${remaining};t=${reset}`),
      anyText,
    ),
  },
  { requiredKeys: [] },
);

describe('header values: a result or a typed error, every wait within 60 s', () => {
  it('Retry-After, X-RateLimit-*, RateLimit-* and RateLimit on 429, 503 and 200 answers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(429, 503, 200), rateLimitHeaders), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.option(relativeResetText, { nil: undefined }),
        fc.constantFrom('off' as const, 'auto' as const),
        fc.integer({ min: 0, max: 2 }),
        async (answers, reset, rateLimit, maxRetries) => {
          const server = await startHostileServer((_request, response, index) => {
            const [status, headers] = answers[Math.min(index, answers.length - 1)]!;
            const all: Record<string, string> = { ...headers };
            if (reset) all['x-ratelimit-reset'] = reset(Date.now());
            if (status === 200) json(response, 200, EMPTY_PAGE, all);
            else json(response, status, errorBody('rate_limited', 'slow down'), all);
          });
          // Two calls in a row, so a throttle that learned from the first governs the second.
          const driven = await driveClient(
            server,
            { apiKey: API_KEY, timeout: TIMEOUT, maxRetries, rateLimit },
            async (client) => {
              await client.users.list().catch((error: unknown) => {
                if (!(error instanceof ApiError)) throw error;
              });
              return client.users.list();
            },
          );
          await server.close();
          expectEndedWithinCap(driven, TIMEOUT);
          // Each attempt may wait once for a retry and once in the throttle's queue.
          expect(driven.steps).toBeLessThanOrEqual(4 * (maxRetries + 1) + 2);
        },
      ),
      { seed: SEED, numRuns: 60 },
    );
  });
});

// Option values: well-formed, out of range, of the wrong type, and header names and values of
// every kind, including those HTTP forbids or fetch manages itself.
const looseNumber = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer({ min: -5, max: 200_000 }),
  fc.double(),
  fc.constantFrom(NaN, Infinity, -Infinity, 0, -0, 2 ** 31, Number.MAX_SAFE_INTEGER),
  fc.anything(),
);
const headerName = fc.oneof(
  fc.constantFrom(
    'Idempotency-Key',
    'IDEMPOTENCY-KEY',
    'idempotency-key',
    'X-Tenant',
    'content-length',
    'content-type',
    'host',
    'transfer-encoding',
    'connection',
    'accept',
    'user-agent',
  ),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
);
const headerValue = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom('order-42', 'a\r\nb', '€', '\uD800', ''),
);
const headersOption = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.dictionary(headerName, headerValue, { maxKeys: 3 }),
  fc.anything(),
);
const idempotencyKeyOption = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.anything(),
);

describe('option values: a result or a typed error, nothing hangs', () => {
  it('per-call timeout, maxRetries, headers and idempotencyKey on a create', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            timeout: looseNumber,
            maxRetries: looseNumber,
            headers: headersOption,
            idempotencyKey: idempotencyKeyOption,
          },
          { requiredKeys: [] },
        ),
        async (options) => {
          const server = await startHostileServer((_request, response) =>
            json(response, 201, { data: RECOGNITION }),
          );
          const driven = await driveClient(server, { apiKey: API_KEY, maxRetries: 0 }, (client) =>
            client.recognitions.create(
              { recipient_id: USER.id, message: 'Thanks' },
              options as RequestOptions,
            ),
          );
          await server.close();
          const timeout = typeof options.timeout === 'number' ? options.timeout : 30_000;
          expectEndedWithinCap(driven, timeout);
          if (driven.error instanceof ConfigurationError) {
            expect(server.requests).toHaveLength(0);
          }
          for (const request of server.requests) {
            const keys = headerValues(request, 'idempotency-key');
            expect(keys).toHaveLength(1);
            if (typeof options.idempotencyKey === 'string' && driven.error === undefined) {
              expect(keys[0]).toBe(options.idempotencyKey);
            }
          }
        },
      ),
      { seed: SEED, numRuns: 150 },
    );
  });

  it('client timeout, maxRetries, headers and maxResponseBytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            timeout: looseNumber,
            maxRetries: looseNumber,
            headers: headersOption,
            maxResponseBytes: looseNumber,
          },
          { requiredKeys: [] },
        ),
        async (options) => {
          const server = await startHostileServer((_request, response) =>
            json(response, 200, EMPTY_PAGE),
          );
          let driven: Driven<unknown>;
          try {
            driven = await driveClient(
              server,
              { apiKey: API_KEY, ...(options as Record<string, never>) },
              (client) => client.users.list(),
            );
          } catch (error) {
            expect(error).toBeInstanceOf(ConfigurationError);
            return;
          } finally {
            await server.close();
          }
          expectEndedWithinCap(
            driven,
            typeof options.timeout === 'number' ? options.timeout : 30_000,
          );
        },
      ),
      { seed: SEED, numRuns: 150 },
    );
  });
});
