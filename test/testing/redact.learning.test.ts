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
});
