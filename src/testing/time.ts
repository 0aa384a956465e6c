// Time as the contract writes it: ISO 8601 timestamps in UTC, read from requests and written
// into records.

/** Milliseconds in a day. */
export const DAY_MS = 86_400_000;

/** An ISO 8601 UTC timestamp to the second, the form the contract shows (`2026-11-21T09:30:00Z`). */
export function toTimestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/**
 * Parses an ISO 8601 date or date-time to ms. A bare date stands for the start of that UTC day,
 * or its last millisecond with `endOfDay`, so a range of dates includes both end days.
 */
export function parseInstant(text: string, endOfDay = false): number | undefined {
  const day = text.slice(0, 10);
  // Date.parse rolls days over (February 31 becomes March 3), so the day must survive a round trip.
  const start = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(start) || new Date(start).toISOString().slice(0, 10) !== day) return undefined;
  if (DATE.test(text)) return endOfDay ? start + DAY_MS - 1 : start;
  const instant = DATE_TIME.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(instant) ? undefined : instant;
}
