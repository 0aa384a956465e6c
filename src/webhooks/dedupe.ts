/**
 * De-duplication of deliveries by `webhook-id`: the store interface the receiver claims ids in,
 * and the in-memory store it uses by default. The Redis store is in src/redis/dedupe.ts.
 */

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

/** Options of {@link createMemoryDedupeStore}. */
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
 * serverless functions) use a shared store such as the Redis one.
 */
export function createMemoryDedupeStore(
  options: MemoryDedupeStoreOptions = {},
): WebhookDedupeStore {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  if (!(Number.isSafeInteger(maxEntries) && maxEntries > 0)) {
    throw new RangeError('maxEntries must be a whole number above 0');
  }
  // Insertion order is age order: an entry is re-inserted whenever it changes.
  const entries = new Map<string, Entry>();
  const live = (id: string): Entry | undefined => {
    const entry = entries.get(id);
    if (entry && entry.expires <= Date.now()) {
      entries.delete(id);
      return undefined;
    }
    return entry;
  };
  const put = (id: string, entry: Entry) => {
    entries.delete(id);
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
    entries.set(id, entry);
  };
  return {
    async claim(id, token, leaseMs) {
      const entry = live(id);
      if (entry) return entry.holder === HANDLED ? 'handled' : 'in_progress';
      put(id, { holder: token, expires: Date.now() + leaseMs });
      return 'claimed';
    },
    async complete(id, token, retentionMs) {
      const entry = live(id);
      if (entry && entry.holder !== token && entry.holder !== HANDLED) return;
      put(id, { holder: HANDLED, expires: Date.now() + retentionMs });
    },
    async release(id, token) {
      if (live(id)?.holder === token) entries.delete(id);
    },
  };
}
