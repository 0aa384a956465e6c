/**
 * `readLinks` at each edge of its grammar and bounds, read directly: the pagination and
 * deprecation tests reach it through a client that falls back to the body's cursor, so a link
 * misread there can go unnoticed. Each case here pins one rule of src/internal/link.ts that a
 * mutation of it broke without a test failing (docs/mutation-testing.md).
 */
import { describe, expect, it } from 'vitest';
import { readLinks } from '../../src/internal/link.js';

const BASE = 'https://api.example/v1/users?page=1';

/**
 * The relations read from `value`, without the empty name a quoted rel also yields (its quotes
 * split like the spaces between names): no caller asks for a relation named "".
 */
function links(value: string | null): Partial<Record<string, string>> {
  const { '': _empty, ...named } = readLinks(value, BASE);
  return named;
}

describe('readLinks: a link is its <uri> and its rel', () => {
  it('takes the whole <uri>, absolute or resolved against the request', () => {
    expect(
      links('<https://api.example/v1/users?page=2>; rel="next", </v1/users?page=1>; rel=prev'),
    ).toEqual({
      next: 'https://api.example/v1/users?page=2',
      prev: 'https://api.example/v1/users?page=1',
    });
  });

  it('reads rel with any spaces around `;` and `=`, or none', () => {
    for (const separator of [';rel=next', ';  rel=next', '; rel = next', ';\trel=\t"next"']) {
      expect(links(`<https://api.example/a>${separator}`), separator).toEqual({
        next: 'https://api.example/a',
      });
    }
  });

  it('reads a quoted rel, unescaping its backslashes, and splits it on any run of spaces', () => {
    expect(links('<https://api.example/a>; rel="ne\\xt   prev\tLAST"')).toEqual({
      next: 'https://api.example/a',
      prev: 'https://api.example/a',
      last: 'https://api.example/a',
    });
  });

  it('reads `;;` as an empty parameter before rel, and `;,` as the end of the link', () => {
    expect(links('<https://api.example/a>;;rel=next')).toEqual({
      next: 'https://api.example/a',
    });
    expect(links('<https://api.example/a>;, <https://api.example/b>; rel=next')).toEqual({
      next: 'https://api.example/b',
    });
  });

  it('runs a <uri> without its `>` to the next `>`, taking the next link with it', () => {
    // RFC 8288's `<` URI-Reference `>`: nothing ends the target before `>`, so the first link's
    // target holds the second, and the only rel read is the one after that `>`.
    expect(
      links('<https://api.example/a; rel="next", <https://api.example/b>; rel="prev"'),
    ).toEqual({ prev: 'https://api.example/a;%20rel=%22next%22,%20%3Chttps://api.example/b' });
  });

  it('runs an unclosed `<` or quote to the end of the value: nothing after it is read', () => {
    expect(links('<https://api.example/a><b; rel=next')).toEqual({});
    expect(links('<https://api.example/a>; title="x, <https://api.example/b>; rel=next')).toEqual(
      {},
    );
  });

  it('skips a link whose target is not a usable URL, with nothing in its place', () => {
    expect(
      links('<ftp://api.example/a>; rel=next, <http://[::1>; rel=prev, <b>; rel=last'),
    ).toEqual({ last: 'https://api.example/v1/b' });
  });
});

describe('readLinks: which URLs it keeps', () => {
  it('keeps http and https only, by the whole scheme', () => {
    expect(links('<xhttps://api.example/a>; rel=next')).toEqual({});
    expect(links('<http://api.example/a>; rel=next')).toEqual({
      next: 'http://api.example/a',
    });
  });

  it('keeps a URL of 2,048 characters and drops one of 2,049', () => {
    const url = (length: number) => {
      const start = 'https://api.example/';
      return start + 'a'.repeat(length - start.length);
    };
    expect(links(`<${url(2048)}>; rel=next, <${url(2049)}>; rel=prev`)).toEqual({
      next: url(2048),
    });
  });
});

describe('readLinks: bounds', () => {
  it('reads the first 16 KB of the value only', () => {
    const value = `<https://api.example/a>; rel=prev,${' '.repeat(16 * 1024)}<https://api.example/b>; rel=next`;
    expect(links(value)).toEqual({ prev: 'https://api.example/a' });
  });

  it('reads 64 links, not the 65th', () => {
    const each = Array.from({ length: 65 }, (_, i) => `<https://api.example/${i}>; rel=r${i}`);
    const found = links(each.join(', '));
    expect(found.r63).toBe('https://api.example/63');
    expect(found.r64).toBeUndefined();
  });

  it('reads nothing from an absent header', () => {
    expect(links(null)).toEqual({});
  });
});
