/**
 * Check 4b: Prism validates every request the SDK sends and every answer of the mock server
 * against openapi.json, as a proxy between the two.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { type Prism, startPrism, violationsOf } from './prism.js';
import { type Exchange, recordingFetch, runScenario, SCENARIO_KEYS } from './scenario.js';

let mock: MockServer | undefined;
let prism: Prism | undefined;

beforeAll(async () => {
  mock = await startMockServer({ keys: SCENARIO_KEYS });
  prism = await startPrism({ proxy: mock.url });
}, 60_000);

afterAll(async () => {
  await prism?.stop();
  await mock?.close();
});

it('finds no request or response violation in the SDK talking to the mock through Prism', async () => {
  const exchanges: Exchange[] = [];
  await runScenario(prism!.url, recordingFetch(exchanges));

  const statuses = new Set(exchanges.map((exchange) => exchange.status));
  for (const status of [200, 201, 204, 401, 403, 404, 409, 422, 429])
    expect(statuses).toContain(status);
  const operations = new Set(
    exchanges
      .filter((exchange) => exchange.status < 300)
      .map(({ method, url }) => `${method} ${url.pathname.replace(/[0-9a-f-]{36}$/, '{id}')}`),
  );
  expect(operations.size).toBe(18);

  const violations = exchanges.flatMap((exchange) =>
    violationsOf(exchange.response).map(
      (violation) =>
        `${exchange.method} ${exchange.url.pathname}${exchange.url.search} -> ${exchange.status}: ` +
        `${violation.location.join('.')} ${violation.message}`,
    ),
  );
  expect(violations).toEqual([]);
  // Prism logs each violation too; the log is the second witness.
  expect(prism!.log.filter((line) => /Violation:|Request terminated/.test(line))).toEqual([]);
}, 120_000);
