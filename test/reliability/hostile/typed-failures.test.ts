/**
 * Every failure is an EmployeeRecognitionError. Ids that cannot be encoded, headers that cannot be
 * sent, and per-call options out of range fail locally, typed, naming the field or option, without
 * quoting a value that may be secret, and with nothing sent. `null` counts as absent.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Client,
  ConfigurationError,
  type RequestOptions,
  UnprocessableEntityError,
} from '@employee-recognition/sdk';
import {
  checkNoLeaks,
  closeAllServers,
  EMPTY_PAGE,
  expectNotShown,
  expectTyped,
  type HostileServer,
  json,
  RECOGNITION,
  rejection,
  startHostileServer,
  USER,
} from '../../support/hostile-server.js';

const API_KEY = `rk_test_${'TypedFa1lures'.repeat(2)}`;
/** A value that may be a secret: it must not show in any error. */
const SECRET_VALUE = 'S3cretHeaderValue-7f3a9c';
const UUID = RECOGNITION.id;

let server: HostileServer;
beforeEach(async () => {
  server = await startHostileServer((request, response) => {
    if (request.method === 'POST') json(response, 201, { data: RECOGNITION });
    else if (request.method === 'DELETE') {
      response.writeHead(204);
      response.end();
    } else if (/^\/v1\/users\/[^/?]+/.test(request.url)) json(response, 200, { data: USER });
    else json(response, 200, EMPTY_PAGE);
  });
});
checkNoLeaks();
afterEach(closeAllServers);

const client = (options: Record<string, unknown> = {}) =>
  new Client({ apiKey: API_KEY, baseUrl: server.url, maxRetries: 0, ...options });

async function expectConfigurationError(call: () => PromiseLike<unknown>, option: string) {
  let error: unknown;
  try {
    error = await rejection(call());
  } catch (thrown) {
    // A synchronous throw is as local as a rejection.
    error = thrown;
  }
  expectTyped(error);
  expect(error).toBeInstanceOf(ConfigurationError);
  expect((error as ConfigurationError).option).toBe(option);
  expectNotShown(error, [SECRET_VALUE, API_KEY]);
  expect(server.requests).toHaveLength(0);
}

describe('ids that cannot be encoded: a local UnprocessableEntityError naming the id', () => {
  const loneSurrogates = ['\uD800', `${UUID}\uDC00`, '\uDFFF\uD800', 'a\uD83D'];
  const byId = {
    'users.get': (c: Client, id: string) => c.users.get(id),
    'recognitions.get': (c: Client, id: string) => c.recognitions.get(id),
    'recognitions.delete': (c: Client, id: string) => c.recognitions.delete(id),
    'webhooks.update': (c: Client, id: string) => c.webhooks.update(id, { enabled: true }),
    'teams.get': (c: Client, id: string) => c.teams.get(id),
    'rewards.get': (c: Client, id: string) => c.rewards.get(id),
    'budgets.get': (c: Client, id: string) => c.budgets.get(id),
  };
  for (const [method, call] of Object.entries(byId)) {
    it(`${method} with lone surrogates`, async () => {
      for (const id of loneSurrogates) {
        const error = await rejection(call(client(), id));
        expectTyped(error);
        expect(error).toBeInstanceOf(UnprocessableEntityError);
        const invalid = error as UnprocessableEntityError;
        expect(invalid.local).toBe(true);
        expect(invalid.details?.map((detail) => detail.field)).toContain('id');
      }
      expect(server.requests).toHaveLength(0);
    });
  }
});

const UNSENDABLE_VALUES = {
  'CR/LF': `${SECRET_VALUE}\r\nX-Injected: 1`,
  'a lone LF': `${SECRET_VALUE}\nX-Injected: 1`,
  NUL: `${SECRET_VALUE}\u0000`,
  'non-Latin-1 (€)': `${SECRET_VALUE}€`,
  'an emoji': `${SECRET_VALUE}😀`,
  'a lone surrogate': `${SECRET_VALUE}\uD800`,
};
const UNSENDABLE_NAMES = {
  'a space': 'X Secret',
  'a colon': 'X:Secret',
  empty: '',
  'non-ASCII': 'X-Sécret',
  'CR/LF': 'X-A\r\nX-B',
};

describe('headers that cannot be sent: ConfigurationError naming the option, value not quoted', () => {
  for (const [name, value] of Object.entries(UNSENDABLE_VALUES)) {
    it(`client headers with ${name} in a value`, async () => {
      await expectConfigurationError(
        () => client({ headers: { 'X-Tenant': value } }).users.list(),
        'headers',
      );
    });

    it(`per-call headers with ${name} in a value`, async () => {
      await expectConfigurationError(
        () => client().users.list({}, { headers: { 'X-Tenant': value } }),
        'headers',
      );
    });

    it(`idempotencyKey with ${name}`, async () => {
      await expectConfigurationError(
        () =>
          client().recognitions.create(
            { recipient_id: USER.id, message: 'Thanks' },
            { idempotencyKey: value },
          ),
        'idempotencyKey',
      );
    });

    it(`an Idempotency-Key header with ${name}`, async () => {
      await expectConfigurationError(
        () =>
          client().recognitions.create(
            { recipient_id: USER.id, message: 'Thanks' },
            { headers: { 'Idempotency-Key': value } },
          ),
        'headers',
      );
    });
  }

  for (const [name, header] of Object.entries(UNSENDABLE_NAMES)) {
    it(`client and per-call header names with ${name}`, async () => {
      await expectConfigurationError(
        () => client({ headers: { [header]: 'x' } }).users.list(),
        'headers',
      );
      await expectConfigurationError(
        () => client().users.list({}, { headers: { [header]: 'x' } }),
        'headers',
      );
    });
  }

  it('headers that are not strings', async () => {
    for (const headers of [
      { 'X-A': 1 },
      { 'X-A': { toString: () => SECRET_VALUE } },
      'X-A: 1',
      [['X-A']],
    ]) {
      await expectConfigurationError(
        () => client().users.list({}, { headers } as unknown as RequestOptions),
        'headers',
      );
    }
  });
});

describe('per-call maxRetries and timeout out of range: ConfigurationError, nothing sent', () => {
  const badRetries = [NaN, Infinity, -Infinity, -1, 1.5, 1e9, '2', true];
  const badTimeouts = [NaN, 0, -5, Infinity, -Infinity, 2 ** 31, '1000', {}];
  for (const maxRetries of badRetries) {
    it(`maxRetries: ${String(maxRetries)}`, async () => {
      await expectConfigurationError(
        () => client().users.list({}, { maxRetries } as unknown as RequestOptions),
        'maxRetries',
      );
      await expectConfigurationError(() => client({ maxRetries }).users.list(), 'maxRetries');
    });
  }
  for (const timeout of badTimeouts) {
    it(`timeout: ${String(timeout)}`, async () => {
      await expectConfigurationError(
        () => client().users.list({}, { timeout } as unknown as RequestOptions),
        'timeout',
      );
      await expectConfigurationError(() => client({ timeout }).users.list(), 'timeout');
    });
  }
  for (const maxResponseBytes of [0, -1, NaN, Infinity, 1.5, '8MB']) {
    it(`maxResponseBytes: ${String(maxResponseBytes)}`, async () => {
      await expectConfigurationError(
        () => client({ maxResponseBytes }).users.list(),
        'maxResponseBytes',
      );
    });
  }
});

describe("the caller's own code failing: typed, nothing sent", () => {
  const tokenFunctions: Record<string, () => unknown> = {
    'throws a TypeError': () => {
      throw new TypeError(SECRET_VALUE);
    },
    'rejects with a string': () => Promise.reject(SECRET_VALUE),
    'returns a number': () => 42,
    'returns undefined': () => undefined,
    'returns CR/LF': () => `${SECRET_VALUE}\r\nX-Injected: 1`,
    'returns a lone surrogate': () => `${SECRET_VALUE}\uD800`,
    'returns an empty string': () => '',
  };
  for (const [name, apiKey] of Object.entries(tokenFunctions)) {
    it(`a token function that ${name}`, async () => {
      const error = await rejection(client({ apiKey }).users.list());
      expectTyped(error);
      // What the function returned is never quoted; what it threw is the caller's own, kept as cause.
      if (name.startsWith('returns')) expectNotShown(error, [SECRET_VALUE]);
      expect(server.requests).toHaveLength(0);
    });
  }

  it('a beforeRequest hook that throws a TypeError: HookError, nothing sent', async () => {
    const hooks = {
      beforeRequest: [
        () => {
          throw new TypeError('hook broke');
        },
      ],
    };
    const error = await rejection(client({ hooks }).users.list());
    expectTyped(error);
    expect((error as Error).name).toBe('HookError');
    expect(server.requests).toHaveLength(0);
  });

  it('a fetch that throws a TypeError synchronously: ApiConnectionError', async () => {
    const fetch = () => {
      throw new TypeError('fetch failed');
    };
    const error = await rejection(client({ fetch }).users.list());
    expectTyped(error);
    expect((error as Error).name).toBe('ApiConnectionError');
  });

  it('a fetch that resolves with something that is not a Response: typed', async () => {
    const fetch = async () => ({ status: 200, headers: null, body: 'nope' });
    expectTyped(await rejection(client({ fetch }).users.list()));
  });
});

describe('null counts as absent', () => {
  it('users.get(id, null) and users.list(null) work', async () => {
    const c = client();
    expect((await c.users.get(USER.id, null as never)).data.id).toBe(USER.id);
    expect((await c.users.list(null as never)).data).toEqual([]);
    expect((await c.users.list(null as never, null as never)).data).toEqual([]);
    expect((await c.recognitions.list(null as never)).data).toEqual([]);
  });

  it('options whose every field is null work', async () => {
    const nulls = {
      signal: null,
      timeout: null,
      maxRetries: null,
      headers: null,
      idempotencyKey: null,
      fetchOptions: null,
      hooks: null,
    } as unknown as RequestOptions;
    const c = client({ timeout: null, maxRetries: null, headers: null, maxResponseBytes: null });
    expect((await c.users.get(USER.id, nulls)).data.id).toBe(USER.id);
    await c.recognitions.create({ recipient_id: USER.id, message: 'Thanks' }, nulls);
    const post = server.requests.find((request) => request.method === 'POST')!;
    expect(post.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
