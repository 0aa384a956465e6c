import {
  API_KEY_PATTERN,
  API_KEY_PREFIX_PATTERN,
  DEFAULT_BASE_URL,
  ENV_API_KEY,
  ENV_BASE_URL,
} from '../contract.js';
import { EmployeeRecognitionError } from './errors.js';

/** An API key or OAuth access token, or a function that returns one (called before each attempt). */
export type ApiKeySource = string | (() => string | Promise<string>);

/** Options of `new Client()`. Every one is optional where an environment variable can stand in. */
export interface ClientOptions {
  /** API key (`rk_live_…`/`rk_test_…`) or OAuth access token, or a function returning one, so a
   * token can be refreshed. Defaults to the `RECOGNITION_API_KEY` environment variable. */
  apiKey?: ApiKeySource | undefined;
  /** Service address. Defaults to `RECOGNITION_BASE_URL`, then the public API. A trailing `/` or
   * `/v1` is accepted. */
  baseUrl?: string | undefined;
  /** Milliseconds one attempt may take before it is abandoned (and retried). Default 30000. */
  timeout?: number | undefined;
  /** Further attempts after a retryable failure. Default 2. */
  maxRetries?: number | undefined;
  /** A fetch implementation to use instead of the global one (a mock, a proxy agent). */
  fetch?: typeof globalThis.fetch | undefined;
  /** Headers sent with every request. */
  headers?: Record<string, string> | undefined;
  /** `'auto'` paces requests by the service's X-RateLimit-* headers so bursts avoid 429s.
   * Default `'off'`: requests go at once and a 429 is retried after Retry-After. */
  rateLimit?: 'auto' | 'off' | undefined;
}

/** Defaults of {@link ClientOptions}, in one place. */
export const CLIENT_DEFAULTS = {
  timeout: 30_000,
  maxRetries: 2,
  rateLimit: 'off',
} as const;

/** The longest timer JavaScript runtimes can set (about 24.8 days). */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** The options a client runs with, after defaults and environment fallbacks. */
export interface ClientConfig {
  apiKey: ApiKeySource;
  baseUrl: string;
  timeout: number;
  maxRetries: number;
  fetch: typeof globalThis.fetch | undefined;
  headers: Record<string, string>;
  rateLimit: 'auto' | 'off';
}

/** A client option that cannot work. Thrown by `new Client()`, never later. */
export class ConfigurationError extends EmployeeRecognitionError {
  /** The class name, `'ConfigurationError'`, as stack traces and logs show it. */
  override name = 'ConfigurationError';
  /** The option at fault, such as `apiKey`. */
  readonly option: string;

  constructor(option: string, message: string) {
    super(message);
    this.option = option;
  }
}

/** Applies defaults and environment fallbacks, and rejects what cannot work, at construction. */
export function resolveConfig(options: ClientOptions): ClientConfig {
  const apiKey = options.apiKey ?? readEnv(ENV_API_KEY);
  if (apiKey === undefined || apiKey === '') {
    throw new ConfigurationError(
      'apiKey',
      `No API key: pass \`apiKey\` to new Client() or set the ${ENV_API_KEY} environment variable.`,
    );
  }
  if (typeof apiKey === 'string')
    checkCredential(apiKey, (message) => new ConfigurationError('apiKey', message));
  else if (typeof apiKey !== 'function') {
    throw new ConfigurationError(
      'apiKey',
      '`apiKey` must be a string or a function returning one.',
    );
  }
  return {
    apiKey,
    baseUrl: normalizeBaseUrl(options.baseUrl ?? readEnv(ENV_BASE_URL) ?? DEFAULT_BASE_URL),
    timeout: checkNumber('timeout', options.timeout ?? CLIENT_DEFAULTS.timeout, 1, MAX_TIMEOUT_MS),
    maxRetries: checkNumber('maxRetries', options.maxRetries ?? CLIENT_DEFAULTS.maxRetries, 0, 100),
    fetch: options.fetch,
    headers: { ...options.headers },
    rateLimit: checkRateLimit(options.rateLimit ?? CLIENT_DEFAULTS.rateLimit),
  };
}

/**
 * Rejects a credential that cannot be sent: empty, with characters a header cannot carry, or
 * shaped like an API key but malformed. The message never quotes the credential.
 */
export function checkCredential(credential: string, toError: (message: string) => Error): void {
  if (credential.trim() === '' || !/^[\x21-\x7e]+$/.test(credential)) {
    throw toError('The API key is empty or contains whitespace, control or non-ASCII characters.');
  }
  if (API_KEY_PREFIX_PATTERN.test(credential) && !API_KEY_PATTERN.test(credential)) {
    throw toError(
      'The API key is malformed: it should be rk_live_ or rk_test_ followed by at least 24 letters or digits.',
    );
  }
}

/** The service root without a trailing `/` or `/v1`: paths add `/v1/…` themselves. */
export function normalizeBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.trim().replace(/\/+$/, '').replace(/\/v1$/, '');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new ConfigurationError('baseUrl', `\`baseUrl\` is not an absolute URL: ${trimmed}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigurationError('baseUrl', '`baseUrl` must use http or https.');
  }
  return trimmed;
}

function checkRateLimit(value: string): 'auto' | 'off' {
  if (value !== 'auto' && value !== 'off') {
    throw new ConfigurationError('rateLimit', "`rateLimit` must be 'auto' or 'off'.");
  }
  return value;
}

function checkNumber(option: string, value: number, min: number, max: number): number {
  if (typeof value !== 'number' || !(value >= min && value <= max)) {
    throw new ConfigurationError(option, `\`${option}\` must be a number from ${min} to ${max}.`);
  }
  return value;
}

/** An environment variable where the runtime has `process.env` and lets us read it (Deno may not). */
function readEnv(name: string): string | undefined {
  try {
    return globalThis.process?.env?.[name] || undefined;
  } catch {
    return undefined;
  }
}
