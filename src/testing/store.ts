import { Collection, type MockCollection } from './collection.js';
import { createFactories } from './fixtures.js';
import { createRandom, type Random } from './random.js';
import type {
  MockBudget,
  MockRecognition,
  MockReward,
  MockTeam,
  MockUser,
  MockWebhook,
} from './records.js';
import { seedStore } from './seed.js';

/** The mock's in-memory data, for tests to seed, change and inspect. */
export interface MockStore {
  /** The users. */
  readonly users: MockCollection<MockUser>;
  /** The teams. */
  readonly teams: MockCollection<MockTeam>;
  /** The rewards. */
  readonly rewards: MockCollection<MockReward>;
  /** The budgets. */
  readonly budgets: MockCollection<MockBudget>;
  /** The recognitions. */
  readonly recognitions: MockCollection<MockRecognition>;
  /** Webhooks with their secrets. */
  readonly webhooks: MockCollection<MockWebhook>;
  /** Replaces every record by the seeded data of `seed` (default: the mock's `seed` option). */
  reset(seed?: number): void;
  /** Removes every record of every kind. */
  clear(): void;
}

/** The store as the operations see it: collections with uncopied reads. */
export interface Store extends MockStore {
  readonly users: Collection<MockUser>;
  readonly teams: Collection<MockTeam>;
  readonly rewards: Collection<MockReward>;
  readonly budgets: Collection<MockBudget>;
  readonly recognitions: Collection<MockRecognition>;
  readonly webhooks: Collection<MockWebhook>;
}

/** What a store is seeded from. */
export interface StoreOptions {
  seed: number;
  recognitions: number;
  referenceMs: number;
  now: () => number;
}

/** Creates a store seeded from `options.seed`. */
export function createStore(options: StoreOptions): Store {
  let random: Random = createRandom(options.seed);
  let seq = 0;
  const nextSeq = () => ++seq;
  const factories = createFactories({
    random: () => random,
    now: options.now,
    users: () => store.users.rows().map((row) => row.record),
  });
  const store: Store = {
    users: new Collection(factories.user, nextSeq),
    teams: new Collection(factories.team, nextSeq),
    rewards: new Collection(factories.reward, nextSeq),
    budgets: new Collection(factories.budget, nextSeq),
    recognitions: new Collection(factories.recognition, nextSeq),
    webhooks: new Collection(factories.webhook, nextSeq),
    reset(seed = options.seed) {
      store.clear();
      random = createRandom(seed);
      seedStore(store, random, options);
    },
    clear() {
      for (const collection of [
        store.users,
        store.teams,
        store.rewards,
        store.budgets,
        store.recognitions,
        store.webhooks,
      ]) {
        collection.clear();
      }
    },
  };
  store.reset();
  return store;
}
