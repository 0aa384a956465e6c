import { createMockApi } from '@employee-recognition/sdk/testing';
import { describe, expect, it } from 'vitest';
import { call, createClock } from './support.js';

describe('the request log', () => {
  it('records requests without the credential', async () => {
    const clock = createClock();
    const api = createMockApi({ now: clock.read });
    const recipient = api.store.users.all()[1]!.id;
    await call(api, 'POST', '/v1/recognitions?x=1', {
      body: { recipient_id: recipient, message: 'hi' },
      headers: { 'idempotency-key': 'abc' },
    });
    await call(api, 'POST', '/v1/recognitions', { body: 'not json' });
    await call(api, 'GET', '/v1/teams', { key: null, headers: { authorization: api.testKey } });
    expect(api.requests[0]).toEqual({
      id: 'req_000001',
      method: 'POST',
      path: '/v1/recognitions',
      query: { x: '1' },
      headers: {
        authorization: 'Bearer [redacted]',
        'content-type': 'application/json',
        'idempotency-key': 'abc',
      },
      body: { recipient_id: recipient, message: 'hi' },
      time: clock.now,
    });
    expect(api.requests[1]!.body).toBe('not json');
    expect(api.requests[2]!.headers.authorization).toBe('[redacted]');
    expect(JSON.stringify(api.requests)).not.toContain(api.testKey);
  });
});
