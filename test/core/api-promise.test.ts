import { describe, expect, it } from 'vitest';
import { ApiPromise } from '../../src/core/api-promise.js';

function answer(headers: Record<string, string>) {
  const response = new Response('{}', { headers });
  return Promise.resolve({
    response,
    body: { data: { id: 'u1' } },
    request: { method: 'GET' as const, path: '/v1/users/u1' },
  });
}

describe('ApiPromise', () => {
  it('resolves to the parsed body when awaited', async () => {
    const call = new ApiPromise(answer({}), (raw) => raw.body);
    await expect(call).resolves.toEqual({ data: { id: 'u1' } });
  });

  it('gives the response, request id and parsed rate limit through withResponse()', async () => {
    const call = new ApiPromise(
      answer({
        'x-request-id': 'req_1',
        'x-ratelimit-limit': '100',
        'x-ratelimit-remaining': '99',
        'x-ratelimit-reset': '1795000000',
      }),
      (raw) => raw.body,
    );
    const { data, response, requestId, rateLimit } = await call.withResponse();
    expect(data).toEqual({ data: { id: 'u1' } });
    expect(response).toBeInstanceOf(Response);
    expect(requestId).toBe('req_1');
    expect(rateLimit).toEqual({
      limit: 100,
      remaining: 99,
      reset: new Date(1_795_000_000_000),
      family: 'x-ratelimit',
    });
  });

  it('parses the body once however often it is awaited', async () => {
    let parses = 0;
    const call = new ApiPromise(answer({}), () => ++parses);
    await call;
    await call.withResponse();
    await call;
    expect(parses).toBe(1);
  });

  it('passes a failure to catch() and runs finally()', async () => {
    let finished = false;
    const call = new ApiPromise(Promise.reject(new Error('boom')), () => 1);
    await expect(call.finally(() => (finished = true))).rejects.toThrow('boom');
    await expect(call.catch((error) => (error as Error).message)).resolves.toBe('boom');
    expect(finished).toBe(true);
  });
});
