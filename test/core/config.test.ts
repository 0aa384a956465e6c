import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError, normalizeBaseUrl, resolveConfig } from '../../src/core/config.js';
import { TEST_API_KEY } from '../support/core.js';

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
