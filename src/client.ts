import { type ClientOptions, resolveConfig } from './core/config.js';
import { createTransport } from './core/request.js';

/**
 * The Employee Recognition API client.
 *
 * ```ts
 * const client = new Client({ apiKey: process.env.RECOGNITION_API_KEY });
 * for await (const recognition of client.recognitions.list({ limit: 100 })) console.log(recognition.message);
 * ```
 */
export class Client {
  /** The service root requests go to, without `/v1`. */
  readonly baseUrl: string;
  /** Milliseconds one attempt may take. */
  readonly timeout: number;
  /** Further attempts after a retryable failure. */
  readonly maxRetries: number;

  constructor(options: ClientOptions = {}) {
    const config = resolveConfig(options);
    this.baseUrl = config.baseUrl;
    this.timeout = config.timeout;
    this.maxRetries = config.maxRetries;
    const transport = createTransport(config);
    void transport;
  }

  /** What `JSON.stringify` shows: the settings, never the credential. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl, timeout: this.timeout, maxRetries: this.maxRetries };
  }

  /** What `console.log` and `util.inspect` show in Node: the settings, never the credential. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Client ${JSON.stringify(this.toJSON())}`;
  }
}
