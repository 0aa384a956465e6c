import { FACTORIES, type FixtureContext, seedStore } from './fixtures.js';
import { createRandom, type Random } from './random.js';
import type {
  MockCollection,
  MockRecords,
  MockStore,
  RecordFactory,
  RecordKind,
} from './records.js';

/** A stored record with its insertion number, which orders records created in the same second. */
export interface Row<T> {
  readonly record: T;
  readonly seq: number;
}

/** The store's implementation of {@link MockCollection}, with uncopied access for the operations. */
export class Collection<T extends { id: string }> implements MockCollection<T> {
  readonly #rows = new Map<string, Row<T>>();
  readonly #create: RecordFactory<T>;
  readonly #nextSeq: () => number;

  constructor(create: RecordFactory<T>, nextSeq: () => number) {
    this.#create = create;
    this.#nextSeq = nextSeq;
  }

  get size(): number {
    return this.#rows.size;
  }

  all(): T[] {
    return [...this.#rows.values()].map((row) => structuredClone(row.record));
  }

  get(id: string): T | undefined {
    const row = this.#rows.get(id);
    return row && structuredClone(row.record);
  }

  insert(record: Partial<T> = {}): T {
    const created = this.#create(structuredClone(record));
    this.#rows.set(created.id, { record: created, seq: this.#nextSeq() });
    return structuredClone(created);
  }

  update(id: string, patch: Partial<Omit<T, 'id'>>): T | undefined {
    const row = this.#rows.get(id);
    if (!row) return undefined;
    const record = { ...row.record, ...structuredClone(patch), id };
    this.#rows.set(id, { record, seq: row.seq });
    return structuredClone(record);
  }

  delete(id: string): boolean {
    return this.#rows.delete(id);
  }

  clear(): void {
    this.#rows.clear();
  }

  /** The stored rows themselves, for the operations, which only read them. */
  rows(): Row<T>[] {
    return [...this.#rows.values()];
  }

  /** The stored record itself, for the operations, which only read it. */
  find(id: string): T | undefined {
    return this.#rows.get(id)?.record;
  }
}

type Collections = { readonly [Kind in RecordKind]: Collection<MockRecords[Kind]> };

/** The store as the operations see it: collections with uncopied reads. */
export type Store = Collections & Pick<MockStore, 'reset' | 'clear'>;

/** What a store is seeded from. */
export interface StoreOptions {
  seed: number;
  recognitions: number;
  referenceMs: number;
  now: () => number;
}

/** Creates a store with one collection per entry of the factory registry, seeded from `options.seed`. */
export function createStore(options: StoreOptions): Store {
  let random: Random = createRandom(options.seed);
  let seq = 0;
  const nextSeq = () => ++seq;
  const context: FixtureContext = {
    random: () => random,
    now: options.now,
    users: () => collections.users.rows().map((row) => row.record),
  };
  const collection = <Kind extends RecordKind>(kind: Kind) =>
    new Collection<MockRecords[Kind]>(FACTORIES[kind](context), nextSeq);
  // One entry per key of FACTORIES, which the compiler holds to the keys of MockRecords.
  const collections = Object.fromEntries(
    (Object.keys(FACTORIES) as RecordKind[]).map((kind) => [kind, collection(kind)]),
  ) as unknown as Collections;
  const store: Store = {
    ...collections,
    reset(seed = options.seed) {
      store.clear();
      random = createRandom(seed);
      seedStore(store, random, options);
    },
    clear() {
      for (const each of Object.values(collections)) each.clear();
    },
  };
  store.reset();
  return store;
}
