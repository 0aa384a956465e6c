import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_WINDOW_MS } from '../contract.js';
import type { Answer } from './operation.js';
import { HttpError } from './validation.js';

/** Marks an answer replayed from an earlier request with the same key. */
export const HEADER_IDEMPOTENT_REPLAYED = 'idempotent-replayed';

/**
 * Remembers the answers of POST and PATCH requests by credential and `Idempotency-Key`. The
 * request's fingerprint (method, path and raw body) must match for a replay; another is 409.
 */
export function createIdempotencyCache() {
  const entries = new Map<string, { fingerprint: string; answer: Answer; expires: number }>();
  return {
    /** Answers a repeat from memory, or runs `work` and remembers its answer. */
    run(
      credential: string,
      key: string,
      fingerprint: string,
      now: number,
      work: () => Answer,
    ): Answer {
      if (key.length < 1 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
        throw new HttpError(400, 'Invalid Idempotency-Key.', [
          {
            field: 'Idempotency-Key',
            message: `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
          },
        ]);
      }
      const id = JSON.stringify([credential, key]);
      const entry = entries.get(id);
      if (entry && entry.expires > now) {
        if (entry.fingerprint !== fingerprint) {
          throw new HttpError(409, 'This Idempotency-Key was already used with another request.');
        }
        return {
          ...entry.answer,
          headers: { ...entry.answer.headers, [HEADER_IDEMPOTENT_REPLAYED]: 'true' },
        };
      }
      const answer = work();
      entries.set(id, { fingerprint, answer, expires: now + IDEMPOTENCY_WINDOW_MS });
      return answer;
    },
    clear(): void {
      entries.clear();
    },
  };
}
