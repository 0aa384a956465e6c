import { createMockApi, type MockApi } from '@employee-recognition/sdk/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, createClock } from './support.js';

let api: MockApi;
let clock: ReturnType<typeof createClock>;
let recipient: string;

beforeEach(() => {
  clock = createClock();
  api = createMockApi({ now: clock.read });
  recipient = api.store.users.all()[1]!.id;
});

const create = (key: string, body: unknown, headers: Record<string, string> = {}) =>
  call(api, 'POST', '/v1/recognitions', { body, headers: { 'idempotency-key': key, ...headers } });

describe('Idempotency-Key', () => {
  it('replays the first answer for the same key and body, without doing the work twice', async () => {
    const body = { recipient_id: recipient, message: 'Thanks!', points: 5 };
    const first = await create('key-1', body);
    clock.advance(60_000);
    const second = await create('key-1', body);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(api.store.recognitions.size).toBe(301);
  });

  it('409 conflict for the same key with another body or another route', async () => {
    await create('key-2', { recipient_id: recipient, message: 'one' });
    const conflict = await create('key-2', { recipient_id: recipient, message: 'two' });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ error: { code: 'conflict', message: expect.any(String) } });
    const elsewhere = await call(api, 'POST', '/v1/webhooks', {
      body: { recipient_id: recipient, message: 'one' },
      headers: { 'idempotency-key': 'key-2' },
    });
    expect(elsewhere.status).toBe(409);
    expect(api.store.recognitions.size).toBe(301);
  });

  it('replays failures too, and PATCH', async () => {
    const invalid = { recipient_id: recipient, message: '' };
    expect((await create('key-3', invalid)).status).toBe(422);
    const replay = await create('key-3', invalid);
    expect(replay.status).toBe(422);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    const webhook = api.store.webhooks.insert({ url: 'https://example.com' });
    const patch = (description: string) =>
      call(api, 'PATCH', `/v1/webhooks/${webhook.id}`, {
        body: { description },
        headers: { 'idempotency-key': 'patch-1' },
      });
    expect((await patch('first')).status).toBe(200);
    api.store.webhooks.update(webhook.id, { description: 'changed meanwhile' });
    const replayed = await patch('first');
    expect(replayed.body.data.description).toBe('first');
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect((await patch('second')).status).toBe(409);
  });

  it('keeps keys for 24 hours and per credential', async () => {
    const other = createMockApi({
      now: clock.read,
      keys: [{ key: 'a' }, { key: 'b' }],
    });
    const body = { recipient_id: other.store.users.all()[1]!.id, message: 'hi' };
    const send = (key: string) =>
      call(other, 'POST', '/v1/recognitions', {
        key,
        body,
        headers: { 'idempotency-key': 'shared' },
      });
    await send('a');
    expect((await send('b')).headers.get('idempotent-replayed')).toBeNull();
    expect(other.store.recognitions.size).toBe(302);
    clock.advance(24 * 3_600_000 - 1);
    expect((await send('a')).headers.get('idempotent-replayed')).toBe('true');
    clock.advance(1);
    expect((await send('a')).headers.get('idempotent-replayed')).toBeNull();
    expect(other.store.recognitions.size).toBe(303);
  });

  it('400 invalid_request for an empty key or one over 255 characters; 255 is fine', async () => {
    const body = { recipient_id: recipient, message: 'hi' };
    for (const key of ['', 'k'.repeat(256)]) {
      const reply = await create(key, body);
      expect(reply.status).toBe(400);
      expect(reply.body.error.details).toEqual([
        { field: 'Idempotency-Key', message: expect.any(String) },
      ]);
    }
    expect((await create('k'.repeat(255), body)).status).toBe(201);
  });

  it('ignores the header on GET and DELETE', async () => {
    const { id } = api.store.recognitions.all()[0]!;
    const headers = { 'idempotency-key': 'x' };
    expect((await call(api, 'GET', `/v1/recognitions/${id}`, { headers })).status).toBe(200);
    expect((await call(api, 'DELETE', `/v1/recognitions/${id}`, { headers })).status).toBe(204);
    expect((await call(api, 'DELETE', `/v1/recognitions/${id}`, { headers })).status).toBe(404);
  });
});
