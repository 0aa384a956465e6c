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
      '{"x":[{"api_key":"ab\\"c\\\\d","Client_Password" : "p1","passwd":"p2","x_token_v":"t1","other":"keep","token":"tt';
    expect(answerAfter('https://api.example/v1/other', cut)).toBe(
      '{"x":[{"api_key":"REDACTED","Client_Password" : "REDACTED","passwd":"REDACTED","x_token_v":"REDACTED","other":"keep","token":"tt',
    );
  });

  it('learns the names in a cut body only of an operation whose records hold names', () => {
    const cut = (name: string) => `{"data":[{"id":"1","name" : "${name}"},{"id":"2","name":"Xy`;
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
      'Proxy-Authorization: Basic   cHJveHk6c2VjcmV0',
      'token=first-secret&key=kv-secret-2',
      `id_token ${jwt} and x${jwt}`,
      'callback?state=ok&refresh_token=rt-secret-1;next=1',
      'again rt-secret-1',
    ].join('\n');
    expect(answerAfter('https://api.example/v1/other', text, 'text/plain')).toBe(
      [
        'Authorization: basic REDACTED',
        'Proxy-Authorization: Basic   REDACTED',
        'token=REDACTED&key=REDACTED',
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
        responseBody: {
          data: [{ id: UUID, name: 'Ada 47 00Z 00 0100 7d3b0c52', email: 'a@b.example' }],
        },
      }),
    );
    const body = {
      id: UUID,
      at: '2026-11-28T12:00:00Z',
      offset: '2026-11-28T12:00:00.5+01:00',
      compact: '2026-11-28T12:00:00-0100',
      local: '2026-11-28T12:00:00',
      n: '-47',
      z: '+47.00',
      note: 'Ada 47',
    };
    const out = redactor.redact(
      entryOf({ url: 'https://api.example/v1/other', responseBody: body }),
    )!;
    expect(JSON.parse(out.response.content.text!)).toEqual({ ...body, note: 'Person1 Person2' });
  });

  it('names each field of a JSON request it changed by its path, and only those', () => {
    const redactor = createRedactor();
    redactor.redact(
      entryOf({ responseBody: { data: [{ id: UUID, name: 'Jane Roe', email: 'j@r.example' }] } }),
    );
    const body = {
      list: [{ token: 'tok-123456789' }, 'Jane'],
      obj: { password: 'pw-123456789', note: 'by Roe' },
      token: 'REDACTED',
      unset: null,
      session: null,
      credentials: { id: 'c1', kind: 'k1' },
      plain: 'nothing',
    };
    const entry = redactor.redact(
      entryOf({
        method: 'POST',
        url: 'https://api.example/v1/other',
        requestBody: JSON.stringify(body),
      }),
    )!;
    expect(JSON.parse(entry.request.postData!.text!)).toEqual({
      ...body,
      list: [{ token: 'REDACTED' }, 'Person1'],
      obj: { password: 'REDACTED', note: 'by Person2' },
    });
    expect(entry.request.postData!._redacted).toEqual([
      'list[0].token',
      'obj.password',
      'list[1]',
      'obj.note',
    ]);
  });

  it('redacts a JSON request field by field: a short secret and an email field that holds no address', () => {
    const entry = createRedactor().redact(
      entryOf({
        method: 'POST',
        requestBody: JSON.stringify({ password: 'short', email: 'not an address' }),
      }),
    )!;
    expect(JSON.parse(entry.request.postData!.text!)).toEqual({
      password: 'REDACTED',
      email: 'person1@redacted.invalid',
    });
  });

  it('leaves a request with nothing to redact as sent, without marks', () => {
    const text = '{ "plain": "nothing" }';
    const entry = createRedactor().redact(entryOf({ method: 'POST', requestBody: text }))!;
    expect(entry.request.postData).toStrictEqual({
      mimeType: 'application/json',
      text: JSON.stringify(JSON.parse(text)),
    });
    // A form is written again as the redaction reads it (a replay matches its fields); the last
    // pass keeps the text of one it finds nothing in as it is.
    const form = createRedactor().scrub(
      entryOf({
        method: 'POST',
        requestMime: 'application/x-www-form-urlencoded',
        requestBody: 'a=%7E&b=c%20d',
      }),
    );
    expect(form.request.postData!.text).toBe('a=%7E&b=c%20d');
    expect(form.request.postData!._redacted).toBeUndefined();
  });

  it('scrubs a text request as text', () => {
    const entry = createRedactor().redact(
      entryOf({
        method: 'POST',
        requestMime: 'text/plain',
        requestBody: 'key rk_live_abcdefghijklmnopqrstuvwx',
      }),
    )!;
    expect(entry.request.postData!.text).toBe('key REDACTED');
  });

  it('scrubs a form’s field names and values with what it learned, naming the fields whose value changed', () => {
    const redactor = createRedactor();
    redactor.redact(
      entryOf({ responseBody: { data: [{ id: UUID, name: 'Jane Roe', email: 'j@r.example' }] } }),
    );
    const form = (requestBody: string) =>
      redactor.redact(
        entryOf({
          method: 'POST',
          requestMime: 'application/x-www-form-urlencoded; charset=UTF-8',
          requestBody,
        }),
      )!.request.postData!;
    const names = form('Jane=1&x=2');
    expect(names.text).toBe('Person1=1&x=2');
    expect(names._redacted).toBeUndefined();
    const values = form('to=Roe&x=2');
    expect(values.text).toBe('to=Person2&x=2');
    expect(values._redacted).toEqual(['to']);
  });

  it('redacts a form given as params without text, as other tools write it', () => {
    const entry = entryOf({ method: 'POST' });
    entry.request.postData = {
      mimeType: 'application/x-www-form-urlencoded',
      params: [
        { name: 'client_secret', value: 'cs-0123456789' },
        { name: 'scope', value: 'read' },
      ],
    };
    const out = createRedactor().redact(entry)!;
    expect(out.request.postData).toStrictEqual({
      mimeType: 'application/x-www-form-urlencoded',
      params: [
        { name: 'client_secret', value: 'REDACTED' },
        { name: 'scope', value: 'read' },
      ],
    });
  });
});
