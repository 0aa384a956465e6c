import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type DeprecationNotice,
  parseDeprecation,
  warnOnce,
} from '../../src/internal/deprecation.js';

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const BASE = 'https://api.example/v1/users/u_1';
const MIN_MS = Date.UTC(1990, 0, 1);
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59);
/** The warning `warnOnce` gives for `notice`, from a client that has warned of nothing yet. */
function warning(operation: string, notice: DeprecationNotice): string {
  const lines: string[] = [];
  warnOnce(new Set(), operation, notice, (line) => void lines.push(line));
  return lines[0]!;
}
const hasControl = (text: string) =>
  [...text].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);
const notice = (entries: Record<string, string>) =>
  parseDeprecation(new Headers(entries), BASE, NOW);

describe('parseDeprecation: the Deprecation header', () => {
  it('reads the RFC 9745 date, @ and seconds since the epoch', () => {
    expect(notice({ deprecation: '@1688169599' })).toEqual({
      deprecated: true,
      deprecatedAt: new Date('2023-06-30T23:59:59Z'),
    });
  });

  it.each(['true', 'TRUE', '?1'])('reads the older %j as deprecated with no date', (value) => {
    expect(notice({ deprecation: value })).toEqual({ deprecated: true });
  });

  it('reads an HTTP-date, as the drafts before RFC 9745 sent it', () => {
    expect(notice({ deprecation: 'Fri, 30 Jun 2023 23:59:59 GMT' })).toEqual({
      deprecated: true,
      deprecatedAt: new Date('2023-06-30T23:59:59Z'),
    });
  });

  it('reads a header sent twice with the same date as that date, and differing ones as no date', () => {
    expect(notice({ deprecation: '@1688169599, @1688169599' })?.deprecatedAt).toEqual(
      new Date(1688169599_000),
    );
    expect(notice({ deprecation: '@1688169599, @1700000000' })).toEqual({ deprecated: true });
  });

  it('tolerates Structured Field parameters after the date', () => {
    expect(notice({ deprecation: '@1688169599;note=x' })?.deprecatedAt).toEqual(
      new Date(1688169599_000),
    );
  });

  it.each(['@0', '@-1', '@-1688169599', '@99999999999999', '@253402300800', '@1'])(
    'says deprecated with no date for the out-of-range %j, never 1970 or an Invalid Date',
    (value) => {
      expect(notice({ deprecation: value })).toEqual({ deprecated: true });
    },
  );

  it.each([
    'false',
    '?0',
    '',
    'yes',
    '@',
    '@1688169599.5',
    '@1.7e9',
    '@+1688169599',
    '@ 1688169599',
    '1688169599',
    '@1234567890123456',
    '@0x10',
    'Fri, 31 Jun 2023 23:59:59 GMT',
    '@1688169599\u0000',
  ])('ignores the unparsable %j, as Structured Fields say, and gives no notice', (value) => {
    // Read through `get` alone, as parseDeprecation reads any Headers: `new Headers()` refuses a
    // NUL, but another runtime's or a caller's fetch may hand one over.
    const headers = { get: (name: string) => (name === 'deprecation' ? value : null) };
    expect(parseDeprecation(headers as Headers, BASE, NOW)).toBeUndefined();
  });
});

describe('parseDeprecation: the Sunset header', () => {
  it.each([
    ['Wed, 30 Jun 2027 23:59:59 GMT', '2027-06-30T23:59:59Z'],
    ['wed, 30 jun 2027 23:59:59 gmt', '2027-06-30T23:59:59Z'],
    ['Wednesday, 30-Jun-27 23:59:59 GMT', '2027-06-30T23:59:59Z'],
    ['Sunday, 06-Nov-94 08:49:37 GMT', '1994-11-06T08:49:37Z'],
    ['Wed Jun 30 23:59:59 2027', '2027-06-30T23:59:59Z'],
    ['Sun Nov  6 08:49:37 1994', '1994-11-06T08:49:37Z'],
    ['Wed, 30 Jun 2027 23:59:60 GMT', '2027-06-30T23:59:59Z'],
    ['Wed, 30 Jun 2027 23:59:59 GMT, Wed, 30 Jun 2027 23:59:59 GMT', '2027-06-30T23:59:59Z'],
  ])('reads the HTTP-date %j in any of its three forms', (value, iso) => {
    expect(notice({ sunset: value })).toEqual({ deprecated: false, sunsetAt: new Date(iso) });
  });

  it.each([
    'Tue, 30 Feb 2027 00:00:00 GMT',
    'Wed, 30 Jun 2027 24:00:00 GMT',
    'Wed, 30 Jun 2027 23:60:00 GMT',
    'Thu, 01 Jan 1970 00:00:00 GMT',
    'Wed, 30 Jun 0027 23:59:59 GMT',
    'Wed, 30 Jun 0095 23:59:59 GMT',
    'Wed Jun 30 23:59:59 0095',
    'Wed, 30 Jun 2027 23:59:59 PST',
    'Wed, 30 Jux 2027 23:59:59 GMT',
    'Wed, 30 Anf 2027 23:59:59 GMT',
    'Wed, 30-Unj-27 23:59:59 GMT',
    'Wed, 30 Jun 2027 23:59:59 GMT, Thu, 01 Jul 2027 23:59:59 GMT',
    '2027-06-30',
    '2027-06-30T00:00:00Z',
    '1751327999',
    'tomorrow',
    'Wed, 30 Jun 2027 23:59:59 GMT'.padEnd(2000, 'x'),
  ])('gives no date for %j, never 1970 or an Invalid Date', (value) => {
    expect(notice({ sunset: value })).toBeUndefined();
  });

  it('places a two-digit RFC 850 year no more than 50 years ahead', () => {
    expect(notice({ sunset: 'Monday, 01-Jan-76 00:00:00 GMT' })?.sunsetAt).toEqual(
      new Date('2076-01-01T00:00:00Z'),
    );
    expect(notice({ sunset: 'Friday, 01-Jan-77 00:00:00 GMT' })?.sunsetAt).toBeUndefined(); // 1977
  });

  it('keeps the sunset beside an unparsable Deprecation, which alone would say nothing', () => {
    expect(notice({ deprecation: 'soon', sunset: 'Wed, 30 Jun 2027 23:59:59 GMT' })).toEqual({
      deprecated: false,
      sunsetAt: new Date('2027-06-30T23:59:59Z'),
    });
  });
});

describe('parseDeprecation: Link', () => {
  const deprecated = (link: string) => notice({ deprecation: 'true', link });

  it('takes the first deprecation and sunset links among several, with any parameters', () => {
    expect(
      deprecated(
        '<https://api.example/v1/users?page=2>; rel="next", <https://docs.example/deprecations/users-get>; type="text/html"; rel="deprecation", <https://docs.example/sunset>; rel=sunset, <https://docs.example/other>; rel="deprecation"',
      ),
    ).toEqual({
      deprecated: true,
      deprecationLink: 'https://docs.example/deprecations/users-get',
      sunsetLink: 'https://docs.example/sunset',
    });
  });

  it('reads rel as a space-separated list, in any case, and only its first occurrence', () => {
    expect(deprecated('<https://docs.example/both>; REL="Sunset  Deprecation"')).toMatchObject({
      deprecationLink: 'https://docs.example/both',
      sunsetLink: 'https://docs.example/both',
    });
    expect(deprecated('<https://docs.example/a>; rel="next"; rel="deprecation"')).toEqual({
      deprecated: true,
    });
  });

  it('resolves a relative link against the request, and keeps a comma or semicolon inside <> or quotes', () => {
    expect(
      deprecated(
        '<https://docs.example/a,b;c>; title="x, y; rel=sunset"; rel="deprecation", </policy>; rel="sunset"',
      ),
    ).toEqual({
      deprecated: true,
      deprecationLink: 'https://docs.example/a,b;c',
      sunsetLink: 'https://api.example/policy',
    });
  });

  it('drops links that are not http(s), too long, unparsable, and the user info of the rest', () => {
    expect(
      deprecated(
        `<javascript:alert(1)>; rel="deprecation", <https://docs.example/${'a'.repeat(3000)}>; rel="deprecation", <http://[::1>; rel="deprecation", <https://user:pass@docs.example/x>; rel="deprecation"`,
      ),
    ).toEqual({ deprecated: true, deprecationLink: 'https://docs.example/x' });
  });

  it('skips a malformed link and reads the next one', () => {
    for (const malformed of [
      'https://docs.example/no-brackets; rel="deprecation"',
      '<https://docs.example/a> rel="deprecation"',
      '<https://docs.example/a>; ="deprecation"',
      '<https://docs.example/a>; rel=="deprecation"',
    ]) {
      expect(
        deprecated(`${malformed}, <https://docs.example/good>; rel="deprecation"`)?.deprecationLink,
        malformed,
      ).toBe('https://docs.example/good');
    }
    // A quote left open runs to the end of the header, as quoted-string says: nothing more is read.
    expect(
      deprecated(
        '<https://docs.example/a>; rel="deprecation; title="x", <https://docs.example/b>; rel="deprecation"',
      ),
    ).toEqual({
      deprecated: true,
    });
  });

  it('gives no notice for a link alone: a sunset policy is no announcement', () => {
    expect(notice({ link: '<https://docs.example/x>; rel="deprecation sunset"' })).toBeUndefined();
  });
});

describe('parseDeprecation: garbage by category', () => {
  const names = fc.constantFrom('deprecation', 'sunset', 'link');
  const controls = fc
    .array(fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)))
    .map((chars) => chars.join(''));
  const numbers = fc.oneof(
    fc.double().map((n) => `@${n}`),
    fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map((n) => `@${n}`),
    fc.integer().map(String),
    fc.constantFrom('@NaN', '@Infinity', '@-0', '@1e308', '@00000000000001'),
  );
  const value = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    numbers,
    fc.tuple(fc.string(), controls, fc.string()).map((parts) => parts.join('')),
    fc
      .date({ noInvalidDate: false })
      .map((date) => (Number.isNaN(+date) ? 'x' : date.toUTCString())),
    fc
      .array(fc.constantFrom('<', '>', ';', ',', '"', '\\', '=', ' ', 'rel', 'deprecation', 'a'))
      .map((parts) => parts.join('')),
  );

  function headersOf(entries: Record<string, string>): Headers | undefined {
    try {
      return new Headers(entries);
    } catch {
      return undefined; // not a value fetch could have given us
    }
  }

  function expectSound(parsed: ReturnType<typeof parseDeprecation>): void {
    if (parsed === undefined) return;
    expect(typeof parsed.deprecated).toBe('boolean');
    for (const date of [parsed.deprecatedAt, parsed.sunsetAt]) {
      if (date === undefined) continue;
      expect(date).toBeInstanceOf(Date);
      expect(date.getTime()).toBeGreaterThanOrEqual(MIN_MS);
      expect(date.getTime()).toBeLessThanOrEqual(MAX_MS);
    }
    for (const link of [parsed.deprecationLink, parsed.sunsetLink]) {
      if (link === undefined) continue;
      expect(link).toMatch(/^https?:\/\/\S+$/);
      expect(hasControl(link)).toBe(false);
      expect(link.length).toBeLessThanOrEqual(2048);
    }
    const line = warning('users.get', parsed);
    expect(line).not.toMatch(/Invalid Date|1970-01-01|NaN|undefined/);
    expect(hasControl(line)).toBe(false);
  }

  it('never throws, and gives only real dates in range and clean http(s) links, for any values', () => {
    fc.assert(
      fc.property(fc.dictionary(names, value), (entries) => {
        const headers = headersOf(entries);
        if (headers) expectSound(parseDeprecation(headers, BASE, NOW));
      }),
      { seed: 31, numRuns: 2000 },
    );
  });

  it('reads any in-range epoch exactly, and no out-of-range one as a date', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (seconds) => {
        const parsed = notice({ deprecation: `@${seconds}` })!;
        const ms = seconds * 1000;
        expect(parsed.deprecated).toBe(true);
        expect(parsed.deprecatedAt).toEqual(
          ms >= MIN_MS && ms <= MAX_MS ? new Date(ms) : undefined,
        );
      }),
      { seed: 31 },
    );
  });

  it('reads any in-range IMF-fixdate to the second', () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_MS / 1000, max: MAX_MS / 1000 }), (seconds) => {
        const date = new Date(seconds * 1000);
        expect(notice({ sunset: date.toUTCString() })?.sunsetAt).toEqual(date);
      }),
      { seed: 31 },
    );
  });

  it('finds the deprecation link among any number of other links, whatever their parameters', () => {
    const token = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
    const param = fc.tuple(
      token,
      fc.oneof(
        token,
        fc.string().map((s) => JSON.stringify(s)),
      ),
    );
    const other = fc
      .tuple(fc.webUrl(), fc.array(param, { maxLength: 3 }))
      .map(
        ([url, params]) =>
          `<${url}>${params.map(([n, v]) => `; ${n === 'rel' ? 'x' : n}=${v}`).join('')}`,
      );
    fc.assert(
      fc.property(
        fc.array(other, { maxLength: 6 }),
        fc.array(other, { maxLength: 6 }),
        fc.constantFrom(
          'rel=deprecation',
          'rel="deprecation"',
          'REL="sunset deprecation"',
          'rel = "deprecation"',
        ),
        (before, after, rel) => {
          const link = [...before, `<https://docs.example/target>; ${rel}`, ...after].join(', ');
          expect(notice({ deprecation: 'true', link })?.deprecationLink).toBe(
            'https://docs.example/target',
          );
        },
      ),
      { seed: 31 },
    );
  });

  it('reads headers of 8 KB and more in linear time, whatever they repeat', () => {
    // A backtracking scan would not finish: these would hang the suite rather than fail it.
    const long = 64 * 1024;
    for (const unit of [
      '<',
      '>',
      ';',
      ',',
      '"',
      '\\"',
      '; rel=',
      '<a>; rel="',
      '<a>;',
      'GMT,',
      '@1,',
      ' ',
    ]) {
      const text = unit.repeat(Math.ceil(long / unit.length));
      expectSound(
        parseDeprecation(new Headers({ deprecation: text, sunset: text, link: text }), BASE, NOW),
      );
      expectSound(
        parseDeprecation(
          new Headers({ deprecation: 'true', link: `deprecation${text}` }),
          BASE,
          NOW,
        ),
      );
    }
    const links = Array.from({ length: 400 }, (_, i) => `<https://docs.example/${i}>; rel="next"`);
    const far = `${links.join(', ')}, <https://docs.example/far>; rel="deprecation"`;
    expect(far.length).toBeGreaterThan(8 * 1024);
    // Links past the 64th are not read: a header this long is not one a service writes.
    expect(notice({ deprecation: 'true', link: far })).toEqual({ deprecated: true });
  });
});

describe('warnOnce', () => {
  it('names the operation, both dates and the link, without the link’s query', () => {
    expect(
      warning('users.get', {
        deprecated: true,
        deprecatedAt: new Date('2026-01-01T00:00:00Z'),
        sunsetAt: new Date('2027-06-30T00:00:00Z'),
        deprecationLink: 'https://docs.example/users-get?token=abc#top',
      }),
    ).toBe(
      'users.get is deprecated by the service (deprecation date 2026-01-01T00:00:00Z, sunset 2027-06-30T00:00:00Z, details https://docs.example/users-get): move off it before the sunset, see https://github.com/employee-recognition/sdk-typescript/blob/main/docs/errors-and-retries.md#deprecation-notices',
    );
  });

  it('says when a date was not given, and names a sunset-only notice as a retirement', () => {
    expect(warning('GET /v1/things', { deprecated: true })).toBe(
      'GET /v1/things is deprecated by the service (deprecation date not given, sunset not given): move off it before the sunset, see https://github.com/employee-recognition/sdk-typescript/blob/main/docs/errors-and-retries.md#deprecation-notices',
    );
    expect(
      warning('users.list', {
        deprecated: false,
        sunsetAt: new Date('2027-06-30T00:00:00Z'),
        sunsetLink: 'https://docs.example/policy',
      }),
    ).toMatch(
      /^users\.list is to be retired by the service \(deprecation date not given, sunset 2027-06-30T00:00:00Z, details https:\/\/docs\.example\/policy\)/,
    );
  });
});

describe('warnOnce', () => {
  it('warns once per operation, and no number of raw paths before silences a named operation', () => {
    const warned = new Set<string>();
    const lines: string[] = [];
    const warn = (line: string) => void lines.push(line);
    for (let round = 0; round < 3; round++) {
      warnOnce(warned, 'users.get', { deprecated: true }, warn);
      warnOnce(warned, 'GET /v1/things', { deprecated: true }, warn);
    }
    expect(lines.map((line) => line.split(' is ')[0])).toEqual(['users.get', 'GET /v1/things']);
    for (let index = 0; index < 100_000; index++) {
      warnOnce(warned, `GET /v1/things${index}`, { deprecated: true }, warn);
    }
    // Raw paths: bounded memory (256 entries, the named operation's among them).
    expect(warned.size).toBe(256);
    expect(lines).toHaveLength(256);
    // Named operations are still taken, each warned once.
    for (let round = 0; round < 3; round++) {
      warnOnce(warned, 'users.list', { deprecated: true }, warn);
      warnOnce(warned, 'users.get', { deprecated: true }, warn);
    }
    expect(lines.slice(256).map((line) => line.split(' is ')[0])).toEqual(['users.list']);
    expect(warned.size).toBe(257);
  });
});
