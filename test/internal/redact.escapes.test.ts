// The credential found through the escapes a server or a parser writes, and the text given back
// with those escapes written out: never a control character's, so that an echo cannot forge a
// line; a credential too short to be one is left alone.
import { describe, expect, it } from 'vitest';
import {
  holdsCredential,
  REDACTED,
  redactCredential,
  redactSecrets,
  redactUrl,
} from '../../src/internal/redact.js';

const R = REDACTED;

describe('the credential through escapes', () => {
  it('is redacted from 8 characters, and a shorter one is left, whatever it is', () => {
    expect(redactSecrets('a 12345678 b', '12345678')).toBe(`a ${R} b`);
    expect(redactSecrets('a 1234567 b', '1234567')).toBe('a 1234567 b');
    expect(holdsCredential('a 12345678 b', '12345678')).toBe(true);
    expect(holdsCredential('a 1234567 b', '1234567')).toBe(false);
    expect(holdsCredential('a 12345678 b', '87654321')).toBe(false);
    expect(redactSecrets('a 12345678 b')).toBe('a 12345678 b');
  });

  it('writes the escapes of a text it found the credential in, in either case, but not a control character’s', () => {
    const json = '{"m":"tok\\/en-1234 \\u0041\\u002F\\u002f\\"\\\\ line\\u000aforged\\u001f"}';
    expect(redactCredential(json, 'tok/en-1234')).toBe(
      `{"m":"${R} A//"\\ line\\u000aforged\\u001f"}`,
    );
    const query = '?q=tok%2Fen-1234&a=%41%2f%2F%C3%A9&c=%0a%1F%7f&x=%ff';
    expect(redactCredential(query, 'tok/en-1234')).toBe(`?q=${R}&a=A//é&c=%0a%1F\x7f&x=%ff`);
  });

  it('gives a text without the credential back as it was, escapes and all', () => {
    const text = 'a%2Fb \\u0041 \\/';
    expect(redactCredential(text, 'zzzzzzzz')).toBe(text);
  });

  it('finds a credential JSON-escaped in a percent-encoded echo, and percent-encoded in a JSON one', () => {
    const credential = 'ab/cd"ef';
    expect(redactCredential(encodeURIComponent(JSON.stringify(credential)), credential)).toBe(
      `"${R}"`,
    );
    expect(redactCredential(JSON.stringify(encodeURIComponent(credential)), credential)).toBe(
      `"${R}"`,
    );
  });

  it('redacts with what the caller gives', () => {
    expect(redactSecrets('x 12345678 rk_live_a', '12345678', '#')).toBe('x # #');
    expect(redactCredential('x 12%2F45678', '12/45678', '#')).toBe('x #');
  });
});

describe('redactUrl', () => {
  it('redacts as text what is no URL', () => {
    expect(redactUrl('not a url ?sig=abc 12345678', '12345678')).toBe(`not a url ?sig=${R} ${R}`);
  });

  it('keeps the other parameters, and each secret one once, however often it is given', () => {
    expect(redactUrl('https://x.example/p?sig=1&a=2&sig=3&b=4')).toBe(
      `https://x.example/p?sig=${R}&a=2&b=4`,
    );
  });
});
