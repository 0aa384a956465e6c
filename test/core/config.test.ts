import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client } from '../../src/client.js';
import {
  type ClientOptions,
  ConfigurationError,
  normalizeBaseUrl,
  type RequestOptions,
  resolveConfig,
} from '../../src/core/config.js';
import { TEST_API_KEY } from '../support/core.js';
import { FUZZ_SEED, fuzzRuns } from '../support/fuzz.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

function configError(run: () => unknown): ConfigurationError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigurationError) return error;
    throw error;
  }
  throw new Error('expected a ConfigurationError');
}

describe('resolveConfig', () => {
  it('applies the documented defaults', () => {
    vi.stubEnv('RECOGNITION_BASE_URL', '');
    const config = resolveConfig({ apiKey: TEST_API_KEY });
    expect(config).toMatchObject({
      baseUrl: 'https://api.employee-recognition.example',
      timeout: 30_000,
      maxRetries: 2,
    });
  });

  it('reads RECOGNITION_API_KEY and RECOGNITION_BASE_URL when no option is given', () => {
    vi.stubEnv('RECOGNITION_API_KEY', TEST_API_KEY);
    vi.stubEnv('RECOGNITION_BASE_URL', 'http://127.0.0.1:4010/v1/');
    const config = resolveConfig({});
    expect(config.apiKey).toBe(TEST_API_KEY);
    expect(config.baseUrl).toBe('http://127.0.0.1:4010');
  });

  it('prefers options over the environment', () => {
    vi.stubEnv('RECOGNITION_API_KEY', 'rk_test_fromTheEnvironment0000000000');
    vi.stubEnv('RECOGNITION_BASE_URL', 'http://env.test');
    const config = resolveConfig({ apiKey: TEST_API_KEY, baseUrl: 'http://option.test' });
    expect(config).toMatchObject({ apiKey: TEST_API_KEY, baseUrl: 'http://option.test' });
  });

  it('fails at construction when there is no key anywhere, naming the option and the variable', () => {
    vi.stubEnv('RECOGNITION_API_KEY', '');
    const error = configError(() => resolveConfig({}));
    expect(error.option).toBe('apiKey');
    expect(error.message).toContain('RECOGNITION_API_KEY');
  });

  it('rejects a malformed rk_ key without quoting it', () => {
    const key = 'rk_live_tooShort';
    const error = configError(() => resolveConfig({ apiKey: key }));
    expect(error.option).toBe('apiKey');
    expect(error.message).not.toContain(key);
    expect(error.message).not.toContain('tooShort');
  });

  it('accepts an OAuth access token of any printable form', () => {
    expect(resolveConfig({ apiKey: 'eyJhbGciOi.eyJzdWIi.c2lnbmF0dXJl' }).apiKey).toBe(
      'eyJhbGciOi.eyJzdWIi.c2lnbmF0dXJl',
    );
  });

  it.each(['', '  ', 'with space', 'line\nbreak'])(
    'rejects the unusable credential %j',
    (apiKey) => {
      vi.stubEnv('RECOGNITION_API_KEY', '');
      expect(configError(() => resolveConfig({ apiKey })).option).toBe('apiKey');
    },
  );

  it.each([
    ['timeout', { timeout: 0 }],
    ['timeout', { timeout: Number.NaN }],
    ['maxRetries', { maxRetries: -1 }],
    ['baseUrl', { baseUrl: 'not a url' }],
    ['baseUrl', { baseUrl: 'ftp://files.test' }],
  ])('names %s when its value cannot work', (option, options) => {
    expect(configError(() => resolveConfig({ apiKey: TEST_API_KEY, ...options })).option).toBe(
      option,
    );
  });
});

describe('messages that point the right way', () => {
  const message = (options: Parameters<typeof resolveConfig>[0]) =>
    configError(() => resolveConfig({ apiKey: TEST_API_KEY, ...options })).message;

  it.each([
    ['localhost:4010', 'http://localhost:4010'],
    ['127.0.0.1:4010', 'http://127.0.0.1:4010'],
    ['api.example.com:8443', 'http://api.example.com:8443'],
  ])('says a host:port baseUrl (%s) lacks its scheme, and suggests %s', (baseUrl, meant) => {
    expect(message({ baseUrl })).toBe(
      `\`baseUrl\` must start with https:// or http://, such as ${meant}.`,
    );
  });

  it.each([
    'api.example.com/v1',
    'api.example.com',
    TEST_API_KEY,
    `${TEST_API_KEY}:1234`,
    'sk-secret:with:colons',
    'localhost:4010/api',
  ])('says %j lacks its scheme without quoting it', (baseUrl) => {
    const text = message({ baseUrl });
    expect(text).toBe('`baseUrl` must start with https:// or http://.');
    expect(message({ baseUrl: 'ftp://files.test' })).toBe(
      '`baseUrl` must start with https:// or http://.',
    );
    expect(text).not.toContain(baseUrl);
  });

  it('names a Bearer prefix on apiKey, and on RECOGNITION_API_KEY, without quoting the key', () => {
    const key = `Bearer ${TEST_API_KEY}`;
    expect(message({ apiKey: key })).toBe('Pass the API key without "Bearer ".');
    expect(message({ apiKey: `bearer  ${TEST_API_KEY}` })).toMatch(
      /^Pass the API key without "Bearer "/,
    );
    vi.stubEnv('RECOGNITION_API_KEY', key);
    const fromEnv = configError(() => resolveConfig({})).message;
    expect(fromEnv).toBe('Pass the API key without "Bearer ".');
    expect(fromEnv).not.toContain(TEST_API_KEY);
  });
});

describe('normalizeBaseUrl', () => {
  it.each([
    ['https://api.test', 'https://api.test'],
    ['https://api.test/', 'https://api.test'],
    ['https://api.test/v1', 'https://api.test'],
    ['https://api.test/v1/', 'https://api.test'],
    ['https://gateway.test/recognition/v1', 'https://gateway.test/recognition'],
  ])('treats %s as the service root %s', (input, root) => {
    expect(normalizeBaseUrl(input)).toBe(root);
  });
});

describe('unknown options', () => {
  /** A client whose warn lines are collected; its fetch answers every call with an empty page. */
  function clientLogging(options: Record<string, unknown>) {
    const warnings: string[] = [];
    const ignore = () => {};
    const logger = {
      debug: ignore,
      info: ignore,
      error: ignore,
      warn: (line: string) => warnings.push(line),
    };
    const fetch = async () =>
      Response.json({ data: [], pagination: { page: 1, total_pages: 1, next_cursor: null } });
    const client = new Client({ apiKey: TEST_API_KEY, fetch, logger, ...options } as ClientOptions);
    return { client, warnings };
  }

  it.each([
    ['baseURL', 'baseUrl'],
    ['timout', 'timeout'],
    ['max_retries', 'maxRetries'],
    ['LogLevel', 'logLevel'],
    ['validate-responses', 'validateResponses'],
    ['heders', 'headers'],
  ])('names `%s` at warn with the option it is nearest to, `%s`', (typo, meant) => {
    const { warnings } = clientLogging({ [typo]: 'x' });
    expect(warnings).toEqual([
      `[employee-recognition] Unknown option ${typo}: did you mean ${meant}?`,
    ]);
  });

  it('names an option far from every known one without a guess', () => {
    const { warnings } = clientLogging({ colour: 'blue' });
    expect(warnings).toEqual(['[employee-recognition] Unknown option colour']);
  });

  it('warns about no documented option, and only logs: the client is built as without the key', () => {
    const every: Required<Record<keyof ClientOptions, undefined>> = {
      apiKey: undefined,
      baseUrl: undefined,
      timeout: undefined,
      maxRetries: undefined,
      fetch: undefined,
      fetchOptions: undefined,
      headers: undefined,
      rateLimit: undefined,
      logLevel: undefined,
      logger: undefined,
      hooks: undefined,
      instrumentation: undefined,
      maxResponseBytes: undefined,
      validateResponses: undefined,
      dangerouslyAllowBrowser: undefined,
    };
    const { apiKey: _key, fetch: _fetch, logger: _logger, ...rest } = every;
    expect(clientLogging(rest).warnings).toEqual([]);
    const { client } = clientLogging({ baseURL: 'http://127.0.0.1:4020', timout: 5 });
    expect(client).toMatchObject({
      baseUrl: 'https://api.employee-recognition.example',
      timeout: 30_000,
    });
  });

  it('warns for withOptions() overrides, and is silent under logLevel error', () => {
    const { client, warnings } = clientLogging({});
    client.withOptions({ timout: 5 } as ClientOptions);
    expect(warnings).toEqual([
      '[employee-recognition] Unknown option timout: did you mean timeout?',
    ]);
    expect(clientLogging({ baseURL: 'x', logLevel: 'error' }).warnings).toEqual([]);
  });

  it("warns once per client for a call's unknown option, and not for a raw request's query and body", async () => {
    const { client, warnings } = clientLogging({});
    const options = { timout: 5, query: { limit: 1 } } as RequestOptions;
    await client.get('/v1/users', options);
    await client.users.list({}, { timout: 5 } as RequestOptions);
    await client.post('/v1/recognitions', { body: {}, idempotencyKey: 'k' });
    expect(warnings).toEqual([
      '[employee-recognition] Unknown option timout: did you mean timeout?',
    ]);
    const every: Required<Record<keyof RequestOptions, undefined>> = {
      signal: undefined,
      timeout: undefined,
      maxRetries: undefined,
      headers: undefined,
      idempotencyKey: undefined,
      hooks: undefined,
      fetchOptions: undefined,
    };
    await client.get('/v1/users', every);
    expect(warnings).toHaveLength(1);
    const other = clientLogging({});
    await other.client.get('/v1/users', options);
    expect(other.warnings).toHaveLength(1);
  });

  it('writes any key as one printable line, whatever its characters, and never fails the client', () => {
    fc.assert(
      // `zz` first: no option starts so, so every generated name is unknown.
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (rest) => {
        const { warnings } = clientLogging({ [`zz${rest}`]: 1 });
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).not.toMatch(
          // eslint-disable-next-line no-control-regex -- what must not reach a log line
          /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/,
        );
      }),
      { numRuns: fuzzRuns(200), seed: FUZZ_SEED },
    );
  });
});
