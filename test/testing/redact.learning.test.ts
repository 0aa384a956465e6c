// What the redaction learns from where a secret is named (a credential header, a URL's user
// info, a secret-named field) and replaces wherever it shows again, whatever its shape.
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/testing/redact.js';
import { entryOf } from './redact-entries.js';

/** The answer's `note` after an entry sending `requestHeaders` is redacted. */
function noteAfter(requestHeaders: Record<string, string>, note: string, url?: string): string {
  const entry = createRedactor().redact(
    entryOf({ requestHeaders, responseBody: { data: { note } }, ...(url ? { url } : {}) }),
  )!;
  return JSON.parse(entry.response.content.text!).data.note;
}

describe('what the redaction learns', () => {
  it('replaces a learned value of 8 characters or more elsewhere, and not a shorter one', () => {
    expect(noteAfter({ 'x-api-key': 'abcdefgh' }, 'key abcdefgh')).toBe('key REDACTED');
    expect(noteAfter({ 'x-api-key': 'abcdefg' }, 'key abcdefg')).toBe('key abcdefg');
  });

  it('learns the credential of a Bearer or Basic header, in any case', () => {
    expect(noteAfter({ authorization: 'bearer opaque-Token.42' }, 'was opaque-Token.42')).toBe(
      'was REDACTED',
    );
    const basic = btoa('client-7:pa%20ss-Secret');
    expect(noteAfter({ 'proxy-authorization': `BASIC ${basic}` }, `sent ${basic}`)).toBe(
      'sent REDACTED',
    );
  });

  it('learns the secret alone of a Basic credential, decoded, and not the id before its colon', () => {
    const basic = `Basic ${btoa('client-7:pa%20ss-Secret')}`;
    expect(
      noteAfter({ authorization: basic }, 'client-7 sent pa ss-Secret and pa%20ss-Secret'),
    ).toBe('client-7 sent REDACTED and REDACTED');
    // An id that is empty: the secret is all after the colon.
    expect(noteAfter({ authorization: `Basic ${btoa(':only-Secret')}` }, 'only-Secret')).toBe(
      'REDACTED',
    );
    // Not base64, or no colon: the credential alone is learned.
    expect(noteAfter({ authorization: 'Basic no-colon-in-it' }, 'no-colon-in-it')).toBe('REDACTED');
    expect(
      noteAfter({ authorization: `Basic ${btoa('no-colon-Secret')}` }, 'no-colon-Secret'),
    ).toBe('no-colon-Secret');
  });

  it('learns the password of the request URL’s user info, decoded', () => {
    expect(
      noteAfter({}, 'the password p@ss-Word1', 'https://admin:p%40ss-Word1@api.example/v1/users'),
    ).toBe('the password REDACTED');
  });

  it('learns a credential after any run of spaces, and only from a value that is a scheme and a credential', () => {
    expect(noteAfter({ authorization: 'Bearer \t two-spaces-Tok' }, 'two-spaces-Tok')).toBe(
      'REDACTED',
    );
    const entry = createRedactor().redact(
      entryOf({
        requestHeaders: { 'x-token': 'use Bearer abcdefgh12', 'y-token': 'Bearer ijklmnop34 too' },
        responseBody: { note: 'abcdefgh12 ijklmnop34' },
      }),
    )!;
    expect(JSON.parse(entry.response.content.text!).note).toBe('abcdefgh12 ijklmnop34');
  });

  it('reads only a Basic credential as an id and a secret, not a Bearer one that decodes to the same', () => {
    const bearer = btoa('id-7:s3cret-part');
    // A Bearer credential that holds the word itself, and decodes to a text with a colon.
    const worded = `BasicAAA${btoa(':w0rded-part')}`;
    expect(
      noteAfter(
        { authorization: `Bearer ${bearer}`, 'x-token': `Bearer ${worded}` },
        's3cret-part w0rded-part',
      ),
    ).toBe('s3cret-part w0rded-part');
  });

  it('finds a learned secret in a text that holds it escaped, whatever characters it has besides', () => {
    const entry = entryOf({ requestHeaders: { 'x-api-key': 'abc///defghij' } });
    // A JSON body cut at the cap: text, the secret in it JSON-escaped.
    const cut = '{"note":"abc\\/\\/\\/defghij","more":"';
    entry.response.content = { size: 0, mimeType: 'application/json', text: cut };
    const redactor = createRedactor();
    const out = redactor.scrub(redactor.redact(entry)!);
    expect(out.response.content.text).toBe('{"note":"REDACTED","more":"');
  });

  it('learns the password of a URL in any text, for every field scrubbed after', () => {
    const redactor = createRedactor();
    const entry = redactor.redact(
      entryOf({
        responseBody: { link: 'https://u:pw-9876543210@files.example/x', note: 'pw-9876543210' },
      }),
    )!;
    expect(JSON.parse(redactor.scrub(entry).response.content.text!)).toEqual({
      link: 'https://files.example/x',
      note: 'REDACTED',
    });
  });

  it('learns the request URL’s secret parameters before its path is scrubbed', () => {
    const entry = createRedactor().redact(
      entryOf({ url: 'https://api.example/v1/echo/q-0123456789?token=q-0123456789' }),
    )!;
    expect(entry.request.url).toBe('https://api.example/v1/echo/REDACTED?token=REDACTED');
  });
});
