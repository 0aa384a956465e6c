import { inspect } from 'node:util';
import { ForceRetryError, HTTPError as KyHTTPError, TimeoutError as KyTimeoutError } from 'ky';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import {
  ApiConnectionError,
  ApiTimeoutError,
  ApiUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  EmployeeRecognitionError,
  HookError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from '../../src/core/errors.js';
import {
  type ApiKeyContext,
  type AttemptContext,
  ConfigurationError,
  type ResponseContext,
  type RetryContext,
} from '../../src/core/config.js';
import {
  errorBody,
  getUsers,
  ok,
  settleWithFakeTimers,
  TEST_API_KEY,
  TEST_BASE_URL,
  testTransport,
  USERS_URL,
  useScriptedServer,
} from '../support/core.js';

const { server, script } = useScriptedServer();

describe('authentication', () => {
  it('sends the API key as a Bearer credential with JSON and SDK headers', async () => {
    const requests = script('get', USERS_URL, ok);
    await getUsers();
    const headers = requests[0]!.headers;
    expect(headers.get('authorization')).toBe(`Bearer ${TEST_API_KEY}`);
    expect(headers.get('accept')).toBe('application/json');
    expect(headers.get('user-agent')).toMatch(
      /^employee-recognition-sdk-typescript\/\d+\.\d+\.\d+ node\//,
    );
  });

  it('calls an async token function before every attempt, so a retry carries a fresh token', async () => {
    const requests = script('get', USERS_URL, () => new HttpResponse(null, { status: 503 }), ok);
    let issued = 0;
    const apiKey = async () => `oauth-token-${++issued}`;
    await settleWithFakeTimers(() => getUsers({ apiKey }));
    expect(requests.map((request) => request.headers.get('authorization'))).toEqual([
      'Bearer oauth-token-1',
      'Bearer oauth-token-2',
    ]);
  });

  it('fails without sending when the token function throws, keeping the cause', async () => {
    const requests = script('get', USERS_URL, ok);
    const cause = new Error('refresh failed');
    const error = await getUsers({ apiKey: () => Promise.reject(cause) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmployeeRecognitionError);
    expect((error as Error).cause).toBe(cause);
    expect(requests).toHaveLength(0);
  });

  it('rejects a token function result that is not a usable credential, locally', async () => {
    const requests = script('get', USERS_URL, ok);
    const error = await getUsers({ apiKey: async () => 'has space' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, local: true });
    expect(requests).toHaveLength(0);
  });
});

describe('errors from answers', () => {
  const cases = [
    [400, 'invalid_request', BadRequestError],
    [401, 'unauthorized', AuthenticationError],
    [403, 'insufficient_scope', PermissionDeniedError],
    [404, 'not_found', NotFoundError],
    [409, 'conflict', ConflictError],
    [422, 'validation_error', UnprocessableEntityError],
    [429, 'rate_limited', RateLimitError],
    [500, 'internal_error', InternalServerError],
    [503, 'unavailable', InternalServerError],
  ] as const;

  it.each(cases)('status %i gives %s as its own class', async (status, code, ErrorClass) => {
    const details = [{ field: 'recipient_id', message: 'must be a UUID' }];
    script('get', USERS_URL, () =>
      HttpResponse.json(errorBody(code, `service says ${code}`, details), {
        status,
        headers: { 'x-request-id': `req_${status}`, 'retry-after': '120' },
      }),
    );
    const error = await getUsers({ maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toMatchObject({
      status,
      code,
      message: `service says ${code} (${status} ${code} from GET ${USERS_URL})`,
      requestId: `req_${status}`,
      details,
      local: false,
      method: 'GET',
      url: USERS_URL,
    });
    expect((error as { headers: Headers }).headers.get('x-request-id')).toBe(`req_${status}`);
  });

  it('reports an HTML page from a proxy by its status and title', async () => {
    script(
      'get',
      USERS_URL,
      () =>
        new HttpResponse(
          '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>',
          {
            status: 502,
            headers: { 'content-type': 'text/html' },
          },
        ),
    );
    const error = await getUsers({ maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, code: 'http_502', details: undefined });
    expect((error as Error).message).toContain('502 Bad Gateway');
  });

  it('reports an empty body by its status', async () => {
    script(
      'get',
      USERS_URL,
      () => new HttpResponse(null, { status: 404, statusText: 'Not Found' }),
    );
    const error = await getUsers().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: 'not_found' });
    expect((error as Error).message).toBe(
      `404 Not Found (empty body) (404 not_found from GET ${USERS_URL})`,
    );
  });

  it('reports truncated JSON as text, without a parse error', async () => {
    script('get', USERS_URL, () => new HttpResponse('{"error": {"code": "inval', { status: 400 }));
    const error = await getUsers().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toContain('{"error": {"code": "inval');
  });
});

describe('RFC 9457 problem details', () => {
  const problem = (body: unknown, status: number, type = 'application/problem+json') =>
    script(
      'get',
      USERS_URL,
      () =>
        new HttpResponse(JSON.stringify(body), {
          status,
          headers: { 'content-type': type, 'x-request-id': 'req_problem' },
        }),
    );

  it("reads message from detail, type, and details from the errors member; code stays the status's", async () => {
    problem(
      {
        type: 'https://problems.example/validation',
        title: 'Your request is not valid.',
        status: 422,
        detail: 'The recognition has 2 problems.',
        errors: [
          { pointer: '#/recipient_id', detail: 'must be a UUID' },
          { pointer: '/profile/a~1b/0', detail: 'must be 1 or more' },
          { detail: 'no pointer: left out' },
          'not an object',
        ],
      },
      422,
    );
    const error = await getUsers().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error).toMatchObject({
      status: 422,
      code: 'validation_error',
      type: 'https://problems.example/validation',
      message: `The recognition has 2 problems. (422 validation_error from GET ${USERS_URL})`,
      requestId: 'req_problem',
      details: [
        { field: 'recipient_id', message: 'must be a UUID' },
        { field: 'profile.a~1b.0', message: 'must be 1 or more' },
      ],
    });
  });

  it('takes code from a code member, message from title without detail, type about:blank when absent', async () => {
    problem({ title: 'Not Found', status: 404, code: 'user_missing' }, 404);
    const error = await getUsers().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: 'user_missing', type: 'about:blank' });
    expect((error as Error).message).toBe(`Not Found (404 user_missing from GET ${USERS_URL})`);
  });

  it('recognizes a problem sent as application/json by its members', async () => {
    problem(
      { type: 'about:blank', title: 'Forbidden', status: 403, detail: 'Missing users:read' },
      403,
      'application/json',
    );
    const error = await getUsers().catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'insufficient_scope',
      message: expect.stringMatching(/^Missing users:read /),
    });
  });

  it("leaves type undefined for the contract's body and any other, and ignores members of the wrong type", async () => {
    script('get', USERS_URL, () =>
      HttpResponse.json(errorBody('not_found', 'gone'), { status: 404 }),
    );
    expect(await getUsers().catch((e: unknown) => e)).toMatchObject({
      type: undefined,
      message: expect.stringMatching(/^gone /),
    });
    problem({ type: 42, title: ['x'], detail: null, code: {}, errors: 'all' }, 400);
    const error = await getUsers().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({
      code: 'invalid_request',
      type: 'about:blank',
      details: undefined,
    });
    expect((error as Error).message).toMatch(/^400/);
  });

  it('keeps at most 100 details of 200-character excerpts, control characters escaped and the key redacted', async () => {
    problem(
      {
        title: 'Bad',
        detail: `echo ${TEST_API_KEY}\u001b[31m`,
        type: `https://problems.example/${'t'.repeat(300)}`,
        errors: Array.from({ length: 5000 }, (_, index) => ({
          pointer: `/f${index}`,
          detail: `${TEST_API_KEY} ${'x'.repeat(300)}`,
        })),
      },
      400,
    );
    const error = (await getUsers().catch((e: unknown) => e)) as BadRequestError;
    expect(error.details).toHaveLength(100);
    expect(error.details![0]!.message.length).toBeLessThanOrEqual(201);
    expect(error.type!.length).toBeLessThanOrEqual(201);
    expect(JSON.stringify([error.message, error.details, error.type])).not.toContain(TEST_API_KEY);
    expect(error.message).not.toContain('\u001b');
  });
});

describe('the wait for a credential', () => {
  /** A token function that never answers, keeping the context of each time it was asked. */
  function hangingTokenFunction() {
    const contexts: ApiKeyContext[] = [];
    const apiKey = (context: ApiKeyContext) => {
      contexts.push(context);
      return new Promise<string>(() => {});
    };
    return { apiKey, contexts };
  }

  it("ends at the caller's abort with ApiUserAbortError, nothing sent, and tells the function", async () => {
    const requests = script('get', USERS_URL, ok);
    const { apiKey, contexts } = hangingTokenFunction();
    const controller = new AbortController();
    const { error, elapsed } = await settleWithFakeTimers(() => {
      setTimeout(() => controller.abort(new Error('user left')), 300);
      return getUsers({ apiKey }, { signal: controller.signal });
    });
    expect(error).toBeInstanceOf(ApiUserAbortError);
    expect((error as Error).cause).toEqual(new Error('user left'));
    expect(elapsed).toBe(300);
    expect(requests).toHaveLength(0);
    expect(contexts).toHaveLength(1);
    expect(contexts[0]!.signal?.aborted).toBe(true);
  });

  it('ends at the call’s timeout with ApiTimeoutError, not retried, nothing sent', async () => {
    const requests = script('get', USERS_URL, ok);
    const { apiKey, contexts } = hangingTokenFunction();
    const { error, elapsed } = await settleWithFakeTimers(() =>
      getUsers({ apiKey, maxRetries: 2 }, { timeout: 500 }),
    );
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect((error as Error).message).toBe(
      `GET ${USERS_URL} timed out after 500 ms waiting for its credential.`,
    );
    expect(elapsed).toBe(500);
    expect(requests).toHaveLength(0);
    // The next attempt would wait on the same token request: the timeout is final.
    expect(contexts).toHaveLength(1);
    expect(contexts[0]!.signal?.reason).toBe(error);
  });

  it('is bounded by the default timeout too', async () => {
    const { apiKey } = hangingTokenFunction();
    const { error, elapsed } = await settleWithFakeTimers(() => getUsers({ apiKey }));
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(elapsed).toBe(30_000);
  });

  it('bounds the wait of a retry’s credential as the first one’s', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const requests = script('get', USERS_URL, () => new HttpResponse(null, { status: 503 }));
    let asked = 0;
    const apiKey = () => (++asked === 1 ? 'first-token-1' : new Promise<string>(() => {}));
    const { error, elapsed } = await settleWithFakeTimers(() =>
      getUsers({ apiKey, timeout: 1000 }),
    );
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(requests).toHaveLength(1);
    // The 503's backoff (500 ms), then the retry's credential wait.
    expect(elapsed).toBe(500 + 1000);
  });

  it('holds no rate-limit place while the credential is awaited: another call goes first', async () => {
    const requests = script('get', USERS_URL, ok);
    let release: ((token: string) => void) | undefined;
    const apiKey = ({ forceRefresh }: ApiKeyContext) =>
      release === undefined && !forceRefresh
        ? new Promise<string>((resolve) => (release = resolve))
        : 'second-token-1';
    // A fresh window lets one request be in flight: a place held by the waiting call would
    // keep the second call queued behind it.
    const send = testTransport({ apiKey, rateLimit: 'auto' });
    const first = send({ method: 'GET', path: '/v1/users' });
    await vi.waitFor(() => expect(release).toBeDefined());
    await send({ method: 'GET', path: '/v1/users' });
    expect(requests.map((request) => request.headers.get('authorization'))).toEqual([
      'Bearer second-token-1',
    ]);
    release!('first-token-1');
    await first;
    expect(requests).toHaveLength(2);
  });
});

describe('timeouts and cancellation', () => {
  const hang = () => new Promise<Response>(() => {});

  it('abandons an attempt after `timeout` ms, retries it, then gives ApiTimeoutError', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const requests = script('get', USERS_URL);
    server.use(
      http.get(USERS_URL, ({ request }) => {
        requests.push(request);
        return hang();
      }),
    );
    const { error, elapsed } = await settleWithFakeTimers(() =>
      getUsers({ timeout: 1000, maxRetries: 1 }),
    );
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect((error as Error).message).toBe(`GET ${USERS_URL} timed out after 1000 ms.`);
    expect(error).toMatchObject({ method: 'GET', url: USERS_URL });
    expect(requests).toHaveLength(2);
    expect(elapsed).toBe(1000 + 500 + 1000);
  });

  it('times out a fetch of the caller’s that ignores its signal, and cancels its late answer', async () => {
    let late: Response | undefined;
    const fetch = () =>
      new Promise<Response>((resolve) => {
        setTimeout(() => resolve((late = new Response('{"data": []}'))), 5000);
      });
    let settledAt = 0;
    const { error } = await settleWithFakeTimers(() =>
      getUsers({ fetch, timeout: 1000, maxRetries: 0 }).finally(() => (settledAt = Date.now())),
    );
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(settledAt - (Date.now() - 5000)).toBe(1000);
    // The answer that came after the call had left was cancelled: its body reads as ended.
    expect(await late!.body!.getReader().read()).toEqual({ done: true, value: undefined });
  });

  it('takes the timeout per call over the client setting', async () => {
    server.use(http.get(USERS_URL, hang));
    const { error, elapsed } = await settleWithFakeTimers(() =>
      getUsers({ timeout: 60_000, maxRetries: 0 }, { timeout: 250 }),
    );
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(elapsed).toBe(250);
  });

  it('cancels at once when the caller aborts, even while waiting to retry', async () => {
    const requests = script('get', USERS_URL, () =>
      HttpResponse.json(errorBody('rate_limited', 'slow down'), {
        status: 429,
        headers: { 'retry-after': '30' },
      }),
    );
    const controller = new AbortController();
    const call = getUsers({}, { signal: controller.signal });
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    controller.abort(new Error('user left'));
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiUserAbortError);
    expect((error as Error).cause).toEqual(new Error('user left'));
    expect(requests).toHaveLength(1);
  });

  it('fails at once for a signal that is already aborted', async () => {
    const requests = script('get', USERS_URL, ok);
    const error = await getUsers({}, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiUserAbortError);
    expect(requests).toHaveLength(0);
  });
});

describe('token refresh', () => {
  it('after a 401, calls the token function with forceRefresh and retries once', async () => {
    const requests = script(
      'get',
      USERS_URL,
      () => HttpResponse.json(errorBody('unauthorized', 'expired'), { status: 401 }),
      ok,
    );
    const calls: boolean[] = [];
    const apiKey = ({ forceRefresh }: { forceRefresh: boolean }) => {
      calls.push(forceRefresh);
      return forceRefresh ? 'fresh-token-123' : 'stale-token-123';
    };
    await getUsers({ apiKey, maxRetries: 0 });
    expect(calls).toEqual([false, true]);
    expect(requests.map((request) => request.headers.get('authorization'))).toEqual([
      'Bearer stale-token-123',
      'Bearer fresh-token-123',
    ]);
  });

  it('names the refused credential, so a token provider refreshes only the token it still holds', async () => {
    script(
      'get',
      USERS_URL,
      () => HttpResponse.json(errorBody('unauthorized', 'expired'), { status: 401 }),
      ok,
    );
    const contexts: ApiKeyContext[] = [];
    const apiKey = (context: ApiKeyContext) => {
      contexts.push(context);
      return context.forceRefresh ? 'fresh-token-123' : 'stale-token-123';
    };
    await getUsers({ apiKey });
    expect(contexts).toEqual([
      { forceRefresh: false, signal: expect.any(AbortSignal) },
      { forceRefresh: true, refused: 'stale-token-123', signal: expect.any(AbortSignal) },
    ]);
  });

  it('refreshes once after the retries are spent: the refresh is not one of maxRetries', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const requests = script(
      'get',
      USERS_URL,
      () => new HttpResponse(null, { status: 503 }),
      () => new HttpResponse(null, { status: 503 }),
      () => HttpResponse.json(errorBody('unauthorized', 'expired'), { status: 401 }),
      ok,
    );
    const { error, value } = await settleWithFakeTimers(() =>
      getUsers({
        apiKey: ({ forceRefresh }) => (forceRefresh ? 'fresh-token-1' : 'old-token-1'),
        maxRetries: 2,
      }),
    );
    expect(error).toBeUndefined();
    expect(value).toBeDefined();
    expect(requests.map((request) => request.headers.get('authorization'))).toEqual([
      'Bearer old-token-1',
      'Bearer old-token-1',
      'Bearer old-token-1',
      'Bearer fresh-token-1',
    ]);
  });

  it('takes a second 401 as final', async () => {
    const requests = script('get', USERS_URL, () =>
      HttpResponse.json(errorBody('unauthorized', 'revoked'), { status: 401 }),
    );
    const error = await getUsers({ apiKey: () => 'some-oauth-token' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(requests).toHaveLength(2);
  });

  it('never refreshes a fixed API key: its 401 is final at once', async () => {
    const requests = script('get', USERS_URL, () =>
      HttpResponse.json(errorBody('unauthorized', 'unknown key'), { status: 401 }),
    );
    await expect(getUsers()).rejects.toBeInstanceOf(AuthenticationError);
    expect(requests).toHaveLength(1);
  });
});

describe('hooks', () => {
  it('sees every attempt, each retry with its reason and wait, and the final error', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    script('get', USERS_URL, () => new HttpResponse(null, { status: 503 }));
    const seen: string[] = [];
    const hooks = {
      beforeRequest: [
        ({ attempt, headers }: AttemptContext) => {
          seen.push(`request ${attempt} auth=${headers.has('authorization')}`);
        },
      ],
      afterResponse: [
        ({ attempt, status }: ResponseContext) => {
          seen.push(`response ${attempt} ${status}`);
        },
      ],
      beforeRetry: [
        ({ attempt, reason, delayMs }: RetryContext) => {
          seen.push(`retry after ${attempt}: ${reason} in ${delayMs} ms`);
        },
      ],
      beforeError: [
        (error: Error, { attempt }: AttemptContext) => {
          seen.push(`error after ${attempt}: ${error.name}`);
        },
      ],
    };
    await settleWithFakeTimers(() => getUsers({ hooks, maxRetries: 1 }));
    expect(seen).toEqual([
      'request 1 auth=false',
      'response 1 503',
      'retry after 1: status 503 in 500 ms',
      'request 2 auth=false',
      'response 2 503',
      'error after 2: InternalServerError',
    ]);
  });

  it('runs the client hooks before the call hooks', async () => {
    script('get', USERS_URL, ok);
    const order: string[] = [];
    await getUsers(
      { hooks: { beforeRequest: [() => void order.push('client')] } },
      { hooks: { beforeRequest: [() => void order.push('call')] } },
    );
    expect(order).toEqual(['client', 'call']);
  });

  it('fails the call with HookError when a hook throws, sending nothing after it', async () => {
    const requests = script('get', USERS_URL, ok);
    const cause = new Error('metrics down');
    const error = await getUsers({
      hooks: { beforeRequest: [() => Promise.reject(cause)] },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookError);
    expect(error).toMatchObject({ hook: 'beforeRequest', cause });
    expect(requests).toHaveLength(0);
  });

  it('runs beforeError with the HookError of another hook, so what a hook opened can close', async () => {
    script('get', USERS_URL, ok);
    const closed: string[] = [];
    const error = await getUsers({
      hooks: {
        beforeRequest: [
          () => {
            throw new Error('tracer down');
          },
        ],
        beforeError: [(failure) => void closed.push(failure.name)],
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookError);
    expect(closed).toEqual(['HookError']);
  });

  it('cancels the answer when an afterResponse hook throws', async () => {
    script('get', USERS_URL, ok);
    const error = await getUsers({
      hooks: {
        afterResponse: [
          () => {
            throw new Error('no');
          },
        ],
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookError);
  });
});

describe('logging', () => {
  function recorder() {
    const lines: string[] = [];
    const logger = {
      debug: (line: string) => void lines.push(`debug ${line}`),
      info: (line: string) => void lines.push(`info ${line}`),
      warn: (line: string) => void lines.push(`warn ${line}`),
      error: (line: string) => void lines.push(`error ${line}`),
    };
    return { lines, logger };
  }

  it('logs every attempt at debug, with status, attempt and request id, never the credential', async () => {
    script('get', USERS_URL, ok);
    const { lines, logger } = recorder();
    await getUsers({ logger, logLevel: 'debug' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^debug .*GET http:\/\/api\.test\/v1\/users -> 200 in \d+ ms \(attempt 1, request id req_ok\)/,
    );
    expect(lines.join('\n')).not.toContain(TEST_API_KEY);
  });

  it('logs a wait over a second at info with its cause', async () => {
    script(
      'get',
      USERS_URL,
      () =>
        HttpResponse.json(errorBody('rate_limited', 'slow down'), {
          status: 429,
          headers: { 'retry-after': '57' },
        }),
      ok,
    );
    const { lines, logger } = recorder();
    await settleWithFakeTimers(() => getUsers({ logger, logLevel: 'info' }));
    expect(lines).toEqual([
      `info [employee-recognition] waiting 57 s (Retry-After) before retry 1 of 2 of GET ${USERS_URL}`,
    ]);
  });

  it('redacts an echoed credential and webhook secrets from debug bodies', async () => {
    script('get', USERS_URL, () =>
      HttpResponse.json({ data: [], echo: TEST_API_KEY, secret: 'whsec_c2VjcmV0LXNlY3JldA==' }),
    );
    const { lines, logger } = recorder();
    await getUsers({ logger, logLevel: 'debug' });
    expect(lines.join('\n')).not.toMatch(/rk_test_a1B2|whsec_c2Vj/);
  });

  it('writes nothing at logLevel off, and survives a logger that throws', async () => {
    script('get', USERS_URL, ok);
    const throwing = () => {
      throw new Error('logger down');
    };
    const logger = { debug: throwing, info: throwing, warn: throwing, error: throwing };
    await expect(getUsers({ logger, logLevel: 'debug' })).resolves.toBeDefined();
  });
});

describe('fetchOptions', () => {
  it('passes the client and call fetchOptions to every fetch, the call over the client', async () => {
    const inits: RequestInit[] = [];
    const fetch = async (_url: RequestInfo | URL, init?: RequestInit) => {
      inits.push(init ?? {});
      return Response.json({ data: [] });
    };
    const dispatcher = { name: 'proxy' };
    await getUsers(
      { fetch, fetchOptions: { dispatcher, keepalive: true } },
      { fetchOptions: { keepalive: false } },
    );
    expect(inits[0]).toMatchObject({ dispatcher, keepalive: false, redirect: 'manual' });
  });
});

describe('headers', () => {
  it.each(['Idempotency-Key', 'IDEMPOTENCY-KEY', 'idempotency-key'])(
    'sends a caller’s %s as the only Idempotency-Key',
    async (name) => {
      const requests = script('post', `${TEST_BASE_URL}/v1/recognitions`, () =>
        HttpResponse.json({ data: {} }, { status: 201 }),
      );
      await testTransport()(
        { method: 'POST', path: '/v1/recognitions', body: {} },
        { headers: { [name]: 'order-42' } },
      );
      expect(requests[0]!.headers.get('idempotency-key')).toBe('order-42');
    },
  );

  it.each([
    ['a line break', { 'x-note': 'a\r\nb: c' }],
    ['a non-Latin-1 character', { 'x-note': 'thanks ✓' }],
    ['a bad name', { 'x note': 'a' }],
  ])('refuses a header with %s, naming the option and not the value', async (_case, headers) => {
    const requests = script('get', USERS_URL, ok);
    const error = await getUsers({}, { headers }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ option: 'headers' });
    expect((error as Error).message).not.toContain('b: c');
    expect(requests).toHaveLength(0);
  });
});

describe('no ky object leaves the engine', () => {
  // ky's errors hold the Request, and with it the Authorization header.
  const isKyObject = (value: unknown) =>
    value instanceof Request ||
    value instanceof KyHTTPError ||
    value instanceof KyTimeoutError ||
    value instanceof ForceRetryError;

  /** Every object reachable from `root` through own properties and `cause`. */
  function reachable(root: unknown): unknown[] {
    const seen = new Set<unknown>();
    const pending = [root];
    while (pending.length > 0) {
      const value = pending.pop();
      if (value === null || (typeof value !== 'object' && typeof value !== 'function')) continue;
      if (seen.has(value)) continue;
      seen.add(value);
      for (const key of Reflect.ownKeys(value)) {
        const descriptor = Object.getOwnPropertyDescriptor(value, key);
        if (descriptor && 'value' in descriptor) pending.push(descriptor.value);
      }
      if (value instanceof Error) pending.push(value.cause);
    }
    return [...seen];
  }

  const hang = () => new Promise<Response>(() => {});
  const failures: Array<[string, () => void, ClientOptionsForCase?, RequestOptionsForCase?]> = [
    ['a timeout', () => server.use(http.get(USERS_URL, hang)), { timeout: 100, maxRetries: 1 }],
    [
      '503s past maxRetries',
      () => script('get', USERS_URL, () => new HttpResponse(null, { status: 503 })),
    ],
    [
      'a second 401 after a refresh',
      () => script('get', USERS_URL, () => new HttpResponse(null, { status: 401 })),
      { apiKey: () => 'token-refused-twice' },
    ],
    ['a connection failure', () => server.use(http.get(USERS_URL, () => HttpResponse.error()))],
    [
      'a redirect loop',
      () =>
        script(
          'get',
          USERS_URL,
          () => new HttpResponse(null, { status: 302, headers: { location: USERS_URL } }),
        ),
    ],
    [
      'a body over the cap',
      () => script('get', USERS_URL, () => HttpResponse.json({ data: 'x'.repeat(100) })),
      { maxResponseBytes: 10 },
    ],
    [
      'a hook that throws',
      () => script('get', USERS_URL, ok),
      {
        hooks: {
          afterResponse: [
            () => {
              throw new Error('hook down');
            },
          ],
        },
      },
    ],
    [
      'an abort',
      () => script('get', USERS_URL, ok),
      {},
      { signal: AbortSignal.abort(new Error('left')) },
    ],
  ];

  it.each(failures)(
    '%s: the error, its causes and every hook argument hold none',
    async (_case, arrange, options = {}, call) => {
      vi.spyOn(Math, 'random').mockReturnValue(0);
      arrange();
      const seen: unknown[] = [];
      const record = (...args: unknown[]) => void seen.push(...args);
      const hooks = {
        beforeRequest: [record],
        afterResponse: [record, ...(options.hooks?.afterResponse ?? [])],
        beforeRetry: [record],
        beforeError: [record],
      };
      const logger = { debug: record, info: record, warn: record, error: record };
      const { error } = await settleWithFakeTimers(() =>
        getUsers({ ...options, hooks, logger, logLevel: 'debug' }, call),
      );
      expect(error).toBeInstanceOf(EmployeeRecognitionError);
      const everything = [error, ...seen].flatMap(reachable);
      expect(everything.filter(isKyObject)).toEqual([]);
      expect(inspect(error, { depth: 10, showHidden: true })).not.toMatch(
        /HTTPError|TimeoutError \[|ForceRetryError|Forced retry/,
      );
    },
  );
});

type ClientOptionsForCase = Parameters<typeof getUsers>[0] & {
  hooks?: { afterResponse?: Array<() => void> };
};
type RequestOptionsForCase = Parameters<typeof getUsers>[1];
