/**
 * Property tests over every input the SDK accepts: whatever a caller passes, a method ends in a
 * result or a local validation error naming fields (422 for bodies, 400 for queries) — never a
 * TypeError or another crash — and
 * no id, however odd, can change the path a request goes to.
 */
import fc from 'fast-check';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../src/contract.js';
import { BadRequestError, Client, UnprocessableEntityError } from '../../src/index.js';
import { FUZZ_SEED, fuzzRuns } from '../support/fuzz.js';

const BASE_URL = 'http://api.test';
const received: URL[] = [];
const RECOGNITION = {
  id: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
  sender: { id: '1f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f', name: 'Ada Lovelace' },
  recipient: { id: '2f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f', name: 'Alan Turing' },
  message: 'Thanks',
  points: 10,
  created_at: '2026-11-21T09:30:00Z',
};
const WEBHOOK = {
  id: '3f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
  url: 'https://hooks.example/recognition',
  events: ['*'],
  description: null,
  enabled: true,
  created_at: '2026-11-21T09:30:00Z',
  secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0',
};
const SUMMARY = {
  period: '30d',
  total_recognitions: 120,
  participation_rate: 64.5,
  total_points: 2400,
};
const PAGE = { data: [RECOGNITION], pagination: { page: 1, total_pages: 1, next_cursor: null } };

const server = setupServer(
  http.all(`${BASE_URL}/*`, ({ request }) => {
    const url = new URL(request.url);
    received.push(url);
    if (request.method === 'DELETE') return new HttpResponse(null, { status: 204 });
    if (url.pathname.startsWith('/v1/webhooks')) return HttpResponse.json({ data: WEBHOOK });
    if (url.pathname === '/v1/analytics/summary') return HttpResponse.json({ data: SUMMARY });
    if (request.method === 'GET' && url.pathname === '/v1/recognitions')
      return HttpResponse.json(PAGE);
    return HttpResponse.json({ data: RECOGNITION });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const client = new Client({
  apiKey: `rk_test_${'Pr0perty'.repeat(4)}`,
  baseUrl: BASE_URL,
  maxRetries: 0,
});

/**
 * The call either succeeds or fails with the SDK's own validation error naming fields: 422 for a
 * body, 400 for a query, as the service would answer.
 */
async function endsWellOrInvalid(call: () => PromiseLike<unknown>): Promise<boolean> {
  try {
    await call();
    return true;
  } catch (error) {
    if (!(error instanceof UnprocessableEntityError || error instanceof BadRequestError))
      throw error;
    expect(error.local).toBe(true);
    expect(error.details?.length).toBeGreaterThan(0);
    return true;
  }
}

/** Anything a caller could pass where an object is expected: the right keys with any values, or junk. */
function loose<T extends Record<string, fc.Arbitrary<unknown>>>(fields: T) {
  return fc.oneof(
    fc.record(fields, { requiredKeys: [] }),
    fc.dictionary(fc.string(), fc.anything()),
    fc.anything(),
  );
}

const anyValue = fc.anything();
// Strings from the whole byte space (any code point, lone surrogates and control characters
// included), beside the forms a caller most often passes.
const plausibleString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) }),
  fc.uuid(),
  fc.constantFrom('', ' ', '..', 'https://x.test', '\uD800', 'a\u0000b', 'x'.repeat(100_000)),
);

describe('every input ends in a result or a local validation error', () => {
  it('recognitions.create', async () => {
    await fc.assert(
      fc.asyncProperty(
        loose({
          recipient_id: fc.oneof(fc.uuid(), anyValue),
          message: fc.oneof(plausibleString, anyValue),
          points: fc.oneof(fc.integer(), fc.double(), anyValue),
        }),
        (params) => endsWellOrInvalid(() => client.recognitions.create(params as never)),
      ),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(300) },
    );
  });

  it('recognitions.list', async () => {
    await fc.assert(
      fc.asyncProperty(
        loose({
          page: fc.oneof(fc.integer(), anyValue),
          limit: fc.oneof(fc.integer({ min: -5, max: 200 }), anyValue),
          cursor: plausibleString,
          from: fc.oneof(fc.date(), plausibleString, anyValue),
          to: fc.oneof(fc.date(), fc.constant('2026-11-30'), anyValue),
          sender_id: fc.oneof(fc.uuid(), anyValue),
          recipient_id: fc.oneof(fc.uuid(), anyValue),
        }),
        (params) => endsWellOrInvalid(() => client.recognitions.list(params as never)),
      ),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(300) },
    );
  });

  it('webhooks.create and webhooks.update', async () => {
    const events = fc.oneof(
      fc.subarray([...WEBHOOK_EVENT_TYPES]),
      fc.constant(['*']),
      fc.array(fc.oneof(fc.string(), anyValue)),
      anyValue,
    );
    const fields = {
      url: fc.oneof(fc.webUrl(), plausibleString, anyValue),
      events,
      description: fc.oneof(fc.string(), anyValue),
      enabled: fc.oneof(fc.boolean(), anyValue),
    };
    await fc.assert(
      fc.asyncProperty(loose(fields), fc.oneof(fc.uuid(), plausibleString), async (params, id) => {
        await endsWellOrInvalid(() => client.webhooks.create(params as never));
        return endsWellOrInvalid(() => client.webhooks.update(id, params as never));
      }),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(300) },
    );
  });

  it('analytics.summary', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.stringMatching(/^\d{1,4}d$/), anyValue), (period) =>
        endsWellOrInvalid(() => client.analytics.summary(period as never)),
      ),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(200) },
    );
  });
});

describe('ids cannot change the path', () => {
  const oddIds = fc.oneof(
    fc.string({ unit: 'grapheme' }),
    fc.string({
      unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    }),
    fc.string({ unit: fc.constantFrom('/', '.', '%', '?', '#', '\\', 'a', 'é', '😀', ' ') }),
    fc.constantFrom('..', '.', '../users', '%2e%2e', '..%2f', 'a/../../b', '?admin=1', '#frag'),
  );

  it('every id lands as one encoded segment of its own resource path, or is refused locally', async () => {
    await fc.assert(
      fc.asyncProperty(oddIds, async (id) => {
        received.length = 0;
        try {
          await client.recognitions.delete(id);
        } catch (error) {
          expect(error).toBeInstanceOf(UnprocessableEntityError);
          expect(received).toHaveLength(0);
          return;
        }
        expect(received).toHaveLength(1);
        const url = received[0]!;
        const segments = url.pathname.split('/');
        expect(segments.slice(0, 3)).toEqual(['', 'v1', 'recognitions']);
        expect(segments).toHaveLength(4);
        expect(decodeURIComponent(segments[3]!)).toBe(id);
        expect(url.search).toBe('');
        expect(url.hash).toBe('');
      }),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(500) },
    );
  });
});
