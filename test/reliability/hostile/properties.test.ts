/**
 * Properties (fast-check, fixed seeds) over what a server says about waiting and over what a caller
 * passes as options. Whatever the values: the call ends (within a bounded number of timers on a
 * fake clock), in a result or an EmployeeRecognitionError, and no single wait exceeds 60 s.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  ConfigurationError,
  EmployeeRecognitionError,
  type RequestOptions,
} from '@employee-recognition/sdk';
import { type Answer, observeCall, type Observed } from '../../support/channels.js';
import { FUZZ_SEED, fuzzRuns } from '../../support/fuzz.js';
import { writtenForms } from '../../support/secrets.js';
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

// The properties below drive a scripted in-process service (test/support/channels.ts) and observe
// every output channel at once; each is named for the promise of docs/reliability.md it pins.

// Every byte a header value may hold (tab, visible ASCII, Latin-1), weighted towards what
// parsers expect and what lies just beside it.
const byteText = fc.string({
  unit: fc.oneof(
    { weight: 3, arbitrary: chars },
    fc.integer({ min: 0x20, max: 0xff }).map((code) => String.fromCharCode(code)),
    fc.constant('\t'),
  ),
  maxLength: 40,
});
// Numbers of every size and spelling: negative, fractional, exponent, hex, huge, repeated, long.
const byteNumberText = fc.oneof(
  numberText,
  fc.bigInt({ min: 0n, max: 10n ** 20n }).map(String),
  fc.tuple(fc.nat(), fc.nat()).map(([whole, fraction]) => `${whole}.${fraction}`),
  fc.nat().map((value) => `0x${value.toString(16)}`),
  fc.tuple(fc.nat(9), fc.integer({ min: -400, max: 400 })).map(([m, e]) => `${m}e${e}`),
  fc.constantFrom('9'.repeat(100_000), '1, '.repeat(34_000), '²', '½', '5\u00a0'),
  byteText,
);
const byteWaitText = fc.oneof(
  byteNumberText,
  dateText,
  fc.array(byteNumberText, { minLength: 2, maxLength: 3 }).map((values) => values.join(', ')),
);
// Plain digits of every length a parser reads (15) and one more, the long ones (times beyond a
// Date) likelier; numberText has the longer ones.
const digitsText = fc
  .oneof(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 10, max: 16 }))
  .chain((digits) => fc.bigInt({ min: 10n ** BigInt(digits - 1), max: 10n ** BigInt(digits) - 1n }))
  .map(String);
// Mostly what a parser takes, so that the family decides; else anything.
const fieldNumber = fc.oneof(
  { weight: 3, arbitrary: digitsText },
  fc.constant('0'),
  byteNumberText,
);
/** One family alone, so that no other decides: its fields from the byte space. */
const oneFamily = fc.oneof(
  fc.tuple(byteWaitText).map(([value]) => [['retry-after', value]]),
  ...(['x-ratelimit', 'ratelimit'] as const).map((family) =>
    fc
      .tuple(fieldNumber, fieldNumber, fc.oneof(digitsText, byteWaitText))
      .map(([limit, remaining, reset]) => [
        [`${family}-limit`, limit],
        [`${family}-remaining`, remaining],
        [`${family}-reset`, reset],
      ]),
  ),
  fc
    .tuple(fieldNumber, fieldNumber, fieldNumber, fc.boolean())
    .map(([limit, remaining, reset, older]) =>
      older
        ? [['ratelimit', `limit=${limit}, remaining=${remaining}, reset=${reset}`]]
        : [
            ['ratelimit', `"default";r=${remaining};t=${reset}`],
            ['ratelimit-policy', `"default";q=${limit};w=60`],
          ],
    ),
);
/** Every rate-limit family's headers, as one answer may carry them, from the byte space. */
const waitHeaders = fc
  .oneof(
    { weight: 3, arbitrary: oneFamily },
    rateLimitHeaders.map((headers) => Object.entries(headers)),
  )
  .map((all) =>
    // What fetch could not have given (a line break) is no answer at all.
    (all as [string, string][]).filter(([, value]) => !/[\r\n\0]/.test(value)),
  );
const USERS_PAGE = JSON.stringify(EMPTY_PAGE);

/** The waits a call was told of and scheduled: each finite, ≥ 0, within the cap but the timeouts. */
function expectBoundedWaits(observed: Observed<unknown>, timeout: number): void {
  for (const delay of observed.delays) {
    expect(Number.isFinite(delay) && delay >= 0).toBe(true);
    if (delay !== timeout) expect(delay).toBeLessThanOrEqual(60_000);
  }
  for (const wait of observed.waits) expect(Number.isFinite(wait) && wait >= 0).toBe(true);
}

describe('what a service says about waiting, every family from the byte space', () => {
  it('every wait is finite and at most 60 s, no timer is set for a non-finite delay, and the call settles within its timeout and retries', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(200, 408, 429, 500, 503), waitHeaders), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom('auto' as const, 'off' as const),
        fc.constantFrom(undefined, TIMEOUT),
        async (script, maxRetries, rateLimit, timeout) => {
          const answers: Answer[] = script.map(([status, headers]) => ({
            status,
            headers: [['content-type', 'application/json'], ...headers],
            body: status === 200 ? USERS_PAGE : JSON.stringify(errorBody('x', 'slow down')),
          }));
          const resets: unknown[] = [];
          // Two calls in a row, so a throttle that learned from the first governs the second.
          const observed = await observeCall(
            answers,
            { apiKey: API_KEY, maxRetries, rateLimit, timeout },
            async (client) => {
              for (let call = 0; call < 2; call++) {
                const answer = await client.users
                  .list()
                  .withResponse()
                  .catch((error: unknown) => {
                    if (!(error instanceof ApiError)) throw error;
                  });
                if (answer) resets.push(answer.rateLimit?.reset);
              }
            },
          );
          expect(observed.settled).toBe(true);
          if (observed.error !== undefined) {
            expect(observed.error).toBeInstanceOf(EmployeeRecognitionError);
          }
          const limit = timeout ?? 30_000;
          expectBoundedWaits(observed, limit);
          for (const reset of resets) {
            if (reset !== undefined) expect(Number.isFinite((reset as Date).getTime())).toBe(true);
          }
          // Each attempt may wait once for a retry and once in the queue; each within its bound.
          expect(observed.steps).toBeLessThanOrEqual(2 * (2 * (maxRetries + 1) + 1));
          expect(observed.elapsed).toBeLessThanOrEqual(2 * (maxRetries + 1) * (limit + 60_000));
        },
      ),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(150) },
    );
  });

  it('a far reset of the structured RateLimit field leaves the next call as fast as ever', async () => {
    // A 200 whose window resets in 3 million years, then the next call, with the default timeout.
    const observed = await observeCall(
      [
        {
          status: 200,
          headers: [['ratelimit', 'limit=0, remaining=0, reset=99999999999999']],
          body: USERS_PAGE,
        },
        { status: 200, body: USERS_PAGE },
      ],
      { apiKey: API_KEY },
      async (client) => {
        const { rateLimit } = await client.users.list().withResponse();
        await client.users.list();
        return rateLimit;
      },
    );
    expect(observed.settled).toBe(true);
    expect(observed.error).toBeUndefined();
    expect(observed.value).toBeUndefined();
    expect(observed.steps).toBe(0);
  });

  it('a reset beyond a Date is no wait: beforeRetry, retryAfter and rateLimit.reset stay finite', async () => {
    const far: [string, string] = ['ratelimit', '"default";t=8640000000000'];
    const retried = await observeCall(
      [
        { status: 408, headers: [far] },
        { status: 200, body: USERS_PAGE },
      ],
      { apiKey: API_KEY, maxRetries: 1 },
      (client) => client.users.list(),
    );
    expect(retried.waits).toHaveLength(1);
    expectBoundedWaits(retried, 30_000);
    expect(retried.waits[0]).toBeGreaterThan(0);
    const limited = await observeCall(
      [{ status: 429, headers: [far] }],
      { apiKey: API_KEY, maxRetries: 0 },
      (client) => client.users.list(),
    );
    expect((limited.error as { retryAfter?: number }).retryAfter).toBeUndefined();
  });
});

// A credential of no known shape (an OAuth token, an opaque key): printable ASCII, as the SDK sends.
const opaqueCredential = fc
  .string({
    unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
    minLength: 16,
    maxLength: 40,
  })
  .filter((token) => !/^rk_(?:live|test)_/i.test(token));

/** How a service echoes `echo` (a form of the credential) into an answer, one way per kind. */
type Echo = (echo: string) => Answer;
const asJson = (text: string) => JSON.stringify(text);
const echoes: Record<string, Echo> = {
  requestId: (echo) => ({ status: 200, headers: [['x-request-id', echo]], body: USERS_PAGE }),
  errorBody: (echo) => ({
    status: 503,
    headers: [['content-type', 'application/json']],
    body: `{"error":{"code":"x","message":${asJson(echo)},"details":[{"field":${asJson(echo)},"message":"m"}]}}`,
  }),
  // The service writes the JSON itself, escapes and all: the echo goes in as it is.
  rawJson: (echo) => ({
    status: 429,
    headers: [
      ['content-type', 'application/json'],
      ['x-request-id', encodeURIComponent(echo)],
    ],
    body: `{"error":{"code":"x","message":"${echo.replace(/["\\]/g, (c) => `\\${c}`)}"}}`,
  }),
  html: (echo) => ({ status: 502, body: `<html><title>${echo}</title></html>` }),
  redirectHere: (echo) => ({
    status: 301,
    headers: [['location', `/v1/users?cursor=${echo}`]],
  }),
  redirectAway: (echo) => ({
    status: 302,
    headers: [['location', `https://other.example/?k=${echo}`]],
  }),
  link: (echo) => ({
    status: 200,
    headers: [['link', `</v1/users?cursor=${echo}>; rel="next"`]],
    body: JSON.stringify({ data: [USER], pagination: { page: 1, total_pages: 2 } }),
  }),
  cursor: (echo) => ({
    status: 200,
    body: JSON.stringify({
      data: [USER],
      pagination: { page: 1, total_pages: 2, next_cursor: echo },
    }),
  }),
  deprecation: (echo) => ({
    status: 200,
    headers: [
      ['deprecation', '@1700000000'],
      ['link', `<https://docs.example/${echo}>; rel="deprecation"`],
    ],
    body: USERS_PAGE,
  }),
  badEnvelope: (echo) => ({
    status: 200,
    headers: [['x-request-id', echo]],
    // The service's own JSON, as rawJson: the echo is in the text as written (parsed or not).
    body: `{"data":"${echo}"}`,
  }),
  retryAfter: (echo) => ({ status: 429, headers: [['retry-after', echo]] }),
  network: (echo) => ({
    reject: new TypeError('fetch failed', { cause: new Error(`connect ECONNREFUSED ${echo}`) }),
  }),
};

describe('the credential in no channel', () => {
  it('a credential of any shape, echoed in any form into any answer, shows in no error, cause, hook, instrumentation or log line', async () => {
    await fc.assert(
      fc.asyncProperty(
        opaqueCredential,
        fc.array(fc.tuple(fc.constantFrom(...Object.keys(echoes)), fc.nat(10)), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.constantFrom('list' as const, 'pages' as const, 'create' as const),
        fc.boolean(),
        async (credential, script, call, asFunction) => {
          const forms = writtenForms(credential);
          const answers = script.map(([kind, form]) => echoes[kind]!(forms[form % forms.length]!));
          // Header values are bytes: a form fetch could not carry is no answer a service can send.
          const sendable = answers.filter(
            (answer) =>
              !('headers' in answer) ||
              (answer.headers ?? []).every(([, value]) => /^[\x20-\x7e]*$/.test(value)),
          );
          if (sendable.length === 0) return;
          const observed = await observeCall(
            sendable,
            {
              apiKey: asFunction ? () => credential : credential,
              maxRetries: 1,
              rateLimit: 'off',
            },
            (client): PromiseLike<unknown> =>
              call === 'create'
                ? client.recognitions.create({ recipient_id: USER.id, message: 'Thanks' })
                : call === 'pages'
                  ? client.users.list().toArray({ limit: 100 })
                  : client.users.list().withResponse(),
          );
          expect(observed.settled).toBe(true);
          for (const text of observed.texts) {
            for (const form of forms) expect(text).not.toContain(form);
          }
        },
      ),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(100) },
    );
  });

  it.each(Object.keys(echoes))(
    'echoed into %s, in every form, an API key and an opaque token show nowhere',
    async (kind) => {
      for (const credential of [API_KEY, 'ya29.Opaque/Token+"<{x}>:1\\']) {
        for (const form of writtenForms(credential)) {
          const answer = echoes[kind]!(form);
          if ('headers' in answer && !answer.headers!.every(([, v]) => /^[\x20-\x7e]*$/.test(v)))
            continue;
          const observed = await observeCall(
            [answer, { status: 200, body: USERS_PAGE }],
            { apiKey: () => credential, maxRetries: 1, rateLimit: 'off' },
            (client) => client.users.list().toArray({ limit: 100 }),
          );
          expect(observed.settled).toBe(true);
          // A location that holds the credential is not followed: no request carries it away.
          if (kind.startsWith('redirect')) expect(observed.requested).toHaveLength(1);
          for (const text of observed.texts) {
            for (const each of writtenForms(credential)) expect(text).not.toContain(each);
          }
        }
      }
    },
  );
});

// A list's answers from a service that lies: every field of the envelope of any type, deep
// nesting, JSON escapes, and Link headers to anywhere.
const jsonish = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc
    .integer({ min: 1, max: 40 })
    .map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown),
);
// Mostly small integers, so that pages lead on (or back, or below 1); else anything.
const pageNumber = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -2, max: 4 }) },
  fc.constantFrom(0, 1e308, 2 ** 53, -0, 1.5),
  jsonish,
);
// Few cursors, so that they repeat as a service's may; else anything.
const cursor = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('a', 'b', 'c', 'd') },
  fc.constant(null),
  fc.string({ unit: 'binary' }),
  jsonish,
);
const listBody = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record(
        {
          data: fc.oneof(
            { weight: 3, arbitrary: fc.array(fc.constant(USER), { minLength: 1, maxLength: 2 }) },
            jsonish,
          ),
          pagination: fc.oneof(
            {
              weight: 3,
              arbitrary: fc.record(
                {
                  page: pageNumber,
                  total_pages: pageNumber,
                  next_cursor: cursor,
                },
                { requiredKeys: [] },
              ),
            },
            jsonish,
          ),
        },
        { requiredKeys: [] },
      )
      .map((body) => JSON.stringify(body)),
  },
  jsonish.map((body) => JSON.stringify(body) ?? ''),
  fc.constant(`${'['.repeat(20_000)}${']'.repeat(20_000)}`),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
const nextLink = fc.oneof(
  fc.constantFrom(
    'https://other.example/v1/users?page=2',
    '//other.example/v1/users',
    'https://api.test.other.example/v1/users',
    'https://api.test/../../v2/users',
    'https://user:pass@api.test/v1/users',
    '/v1/users?page=2',
    '?cursor=next',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }).map((text) => `/v1/users?cursor=${text}`),
  fc.webUrl(),
);
const listAnswer = fc
  .tuple(listBody, fc.option(nextLink, { nil: undefined }))
  .map(([body, link]): Answer => {
    const headers: [string, string][] = [['content-type', 'application/json']];
    // A Link fetch could carry: its bytes as a header's.
    if (link && /^[\x20-\x7e]*$/.test(link)) headers.push(['link', `<${link}>; rel="next"`]);
    return { status: 200, headers, body };
  });

describe('a list from a service that lies', () => {
  it('a list ends, in its records or a documented error, and never leaves the base URL', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(listAnswer, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('records' as const, 'pages' as const, 'manual' as const),
        async (answers, walk) => {
          const observed = await observeCall(
            answers,
            { apiKey: API_KEY, maxRetries: 0, rateLimit: 'off' },
            async (client) => {
              if (walk === 'records') return client.users.list().toArray({ limit: 10_000 });
              if (walk === 'pages') {
                for await (const _page of client.users.list({ page: 1 }).pages()) void _page;
                return;
              }
              // Bounded here, so that a loop the SDK lets run on fails the count below.
              let page = await client.users.list();
              for (let turn = 0; turn < 200 && page.hasNextPage(); turn++) {
                page = await page.getNextPage();
              }
            },
          );
          expect(observed.settled).toBe(true);
          if (observed.error !== undefined) {
            expect(observed.error).toBeInstanceOf(EmployeeRecognitionError);
            // The service's mistake is never blamed on the caller's input.
            expect(observed.error).not.toMatchObject({ local: true });
          }
          // The last answer repeats: the list ends at its repeat, or sooner.
          expect(observed.requested.length).toBeLessThanOrEqual(answers.length + 1);
          for (const url of observed.requested) expect(url).toMatch(/^https:\/\/api\.test\//);
        },
      ),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(150) },
    );
  });
});
