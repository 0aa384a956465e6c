/**
 * De-duplication of deliveries by `webhook-id`: the store interface the receiver claims ids in,
 * and the in-memory store it uses by default. The Redis store is in src/redis/dedupe.ts.
 */
import { ConfigurationError } from '../core/config.js';

/**
 * What a claim found: `claimed` (this delivery holds the id now and runs the handlers),
 * `in_progress` (another copy holds it and is being handled) or `handled` (done before).
 */
export type WebhookClaim = 'claimed' | 'in_progress' | 'handled';

/**
 * Where the receiver records which deliveries it has handled. Each method is atomic per id. A
 * claim is a lease held under a token unique to one delivery attempt: `complete` and `release`
 * act only while that token still holds the id, so an attempt whose lease ran out can never undo
 * the work of the copy that claimed the id after it.
 */
export interface WebhookDedupeStore {
  /**
   * Claims `id` for `leaseMs` under `token` when nobody holds it, and says what it found. An id
   * whose lease ran out (its process died mid-handler) is free again.
   */
  claim(id: string, token: string, leaseMs: number): Promise<WebhookClaim>;
  /**
   * Marks `id` handled for `retentionMs`, so that copies are answered 2xx without running the
   * handlers. Also when the lease ran out and the id is free; not when another token holds it.
   */
  complete(id: string, token: string, retentionMs: number): Promise<void>;
  /** Frees `id` if `token` still holds it: the handlers failed, and the retry must run them. */
  release(id: string, token: string): Promise<void>;
}

/** Options of {@link MemoryDedupeStore}. */
export interface MemoryDedupeStoreOptions {
  /**
   * The most ids kept; past it the oldest is forgotten, so a late copy of that event would be
   * handled again (at least once, never lost). Default 10,000.
   */
  maxEntries?: number | undefined;
}

const DEFAULT_MAX_ENTRIES = 10_000;
const HANDLED = '';

interface Entry {
  /** The token of the attempt holding the lease, or HANDLED. */
  holder: string;
  /** Epoch ms when the lease or the retention ends. */
  expires: number;
}

/**
 * A de-duplication store in this process's memory, bounded in size: the receiver's default. It
 * de-duplicates copies that reach the same process; for several processes or instances (or
 * serverless functions) use a shared store such as `RedisDedupeStore`.
 */
export class MemoryDedupeStore implements WebhookDedupeStore {
  readonly #maxEntries: number;
  // Insertion order is age order: an entry is re-inserted whenever it changes.
  readonly #entries = new Map<string, Entry>();

  /** @throws ConfigurationError when `maxEntries` is not a whole number above 0. */
  constructor(options: MemoryDedupeStoreOptions = {}) {
    const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    if (!(Number.isSafeInteger(maxEntries) && maxEntries > 0)) {
      throw new ConfigurationError('maxEntries', '`maxEntries` must be a whole number above 0.');
    }
    this.#maxEntries = maxEntries;
  }

  async claim(id: string, token: string, leaseMs: number): Promise<WebhookClaim> {
    const entry = this.#live(id);
    if (entry) return entry.holder === HANDLED ? 'handled' : 'in_progress';
    this.#put(id, { holder: token, expires: Date.now() + leaseMs });
    return 'claimed';
  }

  async complete(id: string, token: string, retentionMs: number): Promise<void> {
    const entry = this.#live(id);
    if (entry && entry.holder !== token && entry.holder !== HANDLED) return;
    this.#put(id, { holder: HANDLED, expires: Date.now() + retentionMs });
  }

  async release(id: string, token: string): Promise<void> {
    if (this.#live(id)?.holder === token) this.#entries.delete(id);
  }

  /** The entry of `id` unless its time ran out (then it is dropped). */
  #live(id: string): Entry | undefined {
    const entry = this.#entries.get(id);
    if (entry && entry.expires <= Date.now()) {
      this.#entries.delete(id);
      return undefined;
    }
    return entry;
  }

  #put(id: string, entry: Entry): void {
    this.#entries.delete(id);
    if (this.#entries.size >= this.#maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    this.#entries.set(id, entry);
  }
}
