// Time in the mock: timestamps as the contract writes them, and timers that keep no process alive.

/** Milliseconds in a day. */
export const DAY_MS = 86_400_000;

/** An ISO 8601 UTC timestamp to the second, the form the contract shows (`2026-11-21T09:30:00Z`). */
export function toTimestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Keeps a timer from holding a Node process open; browsers' numeric timers have nothing to do. */
export function unref(timer: ReturnType<typeof setTimeout>): void {
  (timer as { unref?: () => void }).unref?.();
}
