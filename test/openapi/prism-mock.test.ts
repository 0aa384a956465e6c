/**
 * Check 4c: Prism serves random data generated from openapi.json (`-d`), and every read of the
 * SDK takes it 20 times under `validateResponses: 'strict'`: whatever the document allows, the
 * SDK reads without an InvalidResponseError or a drift warning, extra properties included.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from '../../src/index.js';
import { type Prism, startPrism, violationsOf } from './prism.js';
import { FULL_KEY } from './scenario.js';

const RUNS = 20;
const ID = '0b6c2f8e-8a5e-4c9f-9a53-8f1f2f3c4d5e';

let prism: Prism | undefined;

beforeAll(async () => {
  prism = await startPrism({ mock: ['--dynamic', '--seed', 'openapi'] });
}, 60_000);

afterAll(async () => {
  await prism?.stop();
});

const READS: Record<string, (client: Client) => Promise<unknown>> = {
  'recognitions.list': (client) => client.recognitions.list({ limit: 5 }),
  'recognitions.get': (client) => client.recognitions.get(ID),
  'users.list': (client) => client.users.list(),
  'users.get': (client) => client.users.get(ID),
  'rewards.list': (client) => client.rewards.list({ page: 2 }),
  'rewards.get': (client) => client.rewards.get(ID),
  'teams.list': (client) => client.teams.list(),
  'teams.get': (client) => client.teams.get(ID),
  'webhooks.list': (client) => client.webhooks.list(),
  'webhooks.get': (client) => client.webhooks.get(ID),
  'budgets.list': (client) => client.budgets.list(),
  'budgets.get': (client) => client.budgets.get(ID),
  'analytics.summary': (client) => client.analytics.summary('90d'),
};

it.each(Object.keys(READS))(
  `reads %s from Prism's random data ${RUNS} times without a finding`,
  async (name) => {
    const warnings: string[] = [];
    const violations: string[] = [];
    let run = 0;
    const client = new Client({
      apiKey: FULL_KEY,
      baseUrl: prism!.url,
      maxRetries: 0,
      // Prism makes up X-RateLimit-* values too: pacing by them is not what is under test.
      rateLimit: 'off',
      validateResponses: 'strict',
      // Each run its own seed (Prism's `Prefer: seed=…`): 20 different answers, the same on every
      // test run.
      fetch: async (input, init) => {
        const request = new Request(input, init);
        request.headers.set('prefer', `dynamic=true, seed=${name}-${run}`);
        const response = await fetch(request);
        for (const violation of violationsOf(response)) violations.push(violation.message);
        return response;
      },
      logger: {
        debug: () => undefined,
        info: () => undefined,
        warn: (message: string) => void warnings.push(message),
        error: (message: string) => void warnings.push(message),
      },
    });
    for (run = 0; run < RUNS; run++) await READS[name]!(client);
    expect(warnings).toEqual([]);
    expect(violations).toEqual([]);
  },
  60_000,
);
