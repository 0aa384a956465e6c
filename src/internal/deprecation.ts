/**
 * The service's deprecation notices, read from any answer without trusting them: `Deprecation`
 * (RFC 9745), `Sunset` (RFC 8594) and `Link` (RFC 8288) with `rel="deprecation"` or
 * `rel="sunset"`. Pure functions that import nothing of the core, so the transport and a tracer
 * read the same notice from an answer's headers. Written small: it is in every client's bundle.
 *
 * Every scan is bounded and linear: values are cut or refused at a fixed length, no pattern can
 * backtrack over server text, and every loop moves forward. A value that says nothing usable gives
 * no date rather than a wrong one: a notice never holds an invalid Date, a date before 1990 (such
 * as the epoch) or after the year 9999.
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

// The dates a notice may hold: none before the web (an epoch of 0 is garbage, not 1970), none
// past the four-digit years an HTTP-date can write.
const MIN_DATE_MS = Date.UTC(1990, 0, 1);
const MAX_DATE_MS = Date.UTC(9999, 11, 31, 23, 59, 59);
/** Operations a client remembers having warned about; raw requests' paths could grow it forever. */
const MAX_WARNED = 256;

const MONTH = '(?<month>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)';
const TIME = '(?<hours>\\d\\d):(?<minutes>\\d\\d):(?<seconds>\\d\\d)';
// RFC 9110 §5.6.7: IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) and the obsolete RFC 850
// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`) forms.
const HTTP_DATES = [
  `^[a-z]{3,9}, (?<day>\\d\\d)[ -]${MONTH}[ -](?<year>\\d\\d|\\d{4}) ${TIME} GMT$`,
  `^[a-z]{3} ${MONTH} (?<day>[ \\d]\\d) ${TIME} (?<year>\\d{4})$`,
].map((source) => new RegExp(source, 'i'));
// Link (RFC 8288 §3): one parameter, `; name`, then a token or a quoted string as its value.
const LINK_PARAM = /;\s*([\w!#$%&'*+.^`|~-]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s;]*)))?/g;

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
  let deprecated = false;
  const deprecatedAt = readDate(headers.get(HEADER_DEPRECATION), (member) => {
    // RFC 9745: a Structured Field Date, `@` and whole seconds; before it, `true` or an HTTP-date.
    const seconds = /^@(-?\d{1,15})(?:;.*)?$/.exec(member)?.[1];
    const legacy = /^(?:true|\?1)$/i.test(member);
    const date = seconds
      ? inRange(Number(seconds) * 1000)
      : legacy
        ? undefined
        : httpDate(member, now);
    deprecated ||= seconds !== undefined || legacy || date !== undefined;
    return date;
  });
  const sunsetAt = readDate(headers.get(HEADER_SUNSET), (member) => httpDate(member, now));
  if (!deprecated && !sunsetAt) return undefined;
  const notice: DeprecationNotice = { deprecated };
  if (deprecatedAt) notice.deprecatedAt = deprecatedAt;
  if (sunsetAt) notice.sunsetAt = sunsetAt;
  readLinks(headers.get(HEADER_LINK), base, notice);
  return notice;
}

/**
 * Warns of `notice` through `warn` unless `operation` (`users.get`, or a raw request's method
 * and path) has been warned of already (`warned` is the client's memory of them): one line per
 * operation, naming it, both dates (or that none was given) and the link. The link shows without
 * its query and fragment (server text in a log line); the notice keeps it whole.
 */
export function warnOnce(
  warned: Set<string>,
  operation: string,
  notice: DeprecationNotice,
  warn: (line: string) => void,
): void {
  if (warned.has(operation) || warned.size >= MAX_WARNED) return;
  warned.add(operation);
  const link = (notice.deprecationLink ?? notice.sunsetLink)?.split(/[?#]/)[0]!.slice(0, 200);
  warn(
    `${operation} is ${notice.deprecated ? 'deprecated' : 'to be retired'} by the service (deprecation date ${isoDate(notice.deprecatedAt)}, sunset ${isoDate(notice.sunsetAt)}${link ? `, details ${link}` : ''}): move off it before the sunset, see docs/errors-and-retries.md`,
  );
}

/**
 * The one date a header gives: its members (a header sent twice arrives comma-joined; an
 * HTTP-date's own comma, before ` 06 Nov`, does not split) read by `parse`, and the date when
 * they agree; undefined when none parses, they differ, or the value is too long to be a date.
 */
function readDate(
  value: string | null,
  parse: (member: string) => Date | undefined,
): Date | undefined {
  if (value === null || value.length > 1024) return undefined;
  let date: Date | undefined;
  let conflict = false;
  for (const member of value.split(/,(?! ?\d\d[ -])/)) {
    const parsed = parse(member.trim());
    if (parsed && date && +parsed !== +date) conflict = true;
    date ??= parsed;
  }
  return conflict ? undefined : date;
}

/** An HTTP-date in any of its three forms, checked field by field (no Feb 30, no hour 24). */
function httpDate(value: string, now: number): Date | undefined {
  const fields =
    value.length > 40
      ? undefined
      : HTTP_DATES.map((form) => form.exec(value)).find(Boolean)?.groups;
  if (!fields) return undefined;
  const { day, month, year, hours, minutes, seconds } = fields as Record<string, string> & {
    year: string;
    month: string;
  };
  let fullYear = Number(year);
  if (year.length === 2) {
    // RFC 9110: a two-digit year more than 50 years ahead is the latest such year in the past.
    const thisYear = new Date(now).getUTCFullYear();
    fullYear += thisYear - (thisYear % 100);
    if (fullYear > thisYear + 50) fullYear -= 100;
  }
  // A leap second (`:60`) counts as the second before it.
  if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 60) return undefined;
  const ms = Date.UTC(
    fullYear,
    'janfebmaraprmayjunjulaugsepoctnovdec'.indexOf(month.toLowerCase()) / 3,
    Number(day),
    Number(hours),
    Number(minutes),
    Math.min(Number(seconds), 59),
  );
  // Date.UTC rolls Feb 30 over into March: a day the month does not have is garbage.
  return new Date(ms).getUTCDate() === Number(day) ? inRange(ms) : undefined;
}

function inRange(ms: number): Date | undefined {
  return ms >= MIN_DATE_MS && ms <= MAX_DATE_MS ? new Date(ms) : undefined;
}

/** An ISO 8601 date without milliseconds (`2027-06-30T00:00:00Z`), or `not given`. */
function isoDate(date: Date | undefined): string {
  return date?.toISOString().replace('.000Z', 'Z') ?? 'not given';
}

/**
 * Puts the first `rel="deprecation"` and `rel="sunset"` links of a `Link` value (its first 16 KB,
 * 64 links at most) on `notice`. Each link is `<uri>` then parameters up to the next comma outside
 * a quoted string; `rel` (its first occurrence) is a space-separated list read case-insensitively.
 * A link without `<…>` is skipped; a `<` without its `>` ends the scan.
 */
function readLinks(
  value: string | null,
  base: string | undefined,
  notice: DeprecationNotice,
): void {
  const text = value?.slice(0, 16 * 1024) ?? '';
  let position = 0;
  for (let count = 0; count < 64; count++) {
    const open = text.indexOf('<', position);
    const close = open === -1 ? -1 : text.indexOf('>', open);
    if (close === -1) return;
    let end = close + 1;
    for (let quoted = false; end < text.length && (quoted || text[end] !== ','); end++) {
      if (text[end] === '"') quoted = !quoted;
      else if (quoted && text[end] === '\\') end++;
    }
    let rel: string | undefined;
    for (const [, name, quotedValue, token] of text.slice(close + 1, end).matchAll(LINK_PARAM)) {
      if (name!.toLowerCase() === 'rel') {
        rel ??= quotedValue?.replace(/\\(.)/g, '$1') ?? token;
      }
    }
    const rels = rel?.toLowerCase().split(/\s+/) ?? [];
    const url = rels.length ? linkUrl(text.slice(open + 1, close), base) : undefined;
    if (url && rels.includes('deprecation')) notice.deprecationLink ??= url;
    if (url && rels.includes('sunset')) notice.sunsetLink ??= url;
    position = end + 1;
  }
}

/** A link's absolute http(s) URL without user info, at most 2,048 characters, or undefined. */
function linkUrl(target: string, base: string | undefined): string | undefined {
  try {
    const url = new URL(target.trim(), base);
    url.username = url.password = '';
    return /^https?:$/.test(url.protocol) && url.href.length <= 2048 ? url.href : undefined;
  } catch {
    return undefined;
  }
}
