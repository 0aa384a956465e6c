/**
 * Browser guard: where `window` and `document` exist, an API key would ship to every visitor, so
 * `new Client` with one throws a ConfigurationError unless `dangerouslyAllowBrowser: true`. An
 * OAuth access token or a token function (a signed-in user's own credential) is allowed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Client, ConfigurationError } from '@employee-recognition/sdk';
import {
  checkNoLeaks,
  closeAllServers,
  EMPTY_PAGE,
  expectNotShown,
  json,
  startHostileServer,
  thrownBy,
} from '../../support/hostile-server.js';

const LIVE_KEY = `rk_live_${'Br0wserGuardKey'.repeat(2)}`;
const TEST_KEY = `rk_test_${'Br0wserGuardKey'.repeat(2)}`;
const OAUTH_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.dXNlci1vd24tdG9rZW4.c2lnbmF0dXJl';
const BASE_URL = 'http://127.0.0.1:4010';

checkNoLeaks();
afterEach(() => {
  vi.unstubAllGlobals();
  return closeAllServers();
});

describe('in a browser-like runtime (window and document exist)', () => {
  beforeEach(() => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
  });

  for (const key of [LIVE_KEY, TEST_KEY]) {
    it(`an API key ${key.slice(0, 8)}…: ConfigurationError naming dangerouslyAllowBrowser`, () => {
      const error = thrownBy(() => new Client({ apiKey: key, baseUrl: BASE_URL }));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as ConfigurationError).option).toBe('dangerouslyAllowBrowser');
      expectNotShown(error, [key]);
    });

    it(`an API key ${key.slice(0, 8)}… with dangerouslyAllowBrowser: true: allowed`, async () => {
      const server = await startHostileServer((_request, response) =>
        json(response, 200, EMPTY_PAGE),
      );
      const client = new Client({
        apiKey: key,
        baseUrl: server.url,
        dangerouslyAllowBrowser: true,
      });
      expect((await client.users.list()).data).toEqual([]);
    });
  }

  it('dangerouslyAllowBrowser other than true does not opt in', () => {
    for (const value of [false, 'true', 1, null]) {
      expect(
        () =>
          new Client({
            apiKey: LIVE_KEY,
            baseUrl: BASE_URL,
            dangerouslyAllowBrowser: value as never,
          }),
      ).toThrow(ConfigurationError);
    }
  });

  it('an OAuth access token: allowed', () => {
    expect(() => new Client({ apiKey: OAUTH_TOKEN, baseUrl: BASE_URL })).not.toThrow();
  });

  it('a token function: allowed', () => {
    expect(() => new Client({ apiKey: async () => OAUTH_TOKEN, baseUrl: BASE_URL })).not.toThrow();
  });

  it('withOptions keeps the guard: an allowed client stays allowed, a key cannot slip in', async () => {
    const server = await startHostileServer((_request, response) =>
      json(response, 200, EMPTY_PAGE),
    );
    const allowed = new Client({
      apiKey: LIVE_KEY,
      baseUrl: server.url,
      dangerouslyAllowBrowser: true,
    });
    expect(() => allowed.withOptions({ timeout: 5000 })).not.toThrow();
    const oauth = new Client({ apiKey: OAUTH_TOKEN, baseUrl: server.url });
    // withOptions shares the credential: an apiKey smuggled in is refused or ignored, never sent.
    let derived: Client | undefined;
    try {
      derived = oauth.withOptions({ apiKey: LIVE_KEY } as never);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError);
    }
    if (derived) {
      await derived.users.list();
      expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${OAUTH_TOKEN}`);
    }
  });
});

describe('outside a browser', () => {
  it('Node (no window, no document): an API key needs no opt-in', () => {
    expect(() => new Client({ apiKey: LIVE_KEY, baseUrl: BASE_URL })).not.toThrow();
  });

  it('a runtime with window but no document (Deno): an API key needs no opt-in', () => {
    vi.stubGlobal('window', {});
    expect(() => new Client({ apiKey: LIVE_KEY, baseUrl: BASE_URL })).not.toThrow();
  });
});
