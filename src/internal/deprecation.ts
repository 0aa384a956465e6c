/**
 * The service's deprecation notices, read from any answer without trusting them: `Deprecation`
 * (RFC 9745), `Sunset` (RFC 8594) and `Link` (RFC 8288) with `rel="deprecation"` or
 * `rel="sunset"`. Pure functions that import nothing of the core, so the transport, the promise
 * and a tracer can all read the same notice from an answer's headers.
 *
 * Every scan is bounded and linear: header values are cut or refused at a fixed length before any
 * regular expression sees them, and `Link` is read by one forward scan, never a regex over server
 * text. A value that says nothing usable gives no date rather than a wrong one: a notice never
 * holds an invalid Date, a date before 1990 (such as the epoch) or after the year 9999.
 */
import { HEADER_DEPRECATION, HEADER_LINK, HEADER_SUNSET } from '../contract.js';

/**
 * The service's notice that an operation is deprecated or will stop answering, read from the
 * standard headers of an answer. Present only when the answer carried a usable `Deprecation` or
 * `Sunset` header; each date is absent when the service gave none, or gave one the SDK could not
 * read (it never shows a made-up date).
 */
export interface DeprecationNotice {
  /**
   * True when the service marked the operation deprecated (`Deprecation: @<seconds>`, or the
   * older `Deprecation: true`); false when it announced only a sunset.
   */
  deprecated: boolean;
  /** When the operation was (or will be) deprecated, from `Deprecation: @<seconds>`. */
  deprecatedAt?: Date | undefined;
  /** When the service stops answering the operation, from `Sunset: <HTTP-date>`. */
  sunsetAt?: Date | undefined;
  /** The service's page about the deprecation: the first `Link` with `rel="deprecation"`. */
  deprecationLink?: string | undefined;
  /** The service's sunset policy: the first `Link` with `rel="sunset"`. */
  sunsetLink?: string | undefined;
}

/** A longer `Deprecation` or `Sunset` value is garbage, not a date or a list of a few. */
const MAX_DATE_FIELD_LENGTH = 1024;
/** How much of a `Link` value is scanned; links past it are not read. */
const MAX_LINK_FIELD_LENGTH = 16 * 1024;
/** Links read at most from one `Link` value. */
const MAX_LINKS = 64;
/** A longer link is dropped rather than kept or shown. */
const MAX_LINK_LENGTH = 2048;
// The dates a notice may hold: none before the web (an epoch of 0 is garbage, not 1970), none
// past the four-digit years an HTTP-date can write.
const MIN_DATE_MS = Date.UTC(1990, 0, 1);
const MAX_DATE_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

/**
 * The notice an answer's headers carry, or undefined when it carries none (no usable
 * `Deprecation` or `Sunset`). `base` resolves relative links (the request's URL); only http(s)
 * links are kept, without user info. `now` places two-digit years of the obsolete RFC 850 date.
 */
export function parseDeprecation(
  headers: Headers,
  base?: string,
  now = Date.now(),
): DeprecationNotice | undefined {
  const deprecation = readDeprecation(headers.get(HEADER_DEPRECATION), now);
  const sunsetAt = readDateField(headers.get(HEADER_SUNSET), (value) => httpDate(value, now));
  if (deprecation === undefined && sunsetAt === undefined) return undefined;
  const links = readLinks(headers.get(HEADER_LINK), base);
  return {
    deprecated: deprecation !== undefined,
    ...(deprecation?.at && { deprecatedAt: deprecation.at }),
    ...(sunsetAt && { sunsetAt }),
    ...(links.deprecation && { deprecationLink: links.deprecation }),
    ...(links.sunset && { sunsetLink: links.sunset }),
  };
}

/**
 * The warning a deprecation notice gives, once per operation: what it is (`users.get`, or a raw
 * request's method and path), both dates (or that none was given) and the link. The link shows
 * without its query and fragment (server text in a log line); the notice keeps it whole.
 */
export function describeDeprecation(operation: string, notice: DeprecationNotice): string {
  const deprecated = notice.deprecated
    ? `${operation} is deprecated by the service${notice.deprecatedAt ? ` as of ${isoDate(notice.deprecatedAt)}` : ' (no deprecation date given)'}`
    : `${operation} will be retired by the service`;
  const sunset = notice.sunsetAt
    ? `it stops answering (sunset) at ${isoDate(notice.sunsetAt)}`
    : 'no sunset date given';
  const link = notice.deprecationLink ?? notice.sunsetLink;
  const details = link ? `; details: ${shownLink(link)}` : '';
  return `${deprecated}; ${sunset}${details}. Move off it before the sunset (docs/errors-and-retries.md, Deprecation notices).`;
}

/** `Deprecation`: deprecated with a date, deprecated without one, or undefined (no usable field). */
function readDeprecation(value: string | null, now: number): { at: Date | undefined } | undefined {
  let deprecated = false;
  const at = readDateField(value, (member) => {
    // RFC 9745: a Structured Field Date, `@` and whole seconds since the epoch.
    const seconds = /^@(-?\d{1,15})(?:;.*)?$/.exec(member)?.[1];
    if (seconds !== undefined) {
      deprecated = true;
      return inRange(Number(seconds) * 1000);
    }
    // The drafts before it: `true` (the Structured Field boolean `?1` too), or an HTTP-date.
    if (/^(?:true|\?1)$/i.test(member)) {
      deprecated = true;
      return undefined;
    }
    const date = httpDate(member, now);
    if (date !== undefined) deprecated = true;
    return date;
  });
  return deprecated ? { at } : undefined;
}

/**
 * The one date a header gives: its members (a header sent twice arrives as a comma-joined list)
 * read by `parse`, and the date when they agree; undefined when none parses or they differ.
 */
function readDateField(
  value: string | null,
  parse: (member: string) => Date | undefined,
): Date | undefined {
  if (value === null || value.length > MAX_DATE_FIELD_LENGTH) return undefined;
  let date: Date | undefined;
  let conflict = false;
  for (const member of members(value)) {
    const parsed = parse(member);
    if (parsed === undefined) continue;
    if (date !== undefined && date.getTime() !== parsed.getTime()) conflict = true;
    date ??= parsed;
  }
  return conflict ? undefined : date;
}

/** A list's members, trimmed; an HTTP-date's own comma (after its day name) does not split it. */
function members(value: string): string[] {
  const parts = value.split(',');
  const result: string[] = [];
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!.trim();
    if (/^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]{0,6}$/i.test(part) && index + 1 < parts.length) {
      result.push(`${part}, ${parts[++index]!.trim()}`);
    } else if (part !== '') {
      result.push(part);
    }
  }
  return result;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY = '(?:mon|tue|wed|thu|fri|sat|sun)';
const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)';
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
// RFC 9110 §5.6.7: IMF-fixdate, and the obsolete RFC 850 and asctime forms recipients must accept.
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`, 'i');
const RFC_850 = new RegExp(`^${DAY}[a-z]{0,6}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`, 'i');
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`, 'i');
/** The longest HTTP-date (RFC 850 with `Wednesday`) is 33 characters. */
const MAX_HTTP_DATE_LENGTH = 40;

/** An HTTP-date in any of its three forms, checked field by field (no Feb 30, no hour 24). */
function httpDate(value: string, now: number): Date | undefined {
  if (value.length > MAX_HTTP_DATE_LENGTH) return undefined;
  let match = IMF_FIXDATE.exec(value);
  if (match) return utcDate(+match[3]!, match[2]!, +match[1]!, match.slice(4));
  match = RFC_850.exec(value);
  if (match) {
    // RFC 9110: a two-digit year more than 50 years ahead is the latest such year in the past.
    const thisYear = new Date(now).getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(match[3]);
    if (year > thisYear + 50) year -= 100;
    return utcDate(year, match[2]!, +match[1]!, match.slice(4));
  }
  match = ASCTIME.exec(value);
  if (match) return utcDate(+match[6]!, match[1]!, +match[2]!.trim(), match.slice(3, 6));
  return undefined;
}

function utcDate(year: number, month: string, day: number, time: string[]): Date | undefined {
  const monthIndex = MONTHS.indexOf(month.toLowerCase());
  const [hours, minutes, seconds] = time.map(Number) as [number, number, number];
  // A leap second (`:60`) counts as the second before it.
  if (hours > 23 || minutes > 59 || seconds > 60) return undefined;
  const ms = Date.UTC(year, monthIndex, day, hours, minutes, Math.min(seconds, 59));
  // Date.UTC rolls Feb 30 over into March: a day the month does not have is garbage.
  if (new Date(ms).getUTCDate() !== day) return undefined;
  return inRange(ms);
}

function inRange(ms: number): Date | undefined {
  return ms >= MIN_DATE_MS && ms <= MAX_DATE_MS ? new Date(ms) : undefined;
}

/** An ISO 8601 date without milliseconds: `2027-06-30T00:00:00Z`. */
function isoDate(date: Date): string {
  return date.toISOString().replace('.000Z', 'Z');
}

/** A link as a log line shows it: without query or fragment, at most 200 characters. */
function shownLink(link: string): string {
  const url = new URL(link);
  const shown = `${url.origin}${url.pathname}`;
  return shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
}

/**
 * The first `rel="deprecation"` and `rel="sunset"` links of a `Link` value (RFC 8288 §3): `<uri>`
 * then `;`-separated parameters, token or quoted values, several links joined by commas, `rel`
 * a space-separated list read case-insensitively (its first occurrence counts). One forward scan:
 * a malformed link is skipped to the next comma outside quotes, and every step moves on.
 */
function readLinks(
  value: string | null,
  base: string | undefined,
): { deprecation?: string; sunset?: string } {
  const found: { deprecation?: string; sunset?: string } = {};
  if (value === null || !/deprecation|sunset/i.test(value.slice(0, MAX_LINK_FIELD_LENGTH))) {
    return found;
  }
  const text = value.slice(0, MAX_LINK_FIELD_LENGTH);
  let position = 0;
  for (let count = 0; count < MAX_LINKS && position < text.length; count++) {
    position = skip(text, position, ' \t,');
    if (text[position] !== '<') {
      position = nextLink(text, position);
      continue;
    }
    const end = text.indexOf('>', position + 1);
    if (end === -1) break;
    const target = text.slice(position + 1, end);
    const link = readParams(text, end + 1);
    position = link.end;
    if (link.rel === undefined) continue;
    const rels = link.rel.toLowerCase().split(/[ \t]+/);
    for (const rel of ['deprecation', 'sunset'] as const) {
      if (found[rel] === undefined && rels.includes(rel)) {
        const url = linkUrl(target, base);
        if (url !== undefined) found[rel] = url;
      }
    }
  }
  return found;
}

const TOKEN_CHARS = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;

/** One link's parameters from `position` (just after its `>`): its `rel`, and where it ends. */
function readParams(text: string, position: number): { rel?: string; end: number } {
  let rel: string | undefined;
  for (;;) {
    position = skip(text, position, ' \t');
    if (position >= text.length || text[position] === ',') return { rel, end: position };
    if (text[position] !== ';') return { end: nextLink(text, position) };
    position = skip(text, position + 1, ' \t');
    const nameStart = position;
    while (position < text.length && TOKEN_CHARS.test(text[position]!)) position++;
    const name = text.slice(nameStart, position).toLowerCase();
    position = skip(text, position, ' \t');
    let paramValue = '';
    if (text[position] === '=') {
      position = skip(text, position + 1, ' \t');
      if (text[position] === '"') {
        const quoted = quotedString(text, position);
        if (quoted === undefined) return { end: text.length };
        paramValue = quoted.value;
        position = quoted.end;
      } else {
        const valueStart = position;
        while (position < text.length && TOKEN_CHARS.test(text[position]!)) position++;
        paramValue = text.slice(valueStart, position);
      }
    }
    if (name === '') return { end: nextLink(text, position) };
    if (name === 'rel' && rel === undefined) rel = paramValue;
  }
}

/** A quoted-string from its opening quote: its value with `\` escapes undone, and where it ends. */
function quotedString(text: string, position: number): { value: string; end: number } | undefined {
  let value = '';
  for (let index = position + 1; index < text.length; index++) {
    const char = text[index]!;
    if (char === '"') return { value, end: index + 1 };
    if (char === '\\') index++;
    value += text[index] ?? '';
  }
  return undefined;
}

/** Where the next link starts: past the next comma outside a quoted string. */
function nextLink(text: string, position: number): number {
  let quoted = false;
  for (let index = position; index < text.length; index++) {
    const char = text[index];
    if (quoted && char === '\\') index++;
    else if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) return index + 1;
  }
  return text.length;
}

function skip(text: string, position: number, chars: string): number {
  while (position < text.length && chars.includes(text[position]!)) position++;
  return position;
}

/** A link's absolute http(s) URL without user info, or undefined for any other. */
function linkUrl(target: string, base: string | undefined): string | undefined {
  let url: URL;
  try {
    url = new URL(target.trim(), base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  url.username = '';
  url.password = '';
  return url.href.length > MAX_LINK_LENGTH ? undefined : url.href;
}

/** Operations a client remembers having warned about; raw requests' paths could grow it forever. */
const MAX_WARNED = 256;

/**
 * Warns of `notice` through `warn` unless `operation` has been warned of already (`warned` is the
 * client's memory of them): one line per operation, however many calls it answers.
 */
export function warnOnce(
  warned: Set<string>,
  operation: string,
  notice: DeprecationNotice,
  warn: (line: string) => void,
): void {
  if (warned.has(operation) || warned.size >= MAX_WARNED) return;
  warned.add(operation);
  warn(describeDeprecation(operation, notice));
}
