// Every body form a recording holds, redacted by what it is: JSON field by field, a form pair by
// pair, a JSON body cut at the size cap by pattern, other text by shape, base64 decoded first.
import { describe, expect, it } from 'vitest';
import type { HarEntry } from '../../src/testing/har.js';
import { createRedactor } from '../../src/testing/redact.js';
import { entryOf } from './redact-entries.js';

const UUID = '7d3b0c52-abed-4c6e-9d0a-6a1f2b3cface';

/** An answer to `url` with `text` as its body, of `mimeType`, as a recording's file holds it. */
function answerAfter(url: string, text: string, mimeType = 'application/json'): string {
  const entry = entryOf({ url });
  entry.response.content = { size: text.length, mimeType, text };
  const redactor = createRedactor();
  // Redacted as it completes, then scrubbed with all learned: what the recorder writes.
  return redactor.scrub(redactor.redact(entry)!).response.content.text!;
}

describe('the bodies of a recording', () => {
  it('redacts the secret-named fields of a JSON body cut at the cap, escapes and spacing included', () => {
    const cut =
      '{"x":[{"api_key":"ab\\"c\\\\d","Client_Password" : "p1","other":"keep","token":"tt';
    expect(answerAfter('https://api.example/v1/other', cut)).toBe(
      '{"x":[{"api_key":"REDACTED","Client_Password" : "REDACTED","other":"keep","token":"tt',
    );
  });

  it('learns the names in a cut body only of an operation whose records hold names', () => {
    const cut = (name: string) => `{"data":[{"id":"1","name":"${name}"},{"id":"2","name":"Xy`;
    expect(answerAfter('https://api.example/v1/users', cut('Rosa \\"Ro\\" Haddad'))).toBe(
      cut('Person1 \\"Person2\\" Person3'),
    );
    expect(answerAfter('https://api.example/v1/teams', cut('Platform Crew'))).toBe(
      cut('Platform Crew'),
    );
  });

  it('keeps a cut body’s names when personal data may stay', () => {
    const cut = '{"data":[{"id":"1","name":"Rosa Haddad"},{"id":"2","name":"Rosa H';
    const entry = entryOf({ url: 'https://api.example/v1/users' });
    entry.response.content = { size: cut.length, mimeType: 'application/json', text: cut };
    expect(createRedactor({ personal: false }).redact(entry)!.response.content.text).toBe(cut);
  });

  it('redacts a form request pair by pair, naming the fields it changed, keeping the others as sent', () => {
    const entry = createRedactor().redact(
      entryOf({
        method: 'POST',
        url: 'https://auth.example/oauth/token',
        requestMime: 'application/x-www-form-urlencoded; charset=UTF-8',
        requestBody: 'grant_type=refresh_token&refresh_token=r-0123456789&scope=a+b',
      }),
    )!;
    const { postData } = entry.request;
    expect(postData!.text).toBe('grant_type=refresh_token&refresh_token=REDACTED&scope=a+b');
    expect(postData!.params).toEqual([
      { name: 'grant_type', value: 'refresh_token' },
      { name: 'refresh_token', value: 'REDACTED' },
      { name: 'scope', value: 'a b' },
    ]);
    expect(postData!._redacted).toEqual(['refresh_token']);
  });

  it('redacts in a text body Basic credentials, JSON Web Tokens and secret-named parameters, learning their values', () => {
    const jwt = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.';
    const text = [
      `Authorization: basic dXNlcjpwYXNzd29yZA==`,
      `id_token ${jwt} and x${jwt}`,
      'callback?state=ok&refresh_token=rt-secret-1;next=1',
      'again rt-secret-1',
    ].join('\n');
    expect(answerAfter('https://api.example/v1/other', text, 'text/plain')).toBe(
      [
        'Authorization: basic REDACTED',
        `id_token REDACTED and x${jwt}`,
        'callback?state=ok&refresh_token=REDACTED;next=1',
        'again REDACTED',
      ].join('\n'),
    );
  });

  it('leaves a text body without any secret’s mark as it is', () => {
    const text = 'state=ok&page=2 for bearers; basically no token here';
    expect(answerAfter('https://api.example/v1/other', text, 'text/plain')).toBe(text);
  });

  it('looks into a base64 body that is not UTF-8 a byte at a time, and encodes it again', () => {
    const bytes = [0xff, 0xfe, ...new TextEncoder().encode(` rk_live_${'a'.repeat(24)} `)];
    const text = btoa(String.fromCharCode(...bytes));
    const entry = entryOf();
    entry.response.content = {
      size: 0,
      mimeType: 'application/octet-stream',
      text,
      encoding: 'base64',
    };
    const out = createRedactor().redact(entry)!.response.content;
    expect(out.encoding).toBe('base64');
    expect(atob(out.text!)).toBe('\xff\xfe REDACTED ');
  });

  it('leaves a body that is not base64 as it was, though marked so', () => {
    const entry: HarEntry = entryOf();
    entry.response.content = {
      size: 0,
      mimeType: 'application/octet-stream',
      text: 'not base64 rk_live_%%%',
      encoding: 'base64',
    };
    expect(createRedactor().redact(entry)!.response.content.text).toBe('not base64 rk_live_%%%');
  });

  it('leaves a value that is an id, a timestamp or a number as it is, though it holds a name’s part', () => {
    const redactor = createRedactor();
    redactor.redact(
      entryOf({
        responseBody: { data: [{ id: UUID, name: 'Ada 47 00Z 7d3b0c52', email: 'a@b.example' }] },
      }),
    );
    const body = { id: UUID, at: '2026-11-28T12:00:00Z', n: '-47', z: '+47.00', note: 'Ada 47' };
    const out = redactor.redact(
      entryOf({ url: 'https://api.example/v1/other', responseBody: body }),
    )!;
    expect(JSON.parse(out.response.content.text!)).toEqual({ ...body, note: 'Person1 Person2' });
  });
});
