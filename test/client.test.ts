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
