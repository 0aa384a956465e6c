import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  InvalidResponseError,
  Page,
  type Recognition,
  type RecognitionCreateParams,
  type RecognitionListParams,
  type RecognitionParticipant,
} from '../../src/index.js';
import {
  CREATED_AT,
  expectLocalBadRequest,
  expectLocalValidationError,
  json,
  pageBody,
  queryOf,
  records,
  TEST_API_KEY,
  TEST_BASE_URL,
  testClient,
  UUID,
  useMockServer,
  warnLogger,
} from './support.js';

const { server, requests } = useMockServer();
const client = testClient();
const COLLECTION = `${TEST_BASE_URL}/v1/recognitions`;
const ITEM = `${COLLECTION}/:id`;
const validCreate = { recipient_id: UUID.bob, message: 'Great demo!', points: 25 };

describe('recognitions.list', () => {
  it('sends GET /v1/recognitions with paging and filters as the query and resolves to the first page', async () => {
    const pagination = { page: 1, total_pages: 3, next_cursor: 'c2' };
    server.use(http.get(COLLECTION, () => json(pageBody([records.recognition()], pagination))));

    const page = await client.recognitions.list({
      limit: 50,
      from: new Date('2026-11-01T00:00:00Z'),
      to: '2026-11-30',
      sender_id: UUID.alice,
      recipient_id: UUID.bob,
    });

    expect(page).toBeInstanceOf(Page);
    expect(page.data).toEqual([records.recognition()]);
    expect(page.pagination).toEqual(pagination);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.method).toBe('GET');
    expect(request?.rawPath).toBe('/v1/recognitions');
    expect(queryOf(request)).toEqual({
      limit: '50',
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-30',
      sender_id: UUID.alice,
      recipient_id: UUID.bob,
    });
    expect(request?.headers.get('authorization')).toBe(`Bearer ${TEST_API_KEY}`);
    expect(request?.headers.get('accept')).toBe('application/json');
    expect(request?.headers.get('idempotency-key')).toBeNull();
  });

  it('sends no query when called without params', async () => {
    server.use(http.get(COLLECTION, () => json(pageBody([], { page: 1, total_pages: 0 }))));
    await client.recognitions.list();
    expect(requests[0]?.url.search).toBe('');
  });

  it('takes null params, and null fields, as absent', async () => {
    server.use(http.get(COLLECTION, () => json(pageBody([], { page: 1, total_pages: 0 }))));
    await client.recognitions.list(null);
    await client.recognitions.list({ from: null, sender_id: null, limit: 5 } as never);
    expect(requests.map((request) => request.url.search)).toEqual(['', '?limit=5']);
  });

  it('sends from/to strings as given: a date-time with Z or with an offset', async () => {
    server.use(http.get(COLLECTION, () => json(pageBody([], { page: 1, total_pages: 0 }))));
    await client.recognitions.list({ from: '2026-11-01T08:00:00+02:00', to: CREATED_AT });
    expect(queryOf(requests[0])).toEqual({ from: '2026-11-01T08:00:00+02:00', to: CREATED_AT });
  });

  it.each<[string, Record<string, unknown>, string[], string]>([
    ['limit 0', { limit: 0 }, ['limit'], 'limit: must be at least 1'],
    ['limit 101', { limit: 101 }, ['limit'], 'limit: must be at most 100'],
    ['a fractional limit', { limit: 2.5 }, ['limit'], 'limit: must be an integer'],
    ['page 0', { page: 0 }, ['page'], 'page: must be at least 1'],
    ['a string page', { page: '2' }, ['page'], 'page: must be a number'],
    ['an empty cursor', { cursor: '' }, ['cursor'], 'cursor: must have at least 1 character'],
    ['from in words', { from: 'yesterday' }, ['from'], 'from: must be a Date or an ISO 8601'],
    ['to with month 13', { to: '2026-13-01' }, ['to'], 'to: must be a Date or an ISO 8601'],
    ['an Invalid Date', { from: new Date(Number.NaN) }, ['from'], 'from: must be a Date'],
    ['a timestamp number', { to: 1_700_000_000 }, ['to'], 'to: must be a Date'],
    ['a non-UUID sender_id', { sender_id: 'alice' }, ['sender_id'], 'sender_id: must be a UUID'],
    [
      'a truncated recipient_id',
      { recipient_id: UUID.bob.slice(0, -1) },
      ['recipient_id'],
      'recipient_id: must be a UUID',
    ],
    [
      'a misspelled parameter',
      { sender: UUID.alice },
      ['sender'],
      'sender: is not a parameter of this operation',
    ],
    [
      'several problems at once',
      { limit: 0, sender_id: 'x' },
      ['limit', 'sender_id'],
      'limit: must be at least 1; sender_id: must be a UUID',
    ],
  ])(
    'rejects %s locally as the 400 the service would answer, sending nothing',
    async (_case, params, fields, message) => {
      const error = await expectLocalBadRequest(
        client.recognitions.list(params as RecognitionListParams),
        fields,
      );
      expect(error.message).toContain(message);
      expect(requests).toHaveLength(0);
    },
  );
});

describe('recognitions.get', () => {
  it('sends GET /v1/recognitions/{id} and resolves to { data: recognition }', async () => {
    server.use(http.get(ITEM, () => json({ data: records.recognition() })));
    const result = await client.recognitions.get(UUID.record);
    expect(result).toEqual({ data: records.recognition() });
    expect(requests).toMatchObject([{ method: 'GET', rawPath: `/v1/recognitions/${UUID.record}` }]);
  });

  it('keeps fields the contract does not list, on the record and on its sender', async () => {
    const recognition = records.recognition({
      mood: 'grateful',
      sender: { id: UUID.alice, name: 'Alice', avatar_url: 'https://cdn.example.com/a.png' },
    });
    server.use(http.get(ITEM, () => json({ data: recognition, meta: { cached: true } })));
    const result = await client.recognitions.get(UUID.record);
    const { data } = result;
    // A field this SDK does not declare is read through a cast that names it.
    expect((data as Recognition & { mood?: string }).mood).toBe('grateful');
    const sender = data.sender as RecognitionParticipant & { avatar_url?: string };
    expect(sender.avatar_url).toBe('https://cdn.example.com/a.png');
    expect(result).toEqual({ data: recognition, meta: { cached: true } });
  });

  it.each<[string, () => Response, string]>([
    [
      'a field of the wrong type',
      () => json({ data: records.recognition({ points: '10' }) }),
      'data.points must be a number',
    ],
    ['a missing data', () => json({ recognition: records.recognition() }), 'data is required'],
    [
      'a nested field missing',
      () => json({ data: records.recognition({ recipient: { id: UUID.bob } }) }),
      'data.recipient.name is required',
    ],
    ['a 200 that is not JSON', () => new HttpResponse('<html>OK</html>'), '(body) must be JSON'],
  ])(
    'rejects %s with an InvalidResponseError naming the path (strict)',
    async (_case, reply, issue) => {
      server.use(http.get(ITEM, reply));
      const error = await client.recognitions.get(UUID.record).then(
        () => expect.fail('expected an InvalidResponseError'),
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect((error as InvalidResponseError).status).toBe(200);
      expect((error as Error).message).toContain(`GET /v1/recognitions/${UUID.record}`);
      expect((error as Error).message).toContain(issue);
    },
  );
});

describe("recognitions.get under validateResponses 'warn', the default", () => {
  it('returns a record that differs from the assumptions as received, and warns once per field', async () => {
    const { logger, warnings } = warnLogger();
    const tolerant = testClient({ validateResponses: undefined, logger });
    const { created_at: _createdAt, ...recognition } = records.recognition({ points: '10' });
    server.use(http.get(ITEM, () => json({ data: recognition })));

    await expect(tolerant.recognitions.get(UUID.record)).resolves.toEqual({ data: recognition });
    await tolerant.recognitions.get(UUID.alice);

    expect(warnings).toEqual([
      expect.stringContaining(
        `GET /v1/recognitions/${UUID.record}: data.points is a string, but the SDK assumes it must be a number (contract §3). The record is returned as received.`,
      ),
      expect.stringContaining(
        `GET /v1/recognitions/${UUID.record}: data.created_at is missing, but the SDK assumes it is required (contract §3). The record is returned as received.`,
      ),
    ]);
  });

  it('still rejects an answer without the record id, which the envelope needs', async () => {
    const tolerant = testClient({ validateResponses: 'warn', logger: warnLogger().logger });
    server.use(http.get(ITEM, () => json({ data: records.recognition({ id: undefined }) })));
    await expect(tolerant.recognitions.get(UUID.record)).rejects.toThrow(InvalidResponseError);
  });
});

describe('recognitions.create', () => {
  it('sends POST /v1/recognitions with the params as JSON and an Idempotency-Key, and resolves to { data: recognition }', async () => {
    server.use(http.post(COLLECTION, () => json({ data: records.recognition() }, 201)));

    const result = await client.recognitions.create(validCreate);

    expect(result).toEqual({ data: records.recognition() });
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.rawPath).toBe('/v1/recognitions');
    expect(await request?.body).toEqual(validCreate);
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(request?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends the Idempotency-Key given in the options', async () => {
    server.use(http.post(COLLECTION, () => json({ data: records.recognition() }, 201)));
    await client.recognitions.create(validCreate, { idempotencyKey: 'thanks-bob-2026-11-21' });
    expect(requests[0]?.headers.get('idempotency-key')).toBe('thanks-bob-2026-11-21');
  });

  it('sends the message untrimmed, accepts 500 characters between spaces, and omits absent points', async () => {
    server.use(http.post(COLLECTION, () => json({ data: records.recognition() }, 201)));
    const message = `  ${'x'.repeat(500)}\n`;
    await client.recognitions.create({ recipient_id: UUID.bob, message });
    expect(await requests[0]?.body).toEqual({ recipient_id: UUID.bob, message });
  });

  it('omits null points, so the service uses 0', async () => {
    server.use(http.post(COLLECTION, () => json({ data: records.recognition() }, 201)));
    await client.recognitions.create({ recipient_id: UUID.bob, message: 'Hi', points: null });
    expect(await requests[0]?.body).toEqual({ recipient_id: UUID.bob, message: 'Hi' });
  });

  it.each(['warn', 'strict'] as const)(
    "under validateResponses '%s', resolves when the answer lacks an assumed field, and warns once",
    async (mode) => {
      const { logger, warnings } = warnLogger();
      const writer = testClient({ validateResponses: mode, logger });
      const { created_at: _createdAt, ...created } = records.recognition();
      server.use(http.post(COLLECTION, () => json({ data: created }, 201)));

      await expect(writer.recognitions.create(validCreate)).resolves.toEqual({ data: created });
      await writer.recognitions.create(validCreate);

      expect(requests).toHaveLength(2);
      expect(warnings).toEqual([
        expect.stringContaining(
          'POST /v1/recognitions: data.created_at is missing, but the SDK assumes it is required (contract §3). The write succeeded, so the call resolves with the body as received; do not repeat it.',
        ),
      ]);
    },
  );

  it('resolves with the body as received when the answer has no data at all, even strict', async () => {
    const { logger, warnings } = warnLogger();
    const writer = testClient({ validateResponses: 'strict', logger });
    server.use(http.post(COLLECTION, () => json({ recognition: records.recognition() }, 201)));

    const result: unknown = await writer.recognitions.create(validCreate);

    expect(result).toEqual({ recognition: records.recognition() });
    expect(warnings).toEqual([expect.stringContaining('POST /v1/recognitions: data is missing')]);
  });

  it.each([0, 1000])('accepts %i points, the ends of the range', async (points) => {
    server.use(http.post(COLLECTION, () => json({ data: records.recognition({ points }) }, 201)));
    const result = await client.recognitions.create({ ...validCreate, points });
    expect(result.data.points).toBe(points);
  });

  it.each<[string, Record<string, unknown>, string[], string]>([
    [
      'a malformed recipient_id',
      { ...validCreate, recipient_id: 'bob' },
      ['recipient_id'],
      'recipient_id: must be a UUID',
    ],
    [
      'a missing recipient_id',
      { message: 'Hi', points: 1 },
      ['recipient_id'],
      'recipient_id: is required',
    ],
    [
      'an empty message',
      { ...validCreate, message: '' },
      ['message'],
      'message: must not be empty or only whitespace',
    ],
    [
      'a whitespace-only message',
      { ...validCreate, message: ' \n\t ' },
      ['message'],
      'message: must not be empty or only whitespace',
    ],
    [
      'a message of 501 characters',
      { ...validCreate, message: 'x'.repeat(501) },
      ['message'],
      'message: must have at most 500 characters after trimming',
    ],
    [
      'a message that is not a string',
      { ...validCreate, message: 42 },
      ['message'],
      'message: must be a string',
    ],
    [
      'fractional points',
      { ...validCreate, points: 1.5 },
      ['points'],
      'points: must be an integer',
    ],
    [
      'points as a string',
      { ...validCreate, points: '10' },
      ['points'],
      'points: must be a number',
    ],
    ['negative points', { ...validCreate, points: -1 }, ['points'], 'points: must be at least 0'],
    ['1001 points', { ...validCreate, points: 1001 }, ['points'], 'points: must be at most 1000'],
    [
      'an unknown parameter',
      { ...validCreate, sender_id: UUID.alice },
      ['sender_id'],
      'sender_id: is not a parameter of this operation',
    ],
  ])('rejects %s locally, sending nothing', async (_case, params, fields, message) => {
    const error = await expectLocalValidationError(
      client.recognitions.create(params as unknown as RecognitionCreateParams),
      fields,
    );
    expect(error.message).toContain(message);
    expect(requests).toHaveLength(0);
  });
});

describe('recognitions.delete', () => {
  it('sends DELETE /v1/recognitions/{id} and resolves to undefined on 204', async () => {
    server.use(http.delete(ITEM, () => new HttpResponse(null, { status: 204 })));
    await expect(client.recognitions.delete(UUID.record)).resolves.toBeUndefined();
    expect(requests).toMatchObject([
      { method: 'DELETE', rawPath: `/v1/recognitions/${UUID.record}` },
    ]);
    expect(requests[0]?.headers.get('idempotency-key')).toBeNull();
  });
});
