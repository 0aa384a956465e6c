import { type ClientOptions, type RequestOptions, resolveConfig } from '../../src/core/config.js';
import { Transport } from '../../src/core/request.js';

export const TEST_BASE_URL = 'http://api.test';
export const TEST_API_KEY = `rk_test_${'a1B2c3D4'.repeat(4)}`;

/** A transport as a client builds it, pointed at the test host; pacing off unless asked for. */
export function testTransport(options: ClientOptions = {}) {
  const transport = new Transport(
    resolveConfig({ apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, rateLimit: 'off', ...options }),
  );
  return transport.send.bind(transport);
}

/** GET /v1/users through a fresh transport. */
export function getUsers(options: ClientOptions = {}, requestOptions?: RequestOptions) {
  return testTransport(options)({ method: 'GET', path: '/v1/users' }, requestOptions);
}
