/**
 * Secrets never shown, even when the server echoes them: raw, JSON-escaped (`\/`, `\u0072`), in
 * a plain or HTML page, in the status text, or in response headers kept on the error. Every
 * rendering of the error is scanned: String(), message, stack, JSON, util.inspect and each header.
 * Construction refuses a baseUrl with user info and never quotes a value that may be the key.
 */
import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, Client, ConfigurationError } from '@employee-recognition/sdk';
import {
  checkNoLeaks,
  closeAllServers,
  expectNotShown,
  expectTyped,
  type HostileServer,
  json,
  rejection,
  type SeenRequest,
  startHostileServer,
  thrownBy,
  startRawServer,
  USER,
} from '../../support/hostile-server.js';

const API_KEY = `rk_live_${'S3cretEch0edKey'.repeat(2)}`;
/** An OAuth access token with the characters JSON and URLs escape. */
const OAUTH_TOKEN = 'ya29.A0ARrdaM/Secr3t+T0ken/Part-Xy_z9.r0tat3d';

checkNoLeaks();
afterEach(closeAllServers);

const credentialOf = (request: SeenRequest) =>
  String(request.headers.authorization ?? '').replace(/^Bearer /, '');

/** Every character as a JSON \u escape. */
const unicodeEscaped = (text: string) =>
  [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** Ways a careless server echoes the credential it was sent. */
const ECHOES: Record<string, (response: ServerResponse, credential: string) => void> = {
  'raw in a JSON error body': (response, credential) =>
    json(response, 401, {
      error: {
        code: 'unauthorized',
        message: `unknown credential ${credential}`,
        details: [{ field: credential, message: credential }],
      },
    }),
  'JSON-escaped with \\/': (response, credential) =>
    json(
      response,
      401,
      `{"error":{"code":"unauthorized","message":"bad ${credential.replaceAll('/', '\\/')}"}}`,
    ),
  'JSON-escaped with \\u0072 for each r': (response, credential) =>
    json(
      response,
      400,
      `{"error":{"code":"invalid_request","message":"bad ${credential.replaceAll('r', '\\u0072')}"}}`,
    ),
  'every character \\u-escaped': (response, credential) =>
    json(
      response,
      403,
      `{"error":{"code":"insufficient_scope","message":"${unicodeEscaped(credential)}"}}`,
    ),
  'in a plain-text page': (response, credential) => {
    response.writeHead(500, { 'content-type': 'text/plain' });
    response.end(`credential Bearer ${credential} rejected`);
  },
  "in an HTML page's title": (response, credential) => {
    response.writeHead(502, { 'content-type': 'text/html' });
    response.end(`<html><head><title>Bad token ${credential}</title></head></html>`);
  },
  'in a WWW-Authenticate header': (response, credential) =>
    json(
      response,
      401,
      { error: { code: 'unauthorized', message: 'no' } },
      {
        'www-authenticate': `Bearer realm="api", error="invalid_token", token="${credential}"`,
      },
    ),
  'in custom and X-Request-Id headers': (response, credential) =>
    json(
      response,
      429,
      { error: { code: 'rate_limited', message: 'slow' } },
      {
        'x-echo': credential,
        'x-request-id': `req_${credential}`,
        'retry-after': '120',
        link: `<https://api.example/v1/users?token=${credential}>; rel="next"`,
      },
    ),
};

function clientFor(server: HostileServer, credential: string | (() => Promise<string>)) {
  return new Client({ apiKey: credential, baseUrl: server.url, maxRetries: 0 });
}

describe('a credential the server echoes never shows in the error', () => {
  for (const [how, echo] of Object.entries(ECHOES)) {
    for (const [kind, credential] of [
      ['API key', API_KEY],
      ['OAuth token', OAUTH_TOKEN],
    ] as const) {
      it(`${kind} ${how}`, async () => {
        const server = await startHostileServer((request, response) =>
          echo(response, credentialOf(request)),
        );
        const error = await rejection(clientFor(server, credential).users.get(USER.id));
        expectTyped(error);
        expect(error).toBeInstanceOf(ApiError);
        expectNotShown(error, [credential]);
      });
    }
  }

  it('an OAuth token from a token function, echoed raw', async () => {
    const server = await startHostileServer((request, response) =>
      ECHOES['raw in a JSON error body']!(response, credentialOf(request)),
    );
    const error = await rejection(clientFor(server, async () => OAUTH_TOKEN).users.get(USER.id));
    expectNotShown(error, [OAUTH_TOKEN]);
  });

  for (const [kind, credential] of [
    ['API key', API_KEY],
    ['OAuth token', OAUTH_TOKEN],
  ] as const) {
    it(`${kind} in the status text of a raw answer`, async () => {
      const server = await startRawServer((socket, head) => {
        const sent = /authorization: Bearer (\S+)/i.exec(head)?.[1] ?? '';
        socket.end(
          `HTTP/1.1 401 Bad token ${sent}\r\ncontent-type: text/plain\r\ncontent-length: 2\r\nconnection: close\r\n\r\nno`,
        );
      });
      const error = await rejection(clientFor(server, credential).users.get(USER.id));
      expectTyped(error);
      expectNotShown(error, [credential]);
    });

    it(`${kind} percent-encoded in an error body`, async () => {
      const server = await startHostileServer((request, response) =>
        json(response, 401, {
          error: {
            code: 'unauthorized',
            message: `see /login?token=${encodeURIComponent(credentialOf(request))}`,
          },
        }),
      );
      const error = await rejection(clientFor(server, credential).users.get(USER.id));
      expectNotShown(error, [credential, encodeURIComponent(credential)]);
    });
  }
});

describe('a credential echoed in the headers of a redirect the SDK refuses', () => {
  for (const [kind, credential] of [
    ['API key', API_KEY],
    ['OAuth token', OAUTH_TOKEN],
  ] as const) {
    it(`${kind} in the headers of a 302 answering a create`, async () => {
      const server = await startHostileServer((request, response) => {
        response.writeHead(302, {
          location: `/v1/elsewhere?token=${credentialOf(request)}`,
          'x-echo': credentialOf(request),
          'www-authenticate': `Bearer token="${credentialOf(request)}"`,
        });
        response.end();
      });
      const error = await rejection(
        clientFor(server, credential).recognitions.create({ recipient_id: USER.id, message: 'Hi' }),
      );
      expect(error).toMatchObject({ code: 'unexpected_redirect' });
      expectNotShown(error, [credential]);
    });
  }
});

describe('construction never quotes a value that may be the credential', () => {
  it('apiKey and baseUrl swapped: ConfigurationError without the key', () => {
    const error = thrownBy(() => new Client({ apiKey: 'http://127.0.0.1:4010', baseUrl: API_KEY }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expectNotShown(error, [API_KEY]);
  });

  it('an OAuth token passed as baseUrl: ConfigurationError without the token', () => {
    const error = thrownBy(() => new Client({ apiKey: API_KEY, baseUrl: OAUTH_TOKEN }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expectNotShown(error, [OAUTH_TOKEN, API_KEY]);
  });

  const withUserInfo = [
    'http://admin:Pa55w0rdXyZ-91@127.0.0.1:4010',
    'https://Pa55w0rdXyZ-91@api.example',
    'https://admin:Pa55w0rdXyZ-91@api.example/v1',
    'http://:Pa55w0rdXyZ-91@127.0.0.1:4010',
  ];
  for (const baseUrl of withUserInfo) {
    it(`baseUrl ${baseUrl.replace('Pa55w0rdXyZ-91', '<password>')}: refused without echoing it`, () => {
      const error = thrownBy(() => new Client({ apiKey: API_KEY, baseUrl }));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as ConfigurationError).option).toBe('baseUrl');
      expectNotShown(error, ['Pa55w0rdXyZ-91', API_KEY]);
    });
  }

  it('withOptions with a baseUrl holding user info: refused the same way', () => {
    const client = new Client({ apiKey: API_KEY, baseUrl: 'http://127.0.0.1:4010' });
    const error = thrownBy(() =>
      client.withOptions({ baseUrl: 'http://admin:Pa55w0rdXyZ-91@127.0.0.1:4010' }),
    );
    expect(error).toBeInstanceOf(ConfigurationError);
    expectNotShown(error, ['Pa55w0rdXyZ-91', API_KEY]);
  });

  it('util.inspect and JSON of a client show neither key nor token', () => {
    for (const credential of [API_KEY, OAUTH_TOKEN]) {
      const client = new Client({ apiKey: credential, baseUrl: 'http://127.0.0.1:4010' });
      const derived = client.withOptions({ timeout: 5000 });
      for (const shown of [
        inspect(client, { depth: 10, showHidden: true }),
        inspect(derived, { depth: 10, showHidden: true }),
        JSON.stringify(client),
        String(client),
      ]) {
        expect(shown).not.toContain(credential);
        expect(shown).not.toContain(credential.slice(-12));
      }
    }
  });
});
