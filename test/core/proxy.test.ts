import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy, type ProxyServer } from 'proxy';
import { EnvHttpProxyAgent, ProxyAgent } from 'undici';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { Client } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';

// A forward proxy on 127.0.0.1 (TooTallNate's `proxy`, as Squid would be in an office) that
// records every request it is asked to pass on, and requires a Proxy-Authorization.
const PROXY_AUTHORIZATION = `Basic ${Buffer.from('alice:proxy-password').toString('base64')}`;

let mock: MockServer;
let proxy: ProxyServer;
let proxyUrl: string;
let seen: { method: string; url: string; authorized: boolean }[];
const mockHost = () => new URL(mock.url).host;

beforeAll(async () => {
  mock = await startMockServer({ host: '127.0.0.1', port: 0, seed: 5 });
  proxy = createProxy(createServer());
  proxy.authenticate = (request: IncomingMessage) => {
    const authorized = request.headers['proxy-authorization'] === PROXY_AUTHORIZATION;
    seen.push({ method: request.method ?? '', url: request.url ?? '', authorized });
    return authorized;
  };
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await mock.close();
});

beforeEach(() => {
  seen = [];
  mock.api.reset();
});

const clientOf = (options: ConstructorParameters<typeof Client>[0] = {}) =>
  new Client({ baseUrl: mock.url, apiKey: mock.api.testKey, maxRetries: 0, ...options });

it('sends every call through the ProxyAgent given as fetchOptions.dispatcher', async () => {
  const dispatcher = new ProxyAgent({ uri: proxyUrl, token: PROXY_AUTHORIZATION });
  try {
    const client = clientOf({ fetchOptions: { dispatcher } });
    const { data: users } = await client.users.list({ limit: 2 });
    const { data: user } = await client.users.get(users[0]!.id);
    expect(user.id).toBe(users[0]!.id);

    // undici tunnels through the proxy with CONNECT; the proxy opened one tunnel to the mock
    // (kept alive for the second call) and the mock answered both calls through it.
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.every((request) => request.method === 'CONNECT')).toBe(true);
    expect(seen.every((request) => request.url === mockHost() && request.authorized)).toBe(true);
    expect(mock.api.requests.map((request) => request.path)).toEqual([
      '/v1/users',
      `/v1/users/${users[0]!.id}`,
    ]);
  } finally {
    await dispatcher.close();
  }
});

it('takes a dispatcher per call, over the client', async () => {
  const dispatcher = new ProxyAgent({ uri: proxyUrl, token: PROXY_AUTHORIZATION });
  try {
    const client = clientOf();
    await client.teams.list();
    expect(seen).toEqual([]);
    await client.teams.list({}, { fetchOptions: { dispatcher } });
    expect(seen).toEqual([{ method: 'CONNECT', url: mockHost(), authorized: true }]);
    expect(mock.api.requests).toHaveLength(2);
  } finally {
    await dispatcher.close();
  }
});

it('fails with a typed connection error when the proxy refuses the call', async () => {
  const dispatcher = new ProxyAgent({ uri: proxyUrl, token: 'Basic d3Jvbmc6d3Jvbmc=' });
  try {
    const error = await clientOf({ fetchOptions: { dispatcher } })
      .users.list()
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ApiConnectionError' });
    expect(seen).toEqual([{ method: 'CONNECT', url: mockHost(), authorized: false }]);
    expect(mock.api.requests).toEqual([]);
  } finally {
    await dispatcher.close();
  }
});

it('follows HTTP_PROXY and NO_PROXY with EnvHttpProxyAgent', async () => {
  // The lower-case forms win in undici, as in curl: clear them so the upper-case ones count.
  vi.stubEnv('http_proxy', undefined);
  vi.stubEnv('no_proxy', undefined);
  vi.stubEnv('HTTP_PROXY', proxyUrl.replace('http://', 'http://alice:proxy-password@'));
  vi.stubEnv('NO_PROXY', '');
  const dispatcher = new EnvHttpProxyAgent();
  try {
    const client = clientOf({ fetchOptions: { dispatcher } });
    await client.rewards.list();
    expect(seen).toEqual([{ method: 'CONNECT', url: mockHost(), authorized: true }]);
    // NO_PROXY is read on every request: the mock's host now goes direct.
    vi.stubEnv('NO_PROXY', 'localhost,127.0.0.1');
    await client.rewards.list();
    expect(seen).toHaveLength(1);
    expect(mock.api.requests).toHaveLength(2);
  } finally {
    await dispatcher.close();
  }
});
