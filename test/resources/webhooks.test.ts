import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../src/contract.js';
import type { WebhookCreateParams, WebhookUpdateParams } from '../../src/index.js';
import {
  expectLocalValidationError,
  json,
  records,
  TEST_BASE_URL,
  testClient,
  UUID,
  useMockServer,
  warnLogger,
} from './support.js';

const { server, requests } = useMockServer();
const client = testClient();
const COLLECTION = `${TEST_BASE_URL}/v1/webhooks`;
const ITEM = `${COLLECTION}/:id`;
const validCreate: WebhookCreateParams = {
  url: 'https://hooks.example.com/recognition',
  events: ['recognition.created', 'recognition.deleted'],
  description: 'Slack relay',
};
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('webhooks.list', () => {
  it('sends GET /v1/webhooks without paging and resolves to { data: webhooks }', async () => {
    const data = [records.webhook(), records.webhook({ id: UUID.alice, events: ['*'] })];
    server.use(http.get(COLLECTION, () => json({ data })));
    const result = await client.webhooks.list();
    expect(result).toEqual({ data });
    expect(requests).toMatchObject([{ method: 'GET', rawPath: '/v1/webhooks' }]);
    expect(requests[0]?.url.search).toBe('');
  });

  it('keeps event types added after this SDK, and unknown fields', async () => {
    const { logger, warnings } = warnLogger();
    const webhook = records.webhook({ events: ['kudos.boosted'], last_delivery_at: null });
    server.use(http.get(COLLECTION, () => json({ data: [webhook] })));
    const result = await testClient({ logger }).webhooks.list();
    expect(result.data).toEqual([webhook]);
    expect(warnings).toEqual([
      expect.stringContaining('GET /v1/webhooks: data.0.events.0 is "kudos.boosted"'),
    ]);
  });
});

describe('webhooks.get', () => {
  it('sends GET /v1/webhooks/{id} and resolves to { data: webhook }', async () => {
    server.use(http.get(ITEM, () => json({ data: records.webhook() })));
    const result = await client.webhooks.get(UUID.record);
    expect(result).toEqual({ data: records.webhook() });
    expect(requests).toMatchObject([{ method: 'GET', rawPath: `/v1/webhooks/${UUID.record}` }]);
  });
});

describe('webhooks.create', () => {
  it('sends POST /v1/webhooks with the params as JSON and an Idempotency-Key, and resolves to the webhook with its secret', async () => {
    const created = records.webhook({ ...validCreate, secret: SECRET });
    server.use(http.post(COLLECTION, () => json({ data: created }, 201)));

    const result = await client.webhooks.create(validCreate);

    expect(result).toEqual({ data: created });
    expect(result.data.secret).toBe(SECRET);
    const [request] = requests;
    expect(request).toMatchObject({ method: 'POST', rawPath: '/v1/webhooks' });
    expect(await request?.body).toEqual(validCreate);
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(request?.headers.get('idempotency-key')).toBeTruthy();
  });

  it.each<[string, WebhookCreateParams['events']]>([
    ['["*"]', ['*']],
    ['every known event type', WEBHOOK_EVENT_TYPES],
  ])('accepts events %s', async (_case, events) => {
    server.use(
      http.post(COLLECTION, () => json({ data: records.webhook({ secret: SECRET }) }, 201)),
    );
    await client.webhooks.create({ url: validCreate.url, events });
    expect(await requests[0]?.body).toEqual({ url: validCreate.url, events: [...events] });
  });

  it.each([
    'http://localhost:3000/hooks',
    'http://LOCALHOST/hooks',
    'http://127.0.0.1:3000/hooks',
    'http://127.42.0.9/hooks',
    'http://[::1]:8080/hooks',
  ])('accepts the http URL of a local receiver, %s', async (url) => {
    server.use(
      http.post(COLLECTION, () => json({ data: records.webhook({ url, secret: SECRET }) }, 201)),
    );
    await client.webhooks.create({ url, events: ['*'] });
    expect(await requests[0]?.body).toEqual({ url, events: ['*'] });
  });

  it('sends an event type added after this SDK as given: the service decides whether it has it', async () => {
    server.use(
      http.post(COLLECTION, () => json({ data: records.webhook({ secret: SECRET }) }, 201)),
    );
    await client.webhooks.create({ url: validCreate.url, events: ['kudos.boosted'] });
    expect(await requests[0]?.body).toEqual({ url: validCreate.url, events: ['kudos.boosted'] });
  });

  it('resolves, and warns, when the answer lacks the secret: the webhook was registered', async () => {
    const { logger, warnings } = warnLogger();
    const strict = testClient({ logger });
    server.use(http.post(COLLECTION, () => json({ data: records.webhook() }, 201)));
    await expect(strict.webhooks.create(validCreate)).resolves.toEqual({ data: records.webhook() });
    expect(warnings).toEqual([
      expect.stringContaining('POST /v1/webhooks: data.secret is missing, but the SDK assumes'),
    ]);
  });

  it.each<[string, Record<string, unknown>, string[], string]>([
    [
      'an http url on a public host',
      { ...validCreate, url: 'http://hooks.example.com' },
      ['url'],
      'url: must be an https URL (http only on localhost, 127.0.0.0/8 or [::1])',
    ],
    [
      'an http url on a host that only starts like loopback',
      { ...validCreate, url: 'http://localhost.example.com/hooks' },
      ['url'],
      'url: must be an https URL',
    ],
    [
      'an http url on a private, not loopback, address',
      { ...validCreate, url: 'http://10.0.0.1/hooks' },
      ['url'],
      'url: must be an https URL',
    ],
    [
      'a url that is not a URL',
      { ...validCreate, url: 'hooks' },
      ['url'],
      'url: must be an https URL',
    ],
    ['a missing url', { events: ['*'] }, ['url'], 'url: is required'],
    [
      'an empty event type',
      { ...validCreate, events: ['recognition.created', ''] },
      ['events.1'],
      'events.1: must not be an empty string',
    ],
    [
      'an event type that is not a string',
      { ...validCreate, events: [3] },
      ['events.0'],
      'events.0: must be a string',
    ],
    [
      'an empty events list',
      { ...validCreate, events: [] },
      ['events'],
      'events: must have at least 1 item',
    ],
    [
      '"*" beside other types',
      { ...validCreate, events: ['*', 'user.created'] },
      ['events'],
      'events: must be ["*"] alone',
    ],
    ['events as a string', { ...validCreate, events: '*' }, ['events'], 'events: must be an array'],
    [
      'a misspelled parameter',
      { ...validCreate, event: ['*'] },
      ['event'],
      'event: is not a parameter of this operation',
    ],
  ])('rejects %s locally, sending nothing', async (_case, params, fields, message) => {
    const error = await expectLocalValidationError(
      client.webhooks.create(params as unknown as WebhookCreateParams),
      fields,
    );
    expect(error.message).toContain(message);
    expect(requests).toHaveLength(0);
  });
});

describe('webhooks.update', () => {
  it('sends PATCH /v1/webhooks/{id} with only the given fields and an Idempotency-Key', async () => {
    server.use(http.patch(ITEM, () => json({ data: records.webhook({ enabled: false }) })));

    const result = await client.webhooks.update(UUID.record, { enabled: false, events: ['*'] });

    expect(result.data.enabled).toBe(false);
    const [request] = requests;
    expect(request).toMatchObject({ method: 'PATCH', rawPath: `/v1/webhooks/${UUID.record}` });
    expect(await request?.body).toEqual({ enabled: false, events: ['*'] });
    expect(request?.headers.get('idempotency-key')).toBeTruthy();
  });

  it('accepts an http URL on loopback, and sends a null description to remove it', async () => {
    server.use(http.patch(ITEM, () => json({ data: records.webhook() })));
    await client.webhooks.update(UUID.record, {
      url: 'http://127.0.0.1:3000/hooks',
      description: null,
    });
    expect(await requests[0]?.body).toEqual({
      url: 'http://127.0.0.1:3000/hooks',
      description: null,
    });
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['an unknown key', { enabled: true, secret: SECRET }, ['secret']],
    ['a non-https url', { url: 'ftp://hooks.example.com' }, ['url']],
    ['an http url on a public host', { url: 'http://hooks.example.com' }, ['url']],
    ['an empty event type', { events: [''] }, ['events.0']],
    ['an empty events list', { events: [] }, ['events']],
    ['enabled as a string', { enabled: 'false' }, ['enabled']],
  ])('rejects %s locally, sending nothing', async (_case, params, fields) => {
    await expectLocalValidationError(
      client.webhooks.update(UUID.record, params as WebhookUpdateParams),
      fields,
    );
    expect(requests).toHaveLength(0);
  });
});

describe('webhooks.delete', () => {
  it('sends DELETE /v1/webhooks/{id} and resolves to undefined on 204', async () => {
    server.use(http.delete(ITEM, () => new HttpResponse(null, { status: 204 })));
    await expect(client.webhooks.delete(UUID.record)).resolves.toBeUndefined();
    expect(requests).toMatchObject([{ method: 'DELETE', rawPath: `/v1/webhooks/${UUID.record}` }]);
  });
});
