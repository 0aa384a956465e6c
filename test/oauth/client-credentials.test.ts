/**
 * clientCredentials() against a real authorization server no one here wrote (oauth2-mock-server
 * on 127.0.0.1): discovery, both ways of client authentication, the token's cache and refresh
 * under a fake clock, single flight, the refused-token refresh and the typed errors.
 */
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiConnectionError, ConfigurationError, type Logger } from '../../src/index.js';
import {
  type CachedToken,
  clientCredentials,
  type ClientCredentialsOptions,
  OAuthError,
} from '../../src/oauth/index.js';
import {
  basicCredentials,
  type OAuthTestServer,
  startOAuthServer,
} from '../support/oauth-server.js';
import { collectErrors, expectNoSecretsIn } from '../support/secrets.js';

const CLIENT_ID = 'rc_0123456789abcdefABCD';
const CLIENT_SECRET = 'cs_s3cret-Value.with~Odd*Chars(1)';
const START = Date.parse('2026-11-24T09:00:00Z');

let auth: OAuthTestServer;
let lines: string[];
const logger: Logger = {
  debug: (line) => void lines.push(line),
  info: (line) => void lines.push(line),
  warn: (line) => void lines.push(line),
  error: (line) => void lines.push(line),
};

beforeEach(async () => {
  auth = await startOAuthServer();
  lines = [];
  // Only the clock is fake: sockets and the server's own timers stay real.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(START);
});

afterEach(async () => {
  vi.useRealTimers();
  await auth.close();
  // Whatever a test made the provider log, the secret is in no line.
  for (const line of lines) expect(line).not.toContain(CLIENT_SECRET);
});

function credentials(options: Partial<ClientCredentialsOptions> = {}) {
  return clientCredentials({
    issuer: auth.issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    logger,
    logLevel: 'debug',
    ...options,
  });
}

/** Every token the server issues from now on lives `seconds`. */
function tokensLive(seconds: number) {
  auth.shape((answer) => {
    if (typeof answer.body === 'object') answer.body.expires_in = seconds;
  });
}

const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);

describe('discovery and client authentication', () => {
  it('finds the token endpoint through RFC 8414 metadata below the issuer', async () => {
    const token = await credentials()();
    expect(token.split('.')).toHaveLength(3);
    expect(auth.tokenRequests).toHaveLength(1);
    expect(lines).toContainEqual(
      expect.stringContaining(`GET ${auth.issuer}/.well-known/oauth-authorization-server -> 200`),
    );
    expect(lines).toContainEqual(expect.stringContaining(`POST ${auth.tokenUrl} -> 200`));
  });

  it('authenticates with HTTP Basic by default, the id and secret form-encoded', async () => {
    await credentials({ scope: ['users:read', 'recognitions:read'] })();
    const [request] = auth.tokenRequests;
    expect(basicCredentials(request!.authorization)).toEqual([CLIENT_ID, CLIENT_SECRET]);
    expect(request!.body).toEqual({
      grant_type: 'client_credentials',
      scope: 'users:read recognitions:read',
    });
  });

  it("sends client_id and client_secret in the form body with authMethod 'client_secret_post'", async () => {
    await credentials({ authMethod: 'client_secret_post', scope: 'users:read' })();
    const [request] = auth.tokenRequests;
    expect(request!.authorization).toBeUndefined();
    expect(request!.body).toEqual({
      grant_type: 'client_credentials',
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      scope: 'users:read',
    });
  });

  it('asks the token endpoint directly when given tokenUrl, without discovery', async () => {
    await credentials({ issuer: undefined, tokenUrl: auth.tokenUrl })();
    expect(auth.tokenRequests).toHaveLength(1);
    expect(lines.some((line) => line.includes('.well-known'))).toBe(false);
  });

  it('uses RECOGNITION_AUTH_URL as the issuer when given neither issuer nor tokenUrl', async () => {
    vi.stubEnv('RECOGNITION_AUTH_URL', auth.issuer);
    await credentials({ issuer: undefined })();
    expect(auth.tokenRequests).toHaveLength(1);
  });

  it("falls back to the contract's token path, said once, when the metadata cannot be used", async () => {
    const wrongIssuer = `${auth.issuer}/tenant`;
    // Metadata at .well-known/oauth-authorization-server/tenant does not exist: 404.
    const provider = credentials({ issuer: wrongIssuer });
    await expect(provider()).rejects.toMatchObject({
      status: 404,
      url: `${wrongIssuer}/oauth/token`,
    });
    expect(lines.filter((line) => line.includes('Discovery failed'))).toHaveLength(1);
  });

  it('exposes clientId, and no secret through inspection or JSON', () => {
    const provider = credentials();
    expect(provider.clientId).toBe(CLIENT_ID);
    expect(() => ((provider as { clientId: string }).clientId = 'other')).toThrow(TypeError);
    const shown = inspect(provider, { showHidden: true, depth: 10, getters: true });
    expect(shown).toContain(CLIENT_ID);
    expect(shown).not.toContain(CLIENT_SECRET);
    expect(JSON.stringify({ provider })).not.toContain(CLIENT_SECRET);
  });
});

describe('the token cache', () => {
  it('reuses a token until expires_in minus the 60 s skew, then fetches the next one', async () => {
    tokensLive(600);
    const provider = credentials();
    const first = await provider();
    advance(540_000 - 1);
    expect(await provider()).toBe(first);
    expect(auth.tokenRequests).toHaveLength(1);
    advance(1);
    const second = await provider();
    expect(second).not.toBe(first);
    expect(auth.tokenRequests).toHaveLength(2);
    expect(await provider()).toBe(second);
  });

  it('refreshes a short-lived token at half its life, so it is still reused', async () => {
    tokensLive(10);
    const provider = credentials();
    const first = await provider();
    advance(4_999);
    expect(await provider()).toBe(first);
    advance(1);
    expect(await provider()).not.toBe(first);
    expect(auth.tokenRequests).toHaveLength(2);
  });

  it('takes expirySkewMs, and the contract default of 3600 s when expires_in is absent', async () => {
    auth.shape((answer) => {
      if (typeof answer.body === 'object') delete answer.body.expires_in;
    });
    const provider = credentials({ expirySkewMs: 0 });
    await provider();
    advance(3_600_000 - 1);
    await provider();
    expect(auth.tokenRequests).toHaveLength(1);
    advance(1);
    await provider();
    expect(auth.tokenRequests).toHaveLength(2);
  });

  it('200 concurrent calls with no token cause one token request', async () => {
    const provider = credentials();
    const tokens = await Promise.all(Array.from({ length: 200 }, () => provider()));
    expect(new Set(tokens).size).toBe(1);
    expect(auth.tokenRequests).toHaveLength(1);
  });

  it('shares tokens between providers through a cache, under a key without the secret', async () => {
    const store = new Map<string, CachedToken>();
    const cache = {
      get: async (key: string) => store.get(key),
      set: async (key: string, token: CachedToken) => void store.set(key, token),
    };
    const token = await credentials({ cache })();
    expect(await credentials({ cache })()).toBe(token);
    expect(auth.tokenRequests).toHaveLength(1);
    expect(store.size).toBe(1);
    const [key, cached] = [...store][0]!;
    expect(key).toContain(CLIENT_ID);
    expect(key).not.toContain(CLIENT_SECRET);
    expect(cached).toEqual({
      accessToken: token,
      expiresAt: START + 3_600_000,
      refreshAt: START + 3_540_000,
    });
  });

  it('a cache that fails or answers garbage is skipped, said once, and tokens still come', async () => {
    const failing = {
      get: () => Promise.reject(new Error('connection refused')),
      set: () => Promise.reject(new Error('connection refused')),
    };
    const provider = credentials({ cache: failing });
    await provider();
    advance(3_600_000);
    await provider();
    expect(auth.tokenRequests).toHaveLength(2);
    expect(lines.filter((line) => line.includes("token cache's"))).toHaveLength(1);

    const garbage = { get: () => ({ accessToken: 42 }) as never, set: () => {} };
    await credentials({ cache: garbage })();
    expect(auth.tokenRequests).toHaveLength(3);
  });
});

describe('refresh after a 401', () => {
  it('fetches a new token once when the refused token is still the one held', async () => {
    const provider = credentials();
    const revoked = await provider();
    const calls = Array.from({ length: 200 }, () =>
      provider({ forceRefresh: true, refused: revoked }),
    );
    const fresh = await Promise.all(calls);
    expect(new Set(fresh).size).toBe(1);
    expect(fresh[0]).not.toBe(revoked);
    expect(auth.tokenRequests).toHaveLength(2);
    // A call refused with the old token after the refresh gets the new one without a request.
    expect(await provider({ forceRefresh: true, refused: revoked })).toBe(fresh[0]);
    expect(auth.tokenRequests).toHaveLength(2);
  });

  it('without the refused token named, forceRefresh replaces the token held', async () => {
    const provider = credentials();
    const first = await provider();
    expect(await provider({ forceRefresh: true })).not.toBe(first);
    expect(auth.tokenRequests).toHaveLength(2);
  });
});

describe('failures', () => {
  it('a wrong secret is an OAuthError naming invalid_client, never the secret', async () => {
    auth.shape((answer, request) => {
      if (basicCredentials(request.authorization)[1] === CLIENT_SECRET) return;
      answer.statusCode = 401;
      answer.body = {
        error: 'invalid_client',
        // A careless server echoes what it was sent.
        error_description: `client authentication failed for ${request.authorization}`,
      };
    });
    const errors = collectErrors();
    const wrong = `${CLIENT_SECRET}-wrong`;
    const error = await credentials({ clientSecret: wrong })().catch((caught: unknown) => caught);
    errors.add(error);
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({
      name: 'OAuthError',
      status: 401,
      code: 'invalid_client',
      method: 'POST',
      url: auth.tokenUrl,
    });
    expect((error as Error).message).toMatch(/^The authorization server refused the token request/);
    expect((error as Error).message).toContain('(401 invalid_client from POST');
    expectNoSecretsIn(errors.all, [wrong, btoa(`${CLIENT_ID}:${wrong}`)]);
  });

  it('names invalid_scope and the other RFC 6749 codes as the server gives them', async () => {
    auth.shape((answer) => {
      answer.statusCode = 400;
      answer.body = { error: 'invalid_scope' };
    });
    await expect(credentials({ scope: 'everything' })()).rejects.toMatchObject({
      status: 400,
      code: 'invalid_scope',
      message: expect.stringContaining('400 invalid_scope'),
    });
  });

  it('an answer that is not OAuth JSON still gives the status and a readable message', async () => {
    auth.shape((answer) => {
      answer.statusCode = 403;
      answer.body = '<html><title>Forbidden by proxy</title></html>';
    });
    await expect(credentials()()).rejects.toMatchObject({
      name: 'OAuthError',
      status: 403,
      code: 'http_403',
      message: expect.stringContaining('Forbidden by proxy'),
    });
  });

  it('a 200 without an access token is an InvalidResponseError, and the body is not kept', async () => {
    auth.shape((answer) => {
      answer.body = { token_type: 'Bearer', not_a_token: 'secret-looking-value' };
    });
    const error = await credentials()().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'InvalidResponseError', status: 200 });
    expect(inspect(error, { showHidden: true, depth: 10 })).not.toContain('secret-looking-value');
  });

  it('an unreachable server is an ApiConnectionError naming the URL', async () => {
    const { issuer } = auth;
    await auth.close();
    auth = await startOAuthServer();
    const error = await credentials({ issuer, maxRetries: 0 })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect((error as ApiConnectionError).url).toBe(
      `${issuer}/.well-known/oauth-authorization-server`,
    );
  });

  it('keeps using a valid token, said once, while its early refresh fails', async () => {
    tokensLive(600);
    const provider = credentials();
    const held = await provider();
    auth.shape((answer) => {
      answer.statusCode = 400;
      answer.body = { error: 'invalid_client' };
    });
    advance(550_000);
    expect(await provider()).toBe(held);
    expect(await provider()).toBe(held);
    // Tried again after a pause, not on every call.
    expect(auth.tokenRequests).toHaveLength(2);
    advance(30_000);
    expect(await provider()).toBe(held);
    expect(auth.tokenRequests).toHaveLength(3);
    expect(lines.filter((line) => line.includes('could not be replaced'))).toHaveLength(1);
    advance(20_000);
    await expect(provider()).rejects.toMatchObject({ code: 'invalid_client' });
  });
});

describe('options', () => {
  const base = { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET };
  const refusal = (options: Partial<ClientCredentialsOptions>) => {
    try {
      clientCredentials({ ...base, ...options } as ClientCredentialsOptions);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(String(error)).not.toContain(CLIENT_SECRET);
      return (error as ConfigurationError).option;
    }
    return undefined;
  };

  it('refuses what cannot work, naming the option, before sending anything', () => {
    expect(refusal({ clientId: '' })).toBe('clientId');
    expect(refusal({ clientId: 'rc_short' })).toBe('clientId');
    expect(refusal({ clientSecret: '' })).toBe('clientSecret');
    expect(refusal({ issuer: 'http://auth.example.com' })).toBe('issuer');
    expect(refusal({ tokenUrl: 'ftp://127.0.0.1/token' })).toBe('tokenUrl');
    expect(refusal({ tokenUrl: CLIENT_SECRET })).toBe('tokenUrl');
    expect(refusal({ issuer: 'https://a.example', tokenUrl: 'https://a.example/t' })).toBe(
      'tokenUrl',
    );
    expect(refusal({ scope: 'users:read "all"' })).toBe('scope');
    expect(refusal({ authMethod: 'private_key_jwt' as never })).toBe('authMethod');
    expect(refusal({ expirySkewMs: -1 })).toBe('expirySkewMs');
    expect(refusal({ cache: { get: () => undefined } as never })).toBe('cache');
    expect(refusal({ timeout: 0 })).toBe('timeout');
    expect(auth.tokenRequests).toHaveLength(0);
  });

  it('takes http only to this machine', () => {
    for (const tokenUrl of [
      'http://localhost:8080/oauth/token',
      'http://127.0.0.1/oauth/token',
      'http://[::1]:9000/oauth/token',
      'https://auth.example.com/oauth/token',
    ]) {
      expect(refusal({ tokenUrl })).toBeUndefined();
    }
  });

  it('refuses to run in a browser-like runtime unless dangerouslyAllowBrowser is given', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    try {
      expect(refusal({})).toBe('dangerouslyAllowBrowser');
      expect(refusal({ dangerouslyAllowBrowser: true })).toBeUndefined();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
