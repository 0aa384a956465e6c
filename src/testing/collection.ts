/** A stored record with its insertion number, which orders records created in the same second. */
export interface Row<T> {
  readonly record: T;
  readonly seq: number;
}

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

/** Builds a complete record from the fields a caller gave. */
export type RecordFactory<T> = (fields: Partial<T>) => T;

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
