import { afterEach, describe, expect, it, vi } from 'vitest';
import { OPERATIONS, type OperationName } from '../../src/contract.js';
import { Transport } from '../../src/core/request.js';
import { Client } from '../../src/index.js';
import type { ApiRequest } from '../../src/internal/exchange.js';
import { createMockApi } from '../../src/testing/index.js';

const mock = createMockApi({ seed: 42 });
const client = new Client({ fetch: mock.fetch, baseUrl: mock.baseUrl, apiKey: mock.testKey });
const ID = '00000000-0000-4000-8000-000000000000';

/** Each operation called as a customer would; the answers may be 404s, the requests are what count. */
const CALLS: Record<OperationName, () => PromiseLike<unknown>> = {
  'recognitions.list': () => client.recognitions.list(),
  'recognitions.get': () => client.recognitions.get(ID),
  'recognitions.create': () =>
    client.recognitions.create({ recipient_id: ID, message: 'Thanks!', points: 1 }),
  'recognitions.delete': () => client.recognitions.delete(ID),
  'users.list': () => client.users.list(),
  'users.get': () => client.users.get(ID),
  'rewards.list': () => client.rewards.list(),
  'rewards.get': () => client.rewards.get(ID),
  'teams.list': () => client.teams.list(),
  'teams.get': () => client.teams.get(ID),
  'webhooks.list': () => client.webhooks.list(),
  'webhooks.get': () => client.webhooks.get(ID),
  'webhooks.create': () =>
    client.webhooks.create({ url: 'https://example.com/hooks', events: ['*'] }),
  'webhooks.update': () => client.webhooks.update(ID, { enabled: false }),
  'webhooks.delete': () => client.webhooks.delete(ID),
  'budgets.list': () => client.budgets.list(),
  'budgets.get': () => client.budgets.get(ID),
  'analytics.summary': () => client.analytics.summary(),
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('OPERATIONS, the contract’s table of operations', () => {
  it.each(Object.keys(OPERATIONS) as OperationName[])(
    '%s names itself and sends the method and path its template gives',
    async (name) => {
      const send = vi.spyOn(Transport.prototype, 'send');
      await Promise.resolve(CALLS[name]()).then(
        () => undefined,
        () => undefined,
      );
      expect(send).toHaveBeenCalledTimes(1);
      const request = send.mock.calls[0]![0] as ApiRequest;
      const [method, template] = OPERATIONS[name].split(' ') as [string, string];
      expect(request.operation).toBe(name);
      expect(request.method).toBe(method);
      expect(request.path).toBe(template.replace('{id}', ID));
    },
  );

  it('leaves a raw request unnamed', async () => {
    const send = vi.spyOn(Transport.prototype, 'send');
    await client.get('/v1/users', { query: { limit: 1 } });
    expect((send.mock.calls[0]![0] as ApiRequest).operation).toBeUndefined();
  });
});
