import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../src/client.js';
import { TEST_API_KEY, TEST_BASE_URL, testTransport } from './support/core.js';

const server = setupServer(
  http.get(`${TEST_BASE_URL}/v1/users`, () =>
    HttpResponse.json(
      { error: { code: 'unauthorized', message: 'Unknown API key' } },
      { status: 401, headers: { 'x-request-id': 'req_401' } },
    ),
  ),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

/** Every way a value is commonly turned into text: logs, JSON, inspection, string coercion. */
function renderings(value: unknown): string[] {
  return [
    inspect(value, { depth: 10, showHidden: true, getters: true }),
    JSON.stringify(value) ?? '',
    String(value),
    `${(value as Error).stack ?? ''}`,
  ];
}

describe('Client', () => {
  it('exposes its settings', () => {
    const client = new Client({
      apiKey: TEST_API_KEY,
      baseUrl: `${TEST_BASE_URL}/v1/`,
      timeout: 5000,
      maxRetries: 4,
    });
    expect(client).toMatchObject({ baseUrl: TEST_BASE_URL, timeout: 5000, maxRetries: 4 });
  });

  it('never shows the credential when logged, inspected or serialized', () => {
    const client = new Client({ apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL });
    for (const text of renderings(client)) expect(text).not.toContain(TEST_API_KEY);
    expect(inspect(client)).toContain(TEST_BASE_URL);
  });

  it('never shows the credential in an error from the service', async () => {
    const error = await testTransport()({ method: 'GET', path: '/v1/users' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    for (const text of renderings(error)) {
      expect(text).not.toContain(TEST_API_KEY);
      expect(text).not.toContain('a1B2c3D4');
    }
  });
});

describe('raw requests', () => {
  it('GETs any /v1/ path with the query, auth and typed errors of the SDK', async () => {
    const seen: Request[] = [];
    server.use(
      http.get(`${TEST_BASE_URL}/v1/things`, ({ request }) => {
        seen.push(request);
        return HttpResponse.json({ data: { ok: true } });
      }),
    );
    const client = new Client({ apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL });
    const body = await client.get<{ data: { ok: boolean } }>('/v1/things', {
      query: { beta: true, skip: undefined },
    });
    expect(body.data.ok).toBe(true);
    expect(new URL(seen[0]!.url).search).toBe('?beta=true');
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${TEST_API_KEY}`);
    await expect(client.get('/v1/users')).rejects.toMatchObject({ status: 401 });
  });

  it('POSTs a JSON body with an Idempotency-Key', async () => {
    const seen: Request[] = [];
    server.use(
      http.post(`${TEST_BASE_URL}/v1/things`, async ({ request }) => {
        seen.push(request.clone());
        return HttpResponse.json({ data: await request.json() }, { status: 201 });
      }),
    );
    const client = new Client({ apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL });
    await expect(client.post('/v1/things', { body: { a: 1 } })).resolves.toEqual({
      data: { a: 1 },
    });
    expect(seen[0]!.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    'v1/users',
    '/users',
    'https://evil.example/v1/users',
    '//evil.example/v1/users',
    '/v1//users',
    '/v1/../admin',
    '/v1/%2e%2e/admin',
    '/v1/users?x=1',
    '/v1/users#x',
    '/v1/us ers',
  ])('refuses the path %s before sending', async (path) => {
    const client = new Client({ apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL });
    await expect(client.get(path)).rejects.toMatchObject({
      name: 'ConfigurationError',
      option: 'path',
    });
  });

  it('pages through any list with getPage', async () => {
    server.use(
      http.get(`${TEST_BASE_URL}/v1/things`, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? 1);
        return HttpResponse.json({
          data: [{ id: `t${page}` }],
          pagination: { page, total_pages: 3, next_cursor: null },
        });
      }),
    );
    const client = new Client({ apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL });
    const ids: unknown[] = [];
    for await (const thing of client.getPage<{ id: string }>('/v1/things', {
      query: { page: 1 },
    })) {
      ids.push(thing.id);
    }
    expect(ids).toEqual(['t1', 't2', 't3']);
  });
});

describe('withOptions', () => {
  it('makes a client with some options changed that shares the credential', async () => {
    const seen: Request[] = [];
    server.use(
      http.get(`${TEST_BASE_URL}/v1/things`, ({ request }) => {
        seen.push(request);
        return HttpResponse.json({});
      }),
    );
    const client = new Client({ apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, timeout: 5000 });
    const derived = client.withOptions({ timeout: 1000, headers: { 'x-team': 'blue' } });
    expect(derived).toMatchObject({ timeout: 1000, baseUrl: TEST_BASE_URL });
    expect(client.timeout).toBe(5000);
    await derived.get('/v1/things');
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${TEST_API_KEY}`);
    expect(seen[0]!.headers.get('x-team')).toBe('blue');
    for (const text of renderings(derived)) expect(text).not.toContain(TEST_API_KEY);
  });
});
