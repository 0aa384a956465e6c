import { type ClientOptions, resolveConfig } from './core/config.js';
import { createTransport } from './core/request.js';
import { Analytics } from './resources/analytics.js';
import { Budgets } from './resources/budgets.js';
import { Recognitions } from './resources/recognitions.js';
import { Rewards } from './resources/rewards.js';
import { Teams } from './resources/teams.js';
import { Users } from './resources/users.js';
import { Webhooks } from './resources/webhooks.js';

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
  /** Recognitions: list, get, create, delete. */
  readonly recognitions: Recognitions;
  /** Users of the organization: list, get. */
  readonly users: Users;
  /** Rewards: list, get. */
  readonly rewards: Rewards;
  /** Teams: list, get. */
  readonly teams: Teams;
  /** Webhook endpoints: list, get, create, update, delete. */
  readonly webhooks: Webhooks;
  /** Budgets: list, get. */
  readonly budgets: Budgets;
  /** Analytics: the recognition summary of a period. */
  readonly analytics: Analytics;

  constructor(options: ClientOptions = {}) {
    const config = resolveConfig(options);
    this.baseUrl = config.baseUrl;
    this.timeout = config.timeout;
    this.maxRetries = config.maxRetries;
    const transport = createTransport(config);
    this.recognitions = new Recognitions(transport);
    this.users = new Users(transport);
    this.rewards = new Rewards(transport);
    this.teams = new Teams(transport);
    this.webhooks = new Webhooks(transport);
    this.budgets = new Budgets(transport);
    this.analytics = new Analytics(transport);
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
