/**
 * Secrets never leak: an API key, an OAuth token from a token function, an OAuth client secret
 * and webhook secrets are absent from every error the SDK produces for them — message, stack,
 * JSON and inspection — from every log line, and from the mock's request log.
 */
import { inspect } from 'node:util';
import { HttpResponse, http, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ConfigurationError, type Logger } from '../../src/index.js';
import { clientCredentials } from '../../src/oauth/index.js';
import { verifyWebhook, WebhookVerificationError } from '../../src/webhooks/index.js';
import { createMockApi, signWebhook } from '../../src/testing/index.js';
import { closedPort, startTestServer } from '../support/http-server.js';
import { startOAuthServer } from '../support/oauth-server.js';
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

describe('OAuth client secret', () => {
  const CLIENT_ID = 'rc_SecretsScanClient0001';
  const CLIENT_SECRET = 'S3cret/Client+Secret=Value~1';

  it('absent from every error, log line and inspection, whatever the token endpoint answers', async () => {
    // What the requests carried: the Basic header and the form body, each holding the secret.
    const sent = new Set<string>();
    const lines: string[] = [];
    const logger: Logger = {
      debug: (line) => void lines.push(line),
      info: (line) => void lines.push(line),
      warn: (line) => void lines.push(line),
      error: (line) => void lines.push(line),
    };
    // A careless server echoes the Authorization header and the form body every way it can.
    const hostile = await startTestServer((request, response, index) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk));
      request.on('end', () => {
        const echo = `${request.headers.authorization ?? ''} ${body}`;
        sent.add(request.headers.authorization ?? body);
        const answers = [
          () =>
            response
              .writeHead(401, {
                'content-type': 'application/json',
                'www-authenticate': `Basic error="invalid_client", error_description="${echo}"`,
              })
              .end(JSON.stringify({ error: 'invalid_client', error_description: echo })),
          () =>
            response
              .writeHead(400, { 'content-type': 'text/html' })
              .end(`<html><title>Rejected ${echo}</title></html>`),
          () =>
            response
              .writeHead(500, { 'content-type': 'text/plain', 'x-echo': echo.slice(0, 200) })
              .end(echo),
          () =>
            response
              .writeHead(200, { 'content-type': 'application/json' })
              .end(JSON.stringify({ token_type: 'Bearer', echo })),
          () =>
            response
              .writeHead(302, { location: `https://evil.example/?${encodeURIComponent(echo)}` })
              .end(),
          () =>
            response
              .writeHead(400, { 'content-type': 'application/json' })
              .end(JSON.stringify({ error: echo, error_description: echo })),
        ];
        answers[index % answers.length]!();
      });
    });
    const auth = await startOAuthServer();
    auth.shape((answer, request) => {
      answer.statusCode = 401;
      answer.body = {
        error: 'invalid_client',
        error_description: `${request.authorization} ${JSON.stringify(request.body)}`,
      };
    });
    // The authorization servers here are real, on this machine: MSW lets their requests through.
    server.use(http.all(/^http:\/\/127\.0\.0\.1:\d+\//, () => passthrough()));
    const errors = collectErrors();
    const options = {
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      logger,
      logLevel: 'debug' as const,
      maxRetries: 0,
    };
    try {
      for (const authMethod of ['client_secret_basic', 'client_secret_post'] as const) {
        const providers = [
          ...Array.from({ length: 6 }, () =>
            clientCredentials({ ...options, authMethod, tokenUrl: `${hostile.url}/oauth/token` }),
          ),
          clientCredentials({ ...options, authMethod, issuer: auth.issuer }),
          clientCredentials({ ...options, authMethod, issuer: await closedPort() }),
          clientCredentials({ ...options, authMethod, issuer: `${auth.issuer}/no-metadata` }),
        ];
        for (const provider of providers) {
          errors.add(inspect(provider, { showHidden: true, depth: 10, getters: true }));
          await provider().catch(errors.add);
          const client = new Client({ apiKey: provider, baseUrl: BASE_URL, maxRetries: 0 });
          await client.users.list().catch(errors.add);
        }
      }
    } finally {
      await hostile.close();
      await auth.close();
    }
    // The secret in each form it travelled in: raw, form-encoded, and the Basic credential.
    const posted = [...sent].find((form) => form.includes('client_secret='))!;
    const basic = [...sent].find((form) => form.startsWith('Basic '))!.slice('Basic '.length);
    const secrets = [
      CLIENT_SECRET,
      /client_secret=([^&]*)/.exec(posted)![1]!,
      basic.replace(/=+$/, ''),
    ];
    expect(errors.all.length).toBeGreaterThan(30);
    for (const secret of secrets) {
      const forms = [
        secret,
        encodeURIComponent(secret),
        encodeURIComponent(encodeURIComponent(secret)),
      ];
      expectNoSecretsIn(errors.all, forms);
      expectNoSecretsIn(lines, forms);
    }
    expect(lines.length).toBeGreaterThan(10);
  });
});
