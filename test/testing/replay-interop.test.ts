// Files other tools write, and what a recording may hold that HTTP refuses: replayed by ours.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, EmployeeRecognitionError } from '@employee-recognition/sdk';
import { clientCredentials, OAuthError } from '@employee-recognition/sdk/oauth';
import {
  type Har,
  type HarEntry,
  HarError,
  startMockServer,
} from '@employee-recognition/sdk/testing';
import { fromRecording } from '@employee-recognition/sdk/testing/msw';
import { setupServer } from 'msw/node';
import { request as playwright } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { recordSession, runSession, SESSION_SERVER } from './recording.js';

const FAKE_KEY = `rk_test_${'x'.repeat(24)}`;

let recorded: Awaited<ReturnType<typeof recordSession>>;
beforeAll(async () => {
  recorded = await recordSession();
});

const target = (baseUrl: string) => ({
  baseUrl,
  apiKey: FAKE_KEY,
  issuer: baseUrl,
  clientId: recorded.clientId,
  clientSecret: 'any secret: the recording holds none',
});

/**
 * A recording as Polly.js's persister writes it (@pollyjs/persister, har/entry, request and
 * response): creator `Polly.JS`, `_id` and `_order` on each entry, a request body kept as text
 * only when it was a string and otherwise `params: []` alone (the SDK's OAuth form, a
 * URLSearchParams), no `_redacted`, timings with -1 for what it does not know.
 */
function asPolly(har: Har): Har {
  const entries = har.log.entries.map((entry, index) => {
    const { request, response } = entry;
    const form = request.postData?.mimeType.startsWith('application/x-www-form-urlencoded');
    return {
      _id: index.toString(16).padStart(32, '0'),
      _order: 0,
      startedDateTime: entry.startedDateTime,
      request: {
        httpVersion: 'HTTP/1.1',
        url: request.url,
        method: request.method,
        headers: request.headers,
        headersSize: 200,
        queryString: request.queryString,
        cookies: [],
        ...(request.postData
          ? {
              postData: form
                ? { mimeType: `${request.postData.mimeType};charset=UTF-8`, params: [] }
                : { mimeType: request.postData.mimeType, params: [], text: request.postData.text },
            }
          : {}),
        bodySize: request.bodySize,
      },
      response: {
        httpVersion: 'HTTP/1.1',
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
        headersSize: 100,
        cookies: [],
        redirectURL: '',
        content: {
          mimeType: response.content.mimeType || 'text/plain',
          size: response.content.size,
          ...(response.content.text ? { text: response.content.text } : {}),
        },
        bodySize: response.content.size,
      },
      cache: {},
      timings: { blocked: -1, dns: -1, connect: -1, send: 0, wait: 5, receive: 0, ssl: -1 },
      time: 5,
    };
  });
  return {
    log: {
      version: '1.2',
      creator: { name: 'Polly.JS', version: '6.0.6', comment: 'persister:fs' },
      _recordingName: 'session',
      pages: [],
      entries,
    } as unknown as Har['log'],
  };
}

describe('a recording made by Polly.js', () => {
  const msw = setupServer();
  beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => msw.close());

  it('replays the whole session, its OAuth token request recorded as params: [] without text', async () => {
    msw.resetHandlers(...fromRecording(recorded.har));
    const ours = await runSession(target(recorded.url));
    msw.resetHandlers(...fromRecording(asPolly(recorded.har)));
    expect(await runSession(target(recorded.url))).toEqual(ours);
  });
});

describe('a form body recorded as postData.params without text', () => {
  it('matches by its fields, in any order', async () => {
    const polly = asPolly(recorded.har);
    const token = polly.log.entries.find((entry) => entry.request.url.endsWith('/oauth/token'))!;
    token.request.postData = {
      mimeType: 'application/x-www-form-urlencoded',
      params: [
        { name: 'scope', value: 'teams:read' },
        { name: 'grant_type', value: 'client_credentials' },
      ],
    };
    const server = await startMockServer({ replay: polly });
    try {
      const form = (body: string) =>
        fetch(`${server.url}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
      const same = await form('grant_type=client_credentials&scope=teams%3Aread');
      expect(await same.text()).not.toContain('not_recorded');
      expect(same.status).toBe(200);
      const other = await form('grant_type=client_credentials&scope=users%3Aread');
      expect(other.status).toBe(501);
      expect(await other.text()).toContain('body scope was \\"teams:read\\", not \\"users:read\\"');
    } finally {
      await server.close();
    }
  });
});

describe('a recording made by Playwright', () => {
  // Playwright's HAR writer (its HarTracer, which `recordHar` of a browser context uses too),
  // here through tracing.startHar of an API request context: no browser needed.
  it('replays under startMockServer({ replay }) and fromRecording', async () => {
    const live = await startMockServer(SESSION_SERVER);
    const dir = mkdtempSync(join(tmpdir(), 'playwright-har-'));
    const file = join(dir, 'playwright.har');
    let expected: unknown;
    let form = '';
    try {
      const context = await playwright.newContext();
      await context.tracing.startHar(file);
      const page = await context.get(`${live.url}/v1/users?limit=3`, {
        headers: { authorization: `Bearer ${live.api.testKey}` },
      });
      expected = await page.json();
      form = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: live.api.oauth.testClient.clientId,
        client_secret: live.api.oauth.testClient.clientSecret,
      }).toString();
      const token = await context.post(`${live.url}/oauth/token`, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        data: form,
      });
      expect(token.status()).toBe(200);
      await context.tracing.stopHar();
      await context.dispose();
    } finally {
      await live.close();
    }
    const har = JSON.parse(readFileSync(file, 'utf8')) as Har;
    rmSync(dir, { recursive: true, force: true });
    expect(har.log.creator.name).toBe('Playwright');

    const server = await startMockServer({ replay: har });
    try {
      const client = new Client({ baseUrl: server.url, apiKey: FAKE_KEY });
      expect(await client.users.list({ limit: 3 })).toMatchObject(expected as object);
      const token = await fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      });
      expect(token.status).toBe(200);
      expect(await token.json()).toMatchObject({ token_type: 'Bearer' });
    } finally {
      await server.close();
    }
  });
});

describe('what a replay does with what HTTP refuses', () => {
  const withHeader = (value: string): Har => {
    const entry = recorded.har.log.entries[0]!;
    return {
      log: {
        ...recorded.har.log,
        entries: [
          {
            ...entry,
            response: {
              ...entry.response,
              headers: [...entry.response.headers, { name: 'x-odd', value }],
            },
          },
        ],
      },
    };
  };

  it('drops a recorded header value HTTP refuses, with a warning, and answers', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const server = await startMockServer({ replay: withHeader('a\u0001b') });
    try {
      const response = await fetch(`${server.url}/v1/users?limit=100`);
      expect(response.status).toBe(200);
      expect(response.headers.has('x-odd')).toBe(false);
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining(
          `[employee-recognition] replay: entry 0's answer header "x-odd" holds "a\\u0001b", which HTTP cannot carry: left out.`,
        ),
      );
    } finally {
      await server.close();
    }
  });

  it('answers a failure inside the replay server with a 500 that says what failed', async () => {
    const entry = recorded.har.log.entries[0]!;
    const broken: Har = {
      log: {
        ...recorded.har.log,
        entries: [{ ...entry, response: { ...entry.response, status: 99 } } as HarEntry],
      },
    };
    const server = await startMockServer({ replay: broken });
    try {
      const response = await fetch(`${server.url}/v1/users?limit=100`);
      expect(response.status).toBe(500);
      expect((await response.json()).error.message).toMatch(/^The mock server failed to answer: /);
    } finally {
      await server.close();
    }
  });
});

describe('a replay through MSW for a client on another origin', () => {
  const msw = setupServer();
  beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => msw.close());

  it('answers with the kit’s 501 naming the recorded origins, never a bypass error', async () => {
    msw.resetHandlers(...fromRecording(recorded.har));
    // No baseUrl: the production origin, which the recording was not made against.
    const client = new Client({ apiKey: FAKE_KEY, maxRetries: 0 });
    const error = await client.users.list({ limit: 100 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 501, code: 'not_recorded' });
    expect((error as Error).message).toContain(
      `No recording at https://api.employee-recognition.example: it was made against ${recorded.url}. Set RECOGNITION_BASE_URL or baseUrl to that origin, or map this one with \`origins\``,
    );
  });

  it('replays at an origin mapped to a recorded one with `origins`', async () => {
    msw.resetHandlers(
      ...fromRecording(recorded.har, {
        origins: { 'https://api.employee-recognition.example': recorded.url },
      }),
    );
    const client = new Client({ apiKey: FAKE_KEY, maxRetries: 0 });
    const { data } = await client.users.list({ limit: 100 });
    expect(data.map((user) => user.id)).toEqual(
      (recorded.results[0] as { id: string }[]).map((user) => user.id),
    );
  });
});

describe('messages', () => {
  it('fromRecording and startMockServer name the entry and field, and say to parse a string', async () => {
    const bad = { log: { entries: [{ request: { method: 'GET', url: 'x' }, response: {} }] } };
    expect(() => fromRecording(bad as never)).toThrow(
      'The recording is not a HAR 1.2 document: entry 0, request.url "x" is not an absolute URL; entry 0, response.status is missing.',
    );
    await expect(startMockServer({ replay: bad as never })).rejects.toThrow(HarError);
    expect(() => fromRecording(JSON.stringify(recorded.har) as never)).toThrow(
      /got a string: pass JSON\.parse/,
    );
    expect(() => fromRecording({ log: { entries: {} } } as never)).toThrow(
      'log.entries is object, not a list',
    );
  });

  it('puts an OAuth token failure’s reason in the apiKey failure’s message; its cause stays an OAuthError', async () => {
    const server = await startMockServer();
    try {
      const client = new Client({
        baseUrl: server.url,
        maxRetries: 0,
        apiKey: clientCredentials({
          issuer: server.api.oauth.issuer,
          clientId: server.api.oauth.testClient.clientId,
          clientSecret: 'not the secret',
          logLevel: 'off',
        }),
      });
      const error = (await client.users.list().catch((caught: unknown) => caught)) as Error;
      expect(error).toBeInstanceOf(EmployeeRecognitionError);
      expect(error.message).toMatch(
        /^The apiKey function failed: The authorization server refused the token request/,
      );
      expect(error.message).not.toContain('not the secret');
      expect(error.cause).toBeInstanceOf(OAuthError);
    } finally {
      await server.close();
    }
  });
});
