/**
 * The service's deprecation notices, read from any answer without trusting them: `Deprecation`
 * (RFC 9745), `Sunset` (RFC 8594) and `Link` (RFC 8288) with `rel="deprecation"` or
 * `rel="sunset"`. Pure functions that import nothing of the core, so the transport and a tracer
 * read the same notice from an answer's headers. Written small (it is in every client's bundle:
 * docs/benchmarks.md, Size), so each check is the shortest that holds the invariants below.
 *
 * Every scan is bounded and linear: values are cut or refused at a fixed length, no pattern can
 * backtrack over server text, and every loop moves forward. A value that says nothing usable gives
 * no date rather than a wrong one: a notice never holds an invalid Date, a date before 1990 (such
 * as the epoch) or after the year 9999.
 */
import { HEADER_DEPRECATION, HEADER_LINK, HEADER_SUNSET } from '../contract.js';
import { DOCS_URL } from '../version.js';
import { readLinks } from './link.js';

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

/**
 * Entries past which a client's memory of warnings takes no more raw request paths: raw calls can
 * name any path. Named operations (a fixed list) are always taken, so no number of raw paths
 * before them can silence their warning.
 */
const MAX_WARNED = 256;

/**
 * The notice an answer's headers carry, or undefined when it carries none (no usable
 * `Deprecation` or `Sunset`). `base` resolves relative links (the request's URL); only http(s)
 * links are kept, without user info. `now` places two-digit years of the obsolete RFC 850 date.
 * Each link passes through `redact`: it is server text the notice hands out, and a service may
 * echo the credential into it.
 */
export function parseDeprecation(
  headers: Headers,
  base?: string,
  now = Date.now(),
  redact = (link: string) => link,
): DeprecationNotice | undefined {
  // RFC 9745: a Structured Field Date, `@` and whole seconds (an out-of-range one says deprecated,
  // with no date); before it, `true` (or `?1`) or an HTTP-date.
  const [deprecated, deprecatedAt] = readDate(headers.get(HEADER_DEPRECATION), (member) => {
    const seconds = /^@(-?\d{1,15})(;.*)?$/.exec(member)?.[1];
    return seconds
      ? inRange(+seconds * 1000) || NaN
      : /^(true|\?1)$/i.test(member)
        ? NaN
        : httpDate(member, now);
  });
  const sunsetAt = readDate(headers.get(HEADER_SUNSET), (member) => httpDate(member, now))[1];
  if (!deprecated && !sunsetAt) return undefined;
  const notice: DeprecationNotice = { deprecated };
  if (deprecatedAt) notice.deprecatedAt = deprecatedAt;
  if (sunsetAt) notice.sunsetAt = sunsetAt;
  const { deprecation, sunset } = readLinks(headers.get(HEADER_LINK), base);
  if (deprecation) notice.deprecationLink = redact(deprecation);
  if (sunset) notice.sunsetLink = redact(sunset);
  return notice;
}

/**
 * Warns of `notice` through `warn` unless `operation` has been warned of already (`warned` is the
 * client's memory): one line per operation, naming it, both dates (or that none was given) and
 * the link. `operation` is a named operation (`users.get`), or a raw request's method and path
 * template (`GET /v1/users/{id}`: one per collection however many ids are called). Past
 * {@link MAX_WARNED} entries, raw paths are no longer taken nor warned of (their notices still
 * reach `withResponse()`, hooks and telemetry). The link shows without its query and fragment
 * (server text in a log line); the notice keeps it whole.
 */
export function warnOnce(
  warned: Set<string>,
  operation: string,
  notice: DeprecationNotice,
  warn: (line: string) => void,
): void {
  if (warned.has(operation)) return;
  // A raw request's name has a space (`GET /v1/things`); a named operation's has none.
  if (operation.includes(' ') && warned.size >= MAX_WARNED) return;
  warned.add(operation);
  const link = (notice.deprecationLink ?? notice.sunsetLink)?.split(/[?#]/)[0]!.slice(0, 200);
  warn(
    `${operation} is ${notice.deprecated ? 'deprecated' : 'to be retired'} by the service (deprecation date ${isoDate(notice.deprecatedAt)}, sunset ${isoDate(notice.sunsetAt)}${link ? `, details ${link}` : ''}): move off it before the sunset, see ${DOCS_URL}errors-and-retries.md#deprecation-notices`,
  );
}

/**
 * Whether a header said anything `parse` recognises, and the one date it gives. Its members (a
 * header sent twice arrives comma-joined; an HTTP-date's own comma, before ` 06 Nov`, does not
 * split) are read by `parse`: a time in milliseconds, NaN for a member recognised without a usable
 * date, undefined for one it does not recognise. The date is there when the members' dates agree;
 * a value too long to be a date says nothing.
 */
function readDate(
  value: string | null,
  parse: (member: string) => number | undefined,
): [boolean, Date | undefined] {
  const times =
    value && value.length <= 1024
      ? value
          .split(/,(?! ?\d\d[ -])/)
          .map((member) => parse(member.trim()))
          .filter((time) => time !== undefined)
      : [];
  // NaN (a member without a date) is the one value unequal to itself.
  const [date, ...others] = new Set(times.filter((time) => time === time));
  return [times.length > 0, date !== undefined && !others.length ? new Date(date) : undefined];
}

/**
 * An HTTP-date (RFC 9110 §5.6.7) in milliseconds, or undefined. A recipient must accept all three
 * forms: IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`)
 * and asctime (`Sun Nov  6 08:49:37 1994`, turned into the first form here). Fields are read by one
 * anchored pattern over at most 40 characters, not by `Date.parse`, which takes other forms and
 * time zones too and reads a two-digit year or a zoneless asctime date differently on each
 * runtime. A day the month does not have (Feb 30) is refused, not rolled over.
 */
function httpDate(value: string, now: number): number | undefined {
  const fields =
    value.length <= 40 &&
    /^[a-z]{3,9}, ?([ \d]?\d)[ -]([a-z]{3})[ -](\d\d|[1-9]\d{3}) ([01]\d|2[0-3]):([0-5]\d):([0-5]\d|60) gmt$/i.exec(
      value.replace(/^(\w{3}) (\w{3}) ( ?\d+) (\S+) (\d{4})$/, '$1, $3 $2 $5 $4 GMT'),
    );
  if (!fields) return undefined;
  const [, day, month, year, hours, minutes, seconds] = fields as unknown as string[];
  // RFC 9110: a two-digit year is the latest year ending in those digits at most 50 years ahead.
  const latest = new Date(now).getUTCFullYear() + 50;
  // Each month's three letters appear in this string only at a multiple of three, so any other
  // index (or -1, not found) is no month.
  const monthAt = 'janfebmaraprmayjunjulaugsepoctnovdec'.indexOf(month!.toLowerCase());
  if (monthAt % 3) return undefined;
  const ms = Date.UTC(
    year!.length > 2 ? +year! : latest - ((latest - +year!) % 100),
    monthAt / 3,
    +day!,
    +hours!,
    +minutes!,
    // A leap second (`:60`) counts as the second before it.
    Math.min(+seconds!, 59),
  );
  return new Date(ms).getUTCDate() === +day! ? inRange(ms) : undefined;
}

/**
 * `ms` when it is a date a notice may hold (1990 to 9999), or undefined: none before the web (an
 * epoch of 0 is garbage, not 1970), none past the four-digit years an HTTP-date can write.
 */
function inRange(ms: number): number | undefined {
  return ms >= 631152e6 && ms < 2534023008e5 ? ms : undefined;
}

/** An ISO 8601 date without milliseconds (`2027-06-30T00:00:00Z`), or `not given`. */
function isoDate(date: Date | undefined): string {
  return date?.toISOString().replace('.000Z', 'Z') ?? 'not given';
}
