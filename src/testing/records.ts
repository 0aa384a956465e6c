// The mock's records and its store as tests see them: types only, apart from the store's
// implementation (store.ts) and the factories that fill it (fixtures.ts).
import type { WebhookEventType } from '../contract.js';

/** A user as it appears inside a recognition. */
export interface MockPerson {
  /** The user's id: a UUID, lower-case. */
  id: string;
  /** The user's display name. */
  name: string;
}

/** A recognition record (contract §3). */
export interface MockRecognition {
  /** The recognition's id: a UUID, lower-case. */
  id: string;
  /** Who gave it: for one created through the API, the user of the key that sent it. */
  sender: MockPerson;
  /** Who received it. */
  recipient: MockPerson;
  /** The text of the praise. */
  message: string;
  /** Points given with it: a whole number, 0 or more. */
  points: number;
  /** When it was given: ISO 8601, UTC, such as `2026-11-21T09:30:00Z`. */
  created_at: string;
}

/** A user record (contract §3). */
export interface MockUser {
  /** The user's id: a UUID, lower-case. */
  id: string;
  /** The user's display name. */
  name: string;
  /** The user's email address. */
  email: string;
  /** What the user may do in the product. */
  role: 'admin' | 'manager' | 'member';
  /** Whether the user is active or deactivated. */
  status: 'active' | 'deactivated';
  /** The id of the user's team, or null when they belong to none. */
  team_id: string | null;
  /** Points the user holds: a whole number. */
  points_balance: number;
  /** When the user was created: ISO 8601, UTC, such as `2026-11-21T09:30:00Z`. */
  created_at: string;
}

/** A reward record (contract §3). */
export interface MockReward {
  /** The reward's id: a UUID, lower-case. */
  id: string;
  /** The reward's display name. */
  name: string;
  /** A longer text about the reward, or null when it has none. */
  description: string | null;
  /** What it costs, in points: a whole number, 0 or more. */
  cost: number;
  /** Whether the reward can be obtained now. */
  available: boolean;
  /** When it was added: ISO 8601, UTC, such as `2026-11-21T09:30:00Z`. */
  created_at: string;
}

/** A team record (contract §3). */
export interface MockTeam {
  /** The team's id: a UUID, lower-case. */
  id: string;
  /** The team's display name. */
  name: string;
  /** A longer text about the team, or null when it has none. */
  description: string | null;
  /** How many users belong to it: a whole number, 0 or more. */
  member_count: number;
  /** When it was created: ISO 8601, UTC, such as `2026-11-21T09:30:00Z`. */
  created_at: string;
}

/** A budget record (contract §3). */
export interface MockBudget {
  /** The budget's id: a UUID, lower-case. */
  id: string;
  /** The id of the team the budget belongs to, or null for the whole organization. */
  team_id: string | null;
  /** How long the budget runs. */
  period: 'monthly' | 'quarterly' | 'annual';
  /** Points to give in the period: a whole number, 0 or more. */
  total_points: number;
  /** Points already given in the period: a whole number, 0 or more. */
  used_points: number;
  /** Points still to give in the period: a whole number, 0 or more. */
  remaining_points: number;
  /** When the period starts: ISO 8601, UTC, such as `2026-11-01T00:00:00Z`. */
  starts_at: string;
  /** When the period ends: ISO 8601, UTC. */
  ends_at: string;
}

/**
 * A webhook as the store keeps it: the record of contract §3 plus its `secret`, which the API
 * shows only in the create response and the store always, so tests can verify deliveries.
 */
export interface MockWebhook {
  /** The webhook's id: a UUID, lower-case. */
  id: string;
  /** Where deliveries go: an https URL, or http on a loopback host. */
  url: string;
  /** The subscribed event types, or `['*']` for all. */
  events: (WebhookEventType | '*')[];
  /** A note about the webhook, or null when it has none. */
  description: string | null;
  /** Whether deliveries are being sent. */
  enabled: boolean;
  /** When it was registered: ISO 8601, UTC, such as `2026-11-21T09:30:00Z`. */
  created_at: string;
  /** The signing secret, `whsec_` then base64; {@link signWebhook} and receivers use it. */
  secret: string;
}

/**
 * The kinds of record the store holds, by collection name: the registry a new kind joins. Each
 * kind needs a factory in fixtures.ts (the compiler insists) and nothing else in the store.
 */
export interface MockRecords {
  /** The users. */
  users: MockUser;
  /** The teams. */
  teams: MockTeam;
  /** The rewards. */
  rewards: MockReward;
  /** The budgets. */
  budgets: MockBudget;
  /** The recognitions. */
  recognitions: MockRecognition;
  /** Webhooks with their secrets. */
  webhooks: MockWebhook;
}

/** The name of a collection of the store, such as `users`. */
export type RecordKind = keyof MockRecords;

/** Builds a complete record from the fields a caller gave. */
export type RecordFactory<T> = (fields: Partial<T>) => T;

/** One kind of record in the mock's store. Reads return copies: change records through the methods. */
export interface MockCollection<
  T extends {
    /** The record's id, unique in the collection. */
    id: string;
  },
> {
  /** How many records there are. */
  readonly size: number;
  /** Every record, in insertion order. */
  all(): T[];
  /** The record with this id, if any. */
  get(id: string): T | undefined;
  /** Adds a record; fields left out get realistic generated values (a new id among them). */
  insert(record?: Partial<T>): T;
  /** Changes fields of a record; returns the new record, or `undefined` when there is no such id. */
  update(id: string, patch: Partial<Omit<T, 'id'>>): T | undefined;
  /** Removes a record; returns whether it existed. */
  delete(id: string): boolean;
  /** Removes every record. */
  clear(): void;
}

/** The mock's in-memory data, for tests to seed, change and inspect: one collection per kind. */
export type MockStore = {
  readonly [Kind in keyof MockRecords]: MockCollection<MockRecords[Kind]>;
} & {
  /** Replaces every record by the seeded data of `seed` (default: the mock's `seed` option). */
  reset(seed?: number): void;
  /** Removes every record of every kind. */
  clear(): void;
};
