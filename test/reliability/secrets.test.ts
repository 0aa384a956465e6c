/**
 * Secrets never leak: an API key, an OAuth token from a token function, and webhook secrets are
 * absent from every error the SDK produces for them — message, stack, JSON and inspection — and
 * from the mock's request log.
 */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, ConfigurationError } from '../../src/index.js';
import { verifyWebhook, WebhookVerificationError } from '../../src/webhooks/index.js';
import { createMockApi, signWebhook } from '../../src/testing/index.js';
import { collectErrors, expectNoSecretsIn } from '../support/secrets.js';

const API_KEY = `rk_live_${'S3cretApiKeyPart'.repeat(2)}`;
const OAUTH_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2VuLWJvZHk.U2VjcmV0U2lnbmF0dXJlUGFydA';
const WEBHOOK_SECRET = 'whsec_c2VjcmV0LXdlYmhvb2sta2V5LWZvci10ZXN0cw==';
const OTHER_SECRET = 'whsec_b3RoZXItd2ViaG9vay1rZXktZm9yLXRlc3Rz';
const BASE_URL = 'http://api.test';

const STATUSES = [400, 401, 403, 404, 409, 422, 429, 500, 502, 503];
const server = setupServer(
  http.all(`${BASE_URL}/v1/users/:status`, ({ request, params }) => {
    const status = Number(params.status);
    // A careless server echoes the credential back; the SDK must still not pass it on.
    const echoed = request.headers.get('authorization') ?? '';
    if (status === 0) return HttpResponse.error();
    return HttpResponse.json(
      {
        error: {
          code: 'echo',
          message: `rejected ${echoed}`,
          details: [{ field: 'auth', message: echoed }],
        },
      },
      { status, headers: { 'retry-after': '120' } },
    );
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const errors = collectErrors();

async function failEveryWay(client: Client) {
  for (const status of [...STATUSES, 0]) {
    await client.users.get(String(status)).catch(errors.add);
  }
  await client.users.get('400', { timeout: 1, maxRetries: 0 }).catch(errors.add);
  await client.users.get('400', { signal: AbortSignal.abort() }).catch(errors.add);
  await client.recognitions.create({ recipient_id: 'nope', message: '' }).catch(errors.add);
}

it('API key and OAuth token: absent from every error, even when the server echoes them', async () => {
  await failEveryWay(new Client({ apiKey: API_KEY, baseUrl: BASE_URL, maxRetries: 0 }));
  await failEveryWay(
    new Client({ apiKey: async () => OAUTH_TOKEN, baseUrl: BASE_URL, maxRetries: 0 }),
  );
  try {
    new Client({ apiKey: `${API_KEY.slice(0, 12)}!`, baseUrl: BASE_URL });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    errors.add(error);
  }
  expect(errors.all.length).toBeGreaterThan(20);
  expectNoSecretsIn(errors.all, [API_KEY, OAUTH_TOKEN]);
});

it('webhook secrets: absent from every WebhookVerificationError', async () => {
  const payload = JSON.stringify({
    id: 'evt_1',
    type: 'recognition.created',
    created_at: '2026-11-22T00:00:00Z',
    data: {},
  });
  const timestamp = 1_795_000_000;
  const headers = await signWebhook(payload, WEBHOOK_SECRET, { id: 'msg_1', timestamp });
  const webhookErrors = collectErrors();
  const attempts: Array<Parameters<typeof verifyWebhook>> = [
    [`${payload} `, headers, WEBHOOK_SECRET, { now: timestamp * 1000 }],
    [payload, headers, OTHER_SECRET, { now: timestamp * 1000 }],
    [payload, headers, [OTHER_SECRET, `${WEBHOOK_SECRET}x`], { now: timestamp * 1000 }],
    [payload, headers, WEBHOOK_SECRET.slice(6), { now: timestamp * 1000 }],
    [payload, headers, WEBHOOK_SECRET, { now: (timestamp + 3600) * 1000 }],
    [payload, { 'webhook-id': 'msg_1' }, WEBHOOK_SECRET, { now: timestamp * 1000 }],
  ];
  for (const args of attempts) {
    const error = await verifyWebhook(...args).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    webhookErrors.add(error);
  }
  expectNoSecretsIn(webhookErrors.all, [WEBHOOK_SECRET, OTHER_SECRET, WEBHOOK_SECRET.slice(6)]);
});

it("the mock's request log keeps no credential", async () => {
  const api = createMockApi({ keys: [{ key: API_KEY }] });
  const client = new Client({ apiKey: API_KEY, baseUrl: api.baseUrl, fetch: api.fetch });
  await client.users.list();
  expect(JSON.stringify(api.requests)).not.toContain(API_KEY);
  await api.close();
});
