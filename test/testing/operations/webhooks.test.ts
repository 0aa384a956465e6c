import { createMockApi, type MockApi } from '@employee-recognition/sdk/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { call } from '../support.js';

const NOW = '2026-11-21T12:00:00Z';
let api: MockApi;

beforeEach(() => {
  api = createMockApi({ now: () => Date.parse(NOW) });
});

const create = (body: unknown) => call(api, 'POST', '/v1/webhooks', { body });

describe('POST /v1/webhooks', () => {
  it('creates a webhook: 201 with its secret, which no other answer shows', async () => {
    const reply = await create({
      url: 'https://example.com/hooks',
      events: ['recognition.created', 'recognition.deleted'],
      description: 'Slack bridge',
    });
    expect(reply.status).toBe(201);
    expect(reply.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: 'https://example.com/hooks',
      events: ['recognition.created', 'recognition.deleted'],
      description: 'Slack bridge',
      enabled: true,
      created_at: NOW,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const { secret, ...shown } = reply.body.data;
    expect(api.store.webhooks.get(shown.id)?.secret).toBe(secret);
    expect((await call(api, 'GET', `/v1/webhooks/${shown.id}`)).body).toEqual({ data: shown });
    expect((await call(api, 'GET', '/v1/webhooks')).body).toEqual({ data: [shown] });
  });

  it('defaults description to null and accepts ["*"] and loopback http for local receivers', async () => {
    for (const url of [
      'http://127.0.0.1:3000/hook',
      'http://127.45.6.7/hook',
      'http://127.255.255.254:9/',
      'http://localhost/hook',
      'http://[::1]:8080/',
    ]) {
      const reply = await create({ url, events: ['*'] });
      expect(reply.status).toBe(201);
      expect(reply.body.data).toMatchObject({ url, events: ['*'], description: null });
    }
  });

  it.each([
    [{ events: ['*'] }, 'url', 'is required'],
    [{ url: 'http://example.com/hook', events: ['*'] }, 'url', 'https'],
    [{ url: 'http://localhost.example.com/hook', events: ['*'] }, 'url', 'http only on localhost'],
    [{ url: 'http://10.0.0.1/hook', events: ['*'] }, 'url', '127.0.0.0/8'],
    [{ url: 'http://128.0.0.1/hook', events: ['*'] }, 'url', 'https'],
    [{ url: 'http://[::2]/hook', events: ['*'] }, 'url', 'https'],
    [{ url: 'ftp://127.0.0.1/hook', events: ['*'] }, 'url', 'https'],
    [{ url: 'not a url', events: ['*'] }, 'url', 'https'],
    [{ url: 42, events: ['*'] }, 'url', 'https'],
    [{ url: 'https://example.com' }, 'events', 'is required'],
    [{ url: 'https://example.com', events: [] }, 'events', 'non-empty'],
    [{ url: 'https://example.com', events: 'recognition.created' }, 'events', 'non-empty'],
    [
      { url: 'https://example.com', events: ['recognition.exploded'] },
      'events',
      '"recognition.exploded"',
    ],
    [{ url: 'https://example.com', events: ['*', 'user.created'] }, 'events', 'only entry'],
    [
      { url: 'https://example.com', events: ['*'], description: 5 },
      'description',
      'string or null',
    ],
  ])('422 validation_error for %j naming %s', async (body, field, message) => {
    const reply = await create(body);
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('validation_error');
    expect(reply.body.error.details).toEqual([
      { field, message: expect.stringContaining(message) },
    ]);
    expect(api.store.webhooks.size).toBe(0);
  });

  it('400 invalid_request for unknown fields and malformed JSON', async () => {
    const unknown = await create({ url: 'https://example.com', events: ['*'], secret: 'whsec_x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([
      { field: 'secret', message: 'is not a known field' },
    ]);
    expect((await create('{')).status).toBe(400);
  });
});

describe('PATCH /v1/webhooks/{id}', () => {
  it('updates any subset of fields plus enabled, keeping the rest', async () => {
    const { id } = (await create({ url: 'https://example.com/a', events: ['*'] })).body.data;
    const reply = await call(api, 'PATCH', `/v1/webhooks/${id}`, {
      body: { enabled: false, events: ['user.created', 'user.created'] },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({
      id,
      url: 'https://example.com/a',
      events: ['user.created'],
      description: null,
      enabled: false,
      created_at: NOW,
    });
    const again = await call(api, 'PATCH', `/v1/webhooks/${id}`, {
      body: { url: 'https://example.com/b', description: 'x' },
    });
    expect(again.body.data).toMatchObject({
      url: 'https://example.com/b',
      description: 'x',
      enabled: false,
    });
    expect((await call(api, 'PATCH', `/v1/webhooks/${id}`, { body: {} })).body.data).toEqual(
      again.body.data,
    );
  });

  it('422 for invalid values, 400 for unknown fields, 404 for an unknown webhook', async () => {
    const { id } = (await create({ url: 'https://example.com/a', events: ['*'] })).body.data;
    const invalid = await call(api, 'PATCH', `/v1/webhooks/${id}`, {
      body: { enabled: 'yes', url: 'ftp://example.com' },
    });
    expect(invalid.status).toBe(422);
    expect(
      invalid.body.error.details.map((detail: { field: string }) => detail.field).sort(),
    ).toEqual(['enabled', 'url']);
    const unknown = await call(api, 'PATCH', `/v1/webhooks/${id}`, { body: { secret: 'x' } });
    expect(unknown.status).toBe(400);
    const missing = await call(api, 'PATCH', '/v1/webhooks/00000000-0000-4000-8000-000000000000', {
      body: { enabled: false },
    });
    expect(missing.status).toBe(404);
  });
});

describe('DELETE /v1/webhooks/{id}', () => {
  it('deletes with 204, then 404', async () => {
    const { id } = (await create({ url: 'https://example.com/a', events: ['*'] })).body.data;
    const reply = await call(api, 'DELETE', `/v1/webhooks/${id}`);
    expect(reply.status).toBe(204);
    expect(reply.body).toBeUndefined();
    expect(api.store.webhooks.size).toBe(0);
    expect((await call(api, 'DELETE', `/v1/webhooks/${id}`)).status).toBe(404);
    expect((await call(api, 'GET', `/v1/webhooks/${id}`)).status).toBe(404);
  });
});
