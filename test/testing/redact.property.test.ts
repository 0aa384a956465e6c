// The recording's redaction by category: every secret and personal value, of any shape, echoed
// into every field of a HAR entry (URL path and query, queryString, redirectURL, Location and
// other headers, JSON, form, text and base64 bodies), is in none of the file's values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FUZZ_SEED, fuzzRuns } from '../support/fuzz.js';
import type { HarEntry } from '../../src/testing/har.js';
import { harEntry } from '../support/har-entry.js';
import { createRedactor } from '../../src/testing/redact.js';

const USER_ID = '7d3b0c52-abed-4c6e-9d0a-6a1f2b3cface';
const enc = encodeURIComponent;
const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

const json = (value: unknown) => ({
  size: 0,
  mimeType: 'application/json',
  text: JSON.stringify(value),
});

/** Entries that teach the redaction a secret (a token answer) and a person (a user record). */
function teaching(secret: string, name: string, email: string): HarEntry[] {
  return [
    harEntry({
      method: 'POST',
      url: 'https://auth.example/oauth/token',
      postData: {
        mimeType: 'application/x-www-form-urlencoded',
        text: 'grant_type=client_credentials',
      },
      content: json({ access_token: secret, token_type: 'Bearer', expires_in: 3600 }),
    }),
    harEntry({
      url: `https://api.example/v1/users/${USER_ID}`,
      content: json({ data: { id: USER_ID, name, email, role: 'member' } }),
    }),
  ];
}

/** An entry echoing `value` into every field a service or an app may put it in. */
function echoing(value: string): HarEntry[] {
  const link = `https://files.example/v1/echo/${enc(value)}/x?ref=${enc(value)}`;
  return [
    harEntry({
      method: 'POST',
      url: `https://api.example/v1/echo/${enc(value)}?q=${enc(value)}&${enc(value)}=1`,
      requestHeaders: [
        { name: 'x-echo', value },
        { name: 'referer', value: link },
      ],
      postData: { mimeType: 'application/json', text: JSON.stringify({ note: value, [value]: 1 }) },
      status: 302,
      responseHeaders: [
        { name: 'location', value: link },
        { name: 'link', value: `<${link}>; rel="next"` },
        { name: 'x-echo', value: `was ${value}.` },
      ],
      redirectURL: link,
      content: json({ message: `Hello ${value}!`, value, links: { next: link }, list: [value] }),
    }),
    harEntry({
      method: 'POST',
      url: 'https://api.example/v1/forms',
      postData: {
        mimeType: 'application/x-www-form-urlencoded',
        text: new URLSearchParams({ field: value, other: `a ${value} b` }).toString(),
      },
      content: { size: 0, mimeType: 'text/plain', text: `plain ${value} text` },
    }),
    harEntry({
      url: 'https://api.example/v1/blob',
      content: {
        size: 0,
        mimeType: 'application/octet-stream',
        text: base64(JSON.stringify({ inside: value, text: `x ${value} y` })),
        encoding: 'base64',
      },
    }),
    harEntry({
      url: 'https://api.example/v1/cut',
      // A JSON body cut at the size cap: text, with the value JSON-escaped in it.
      content: {
        size: 0,
        mimeType: 'application/json',
        text: `{"echo":${JSON.stringify(value)},"more":"`,
      },
    }),
  ];
}

/** Every string a reader of the file sees: values, keys, bodies parsed and decoded, URLs decoded. */
function readable(entries: HarEntry[]): string[] {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      out.push(value);
      try {
        out.push(decodeURIComponent(value.replace(/\+/g, ' ')));
      } catch {
        // Not percent-encoded text.
      }
      for (const [, param] of new URLSearchParams(value)) out.push(param);
      try {
        walk(JSON.parse(value));
      } catch {
        // Not JSON.
      }
      if (/^[A-Za-z0-9+/]+=*$/.test(value) && value.length % 4 === 0) {
        try {
          const bytes = Uint8Array.from(atob(value), (char) => char.charCodeAt(0));
          walk(new TextDecoder().decode(bytes));
        } catch {
          // Not base64.
        }
      }
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        out.push(key);
        walk(item);
      }
    }
  };
  walk(JSON.parse(JSON.stringify(entries)));
  return out;
}

/** A recording's passes: each entry redacted as it completes, then all scrubbed again. */
function record(entries: HarEntry[]): HarEntry[] {
  const redactor = createRedactor();
  const kept = entries.flatMap((each) => redactor.redact(each) ?? []);
  return kept.map((each) => redactor.scrub(each));
}

// Any text a service may return as a secret: every code point, 8 or more.
const anySecret = fc.string({ unit: 'binary', minLength: 8, maxLength: 40 });
// A person's name: two or three words of letters, Latin or not.
const letters = fc.constantFrom(
  ...'abcdefghijklmnopqrstuvwxyzéøßçğłñüžαβγдежзкмнпタナカ李王'.split(''),
);
const word = fc
  .tuple(
    fc.constantFrom(...'ABCDEFGHIJKLMNOPRSTUVWZÅÉÖŁŽΑДタ李'.split('')),
    fc.array(letters, { minLength: 3, maxLength: 9 }),
  )
  .map(([first, rest]) => first + rest.join(''));
const anyName = fc.array(word, { minLength: 2, maxLength: 3 }).map((words) => words.join(' '));

const wordPattern = (part: string) =>
  new RegExp(
    `(?<![\\p{L}\\p{N}])${part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`,
    'iu',
  );

describe('the redaction of a recording, by category', () => {
  it(
    'leaves no echo of a learned secret of any shape, a name or an email in any field',
    () => {
      const baseline = JSON.stringify(
        record([...teaching('x'.repeat(8), 'Ab Cd', 'a@b.cd'), ...echoing('')]),
      );
      fc.assert(
        fc.property(
          anySecret,
          anyName,
          fc.emailAddress(),
          fc.boolean(),
          (secret, name, email, late) => {
            // What the file holds anyway (its structure, field names) cannot be told from an echo.
            fc.pre(
              !baseline.includes(secret) && !baseline.toLowerCase().includes(email.toLowerCase()),
            );
            fc.pre(!'REDACTED'.includes(secret) && !secret.includes('REDACTED'));
            const echoes = [...echoing(secret), ...echoing(name), ...echoing(email)];
            // Learned before or after the echoes: the last pass catches those written before.
            const entries = late
              ? [...echoes, ...teaching(secret, name, email)]
              : [...teaching(secret, name, email), ...echoes];
            const seen = readable(record(entries));
            const leaks = seen.filter(
              (text) =>
                text.includes(secret) ||
                text.toLowerCase().includes(email.toLowerCase()) ||
                name.split(' ').some((part) => wordPattern(part).test(text)),
            );
            expect(leaks).toEqual([]);
          },
        ),
        { seed: FUZZ_SEED, numRuns: fuzzRuns(60) },
      );
      // About 60 ms a run on a busy machine: the time allowed grows with FUZZ_RUNS.
    },
    fuzzRuns(20_000),
  );

  it(
    'leaves no secret known by its shape, in any field, unlearned',
    () => {
      const shaped = fc.oneof(
        fc.stringMatching(/^[A-Za-z0-9]{24,30}$/).map((tail) => `rk_live_${tail}`),
        fc.stringMatching(/^[A-Za-z0-9+/]{24,32}$/).map((tail) => `whsec_${tail}`),
      );
      fc.assert(
        fc.property(shaped, (secret) => {
          const seen = readable(record(echoing(secret)));
          expect(seen.filter((text) => text.includes(secret))).toEqual([]);
        }),
        { seed: FUZZ_SEED, numRuns: fuzzRuns(40) },
      );
    },
    fuzzRuns(20_000),
  );
});
