import { type ClientOptions, resolveConfig } from '../../src/core/config.js';
import { createTransport, type RequestOptions } from '../../src/core/request.js';

export const TEST_BASE_URL = 'http://api.test';
export const TEST_API_KEY = `rk_test_${'a1B2c3D4'.repeat(4)}`;

/** A transport as a client builds it, pointed at the test host. */
export function testTransport(options: ClientOptions = {}) {
  return createTransport(
    resolveConfig({ apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, ...options }),
  );
}

/** GET /v1/users through a fresh transport. */
export function getUsers(options: ClientOptions = {}, requestOptions?: RequestOptions) {
  return testTransport(options)({ method: 'GET', path: '/v1/users' }, requestOptions);
}
