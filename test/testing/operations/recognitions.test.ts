import { createMockApi, type MockApi } from '@employee-recognition/sdk/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, createClock } from '../support.js';

const NOW = '2026-11-21T12:00:00Z';
let api: MockApi;
let me: string;
let colleague: string;

beforeEach(() => {
  api = createMockApi({ now: createClock(Date.parse(NOW)).read });
  const users = api.store.users.all();
  me = users[0]!.id;
  colleague = users.find((user) => user.id !== me && user.status === 'active')!.id;
});

describe('POST /v1/recognitions', () => {
  it('creates a recognition sent by the key owner: 201 with the record', async () => {
    const reply = await call(api, 'POST', '/v1/recognitions', {
      body: { recipient_id: colleague, message: '  Thanks for the help!  ', points: 25 },
    });
    expect(reply.status).toBe(201);
    const owner = api.store.users.get(me)!;
    const recipient = api.store.users.get(colleague)!;
    expect(reply.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      sender: { id: owner.id, name: owner.name },
      recipient: { id: recipient.id, name: recipient.name },
      message: 'Thanks for the help!',
      points: 25,
      created_at: NOW,
    });
    expect(api.store.recognitions.get(reply.body.data.id)).toEqual(reply.body.data);
    expect(api.store.recognitions.size).toBe(301);
  });

  it('uses 0 points when points is absent and a key’s userId as the sender', async () => {
    const keyed = createMockApi({
      keys: [{ key: 'oauth-token-for-colleague', userId: colleague }],
    });
    const reply = await call(keyed, 'POST', '/v1/recognitions', {
      body: { recipient_id: me, message: 'Hi' },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.data.points).toBe(0);
    expect(reply.body.data.sender.id).toBe(colleague);
  });

  it.each([
    [{ message: 'x' }, 'recipient_id', 'is required'],
    [{ recipient_id: 'not-a-uuid', message: 'x' }, 'recipient_id', 'must be a UUID'],
    [{ recipient_id: 42, message: 'x' }, 'recipient_id', 'must be a UUID'],
    [
      { recipient_id: '00000000-0000-4000-8000-000000000000', message: 'x' },
      'recipient_id',
      'does not match any user',
    ],
    [{ recipient_id: 'ME', message: 'x' }, 'recipient_id', 'must not be the sender'],
    [{ recipient_id: 'COLLEAGUE' }, 'message', 'is required'],
    [{ recipient_id: 'COLLEAGUE', message: 5 }, 'message', 'must be a string'],
    [{ recipient_id: 'COLLEAGUE', message: ' \n\t ' }, 'message', 'must not be empty'],
    [{ recipient_id: 'COLLEAGUE', message: 'x'.repeat(501) }, 'message', 'at most 500'],
    [{ recipient_id: 'COLLEAGUE', message: 'x', points: -1 }, 'points', 'from 0 to 1000'],
    [{ recipient_id: 'COLLEAGUE', message: 'x', points: 1001 }, 'points', 'from 0 to 1000'],
    [{ recipient_id: 'COLLEAGUE', message: 'x', points: 1.5 }, 'points', 'from 0 to 1000'],
    [{ recipient_id: 'COLLEAGUE', message: 'x', points: '10' }, 'points', 'from 0 to 1000'],
    [{ recipient_id: 'COLLEAGUE', message: 'x', points: null }, 'points', 'from 0 to 1000'],
  ])('422 validation_error for %j naming %s', async (input, field, message) => {
    const ids: Record<string, string> = { ME: me, COLLEAGUE: colleague };
    const body = { ...input } as Record<string, unknown>;
    if (typeof body.recipient_id === 'string')
      body.recipient_id = ids[body.recipient_id] ?? body.recipient_id;
    const reply = await call(api, 'POST', '/v1/recognitions', { body });
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('validation_error');
    expect(reply.body.error.details).toEqual([
      { field, message: expect.stringContaining(message) },
    ]);
    expect(api.store.recognitions.size).toBe(300);
  });

  it('accepts the bounds: 500 characters (emoji count once), 0 and 1000 points', async () => {
    for (const [message, points] of [
      ['🎉'.repeat(500), 0],
      ['x'.repeat(500), 1000],
    ] as const) {
      const reply = await call(api, 'POST', '/v1/recognitions', {
        body: { recipient_id: colleague, message, points },
      });
      expect(reply.status).toBe(201);
    }
  });

  it('lists every invalid field at once', async () => {
    const reply = await call(api, 'POST', '/v1/recognitions', {
      body: { recipient_id: 'nope', message: '', points: -5 },
    });
    expect(reply.body.error.details.map((detail: { field: string }) => detail.field)).toEqual([
      'recipient_id',
      'message',
      'points',
    ]);
  });

  it.each([
    ['malformed JSON', '{"recipient_id":', 'not valid JSON'],
    ['an empty body', '', 'not valid JSON'],
    ['a JSON array', '[]', 'must be a JSON object'],
    ['null', 'null', 'must be a JSON object'],
  ])('400 invalid_request for %s', async (_name, body, message) => {
    const reply = await call(api, 'POST', '/v1/recognitions', { body });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toEqual({
      code: 'invalid_request',
      message: expect.stringContaining(message),
    });
  });

  it('400 invalid_request naming unknown fields', async () => {
    const reply = await call(api, 'POST', '/v1/recognitions', {
      body: { recipient_id: colleague, message: 'x', sender_id: me },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error.details).toEqual([
      { field: 'sender_id', message: 'is not a known field' },
    ]);
  });
});

describe('GET /v1/recognitions/{id} and DELETE', () => {
  it('gets one recognition as { data }', async () => {
    const recognition = api.store.recognitions.all()[10]!;
    const reply = await call(api, 'GET', `/v1/recognitions/${recognition.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ data: recognition });
  });

  it('deletes with 204 and no body, then 404', async () => {
    const { id } = api.store.recognitions.all()[0]!;
    const deleted = await api.fetch(`/v1/recognitions/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${api.testKey}` },
    });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect(deleted.headers.get('content-type')).toBeNull();
    expect(api.store.recognitions.get(id)).toBeUndefined();
    for (const method of ['GET', 'DELETE']) {
      const reply = await call(api, method, `/v1/recognitions/${id}`);
      expect(reply.status).toBe(404);
      expect(reply.body.error).toEqual({
        code: 'not_found',
        message: `No recognition with id ${id}.`,
      });
    }
  });

  it('404 for an id that is not a UUID', async () => {
    expect((await call(api, 'GET', '/v1/recognitions/nope')).status).toBe(404);
  });
});

describe('GET /v1/recognitions', () => {
  it('lists newest first, 20 per page by default', async () => {
    const reply = await call(api, 'GET', '/v1/recognitions');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toHaveLength(20);
    expect(reply.body.pagination).toEqual({
      page: 1,
      total_pages: 15,
      next_cursor: expect.any(String),
    });
    const times = reply.body.data.map(
      (recognition: { created_at: string }) => recognition.created_at,
    );
    expect(times).toEqual([...times].sort().reverse());
    const newest = api.store.recognitions
      .all()
      .map((recognition) => recognition.created_at)
      .sort()
      .at(-1);
    expect(times[0]).toBe(newest);
  });

  it('puts a new recognition first, even when created in the same second as another', async () => {
    const first = await call(api, 'POST', '/v1/recognitions', {
      body: { recipient_id: colleague, message: 'one' },
    });
    const second = await call(api, 'POST', '/v1/recognitions', {
      body: { recipient_id: colleague, message: 'two' },
    });
    const list = await call(api, 'GET', '/v1/recognitions?limit=2');
    expect(list.body.data.map((recognition: { id: string }) => recognition.id)).toEqual([
      second.body.data.id,
      first.body.data.id,
    ]);
  });

  it('filters by sender, recipient and an inclusive date or date-time range', async () => {
    const all = api.store.recognitions.all();
    const { sender, recipient } = all[0]!;
    const everything = async (query: string) => {
      const reply = await call(api, 'GET', `/v1/recognitions?limit=100&${query}`);
      expect(reply.status).toBe(200);
      return reply.body.data as typeof all;
    };
    const bySender = await everything(`sender_id=${sender.id}`);
    expect(bySender.length).toBe(all.filter((r) => r.sender.id === sender.id).length);
    expect(bySender.every((r) => r.sender.id === sender.id)).toBe(true);
    const byBoth = await everything(`sender_id=${sender.id}&recipient_id=${recipient.id}`);
    expect(byBoth.length).toBe(
      all.filter((r) => r.sender.id === sender.id && r.recipient.id === recipient.id).length,
    );
    expect(byBoth.length).toBeGreaterThan(0);

    const day = all[0]!.created_at.slice(0, 10);
    const onDay = await everything(`from=${day}&to=${day}`);
    expect(onDay.length).toBe(all.filter((r) => r.created_at.startsWith(day)).length);
    expect(onDay.length).toBeGreaterThan(0);
    const instant = all[0]!.created_at;
    const exact = await everything(`from=${instant}&to=${encodeURIComponent(instant)}`);
    expect(exact.map((r) => r.id)).toContain(all[0]!.id);
    expect(exact.every((r) => r.created_at === instant)).toBe(true);
    const offset = await everything(`from=${encodeURIComponent('2026-11-21T13:00:00+02:00')}`);
    expect(offset.every((r) => r.created_at >= '2026-11-21T11:00:00Z')).toBe(true);
  });

  it('applies filters in page mode and cursor mode alike', async () => {
    const { sender } = api.store.recognitions.all()[0]!;
    const total = api.store.recognitions.all().filter((r) => r.sender.id === sender.id).length;
    const paged = await call(api, 'GET', `/v1/recognitions?page=1&limit=2&sender_id=${sender.id}`);
    expect(paged.body.pagination.total_pages).toBe(Math.ceil(total / 2));
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const query: string = cursor ? `&cursor=${cursor}` : '';
      const reply = await call(
        api,
        'GET',
        `/v1/recognitions?limit=2&sender_id=${sender.id}${query}`,
      );
      seen.push(...reply.body.data.map((r: { sender: { id: string } }) => r.sender.id));
      cursor = reply.body.pagination.next_cursor;
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen)).toEqual(new Set([sender.id]));
  });

  it.each([
    ['from=yesterday', 'from'],
    ['to=2026-02-30', 'to'],
    ['from=2026-11-21T25:00:00Z', 'from'],
    ['from=2026-11-21T10:00:00', 'from'],
    ['sender_id=bob', 'sender_id'],
    ['recipient_id=123', 'recipient_id'],
  ])('400 invalid_request for %s naming %s', async (query, field) => {
    const reply = await call(api, 'GET', `/v1/recognitions?${query}`);
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('invalid_request');
    expect(reply.body.error.details).toEqual([{ field, message: expect.any(String) }]);
  });
});
