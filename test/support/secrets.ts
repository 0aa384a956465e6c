import { inspect } from 'node:util';
import { expect } from 'vitest';

/** Every way an error is commonly turned into text: its message, stack, JSON and inspection. */
export function renderings(value: unknown): string[] {
  const error = value as Partial<Error>;
  return [
    String(error.message ?? ''),
    String(error.stack ?? ''),
    JSON.stringify(value) ?? '',
    inspect(value, { depth: 10, showHidden: true, getters: true }),
  ];
}

/** Asserts that no rendering of any of the errors contains any of the secrets, whole or as a tail. */
export function expectNoSecretsIn(errors: readonly unknown[], secrets: readonly string[]): void {
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors) {
    for (const text of renderings(error)) {
      for (const secret of secrets) {
        expect(text).not.toContain(secret);
        // A truncated or partly masked credential still leaks: check its secret tail alone too.
        expect(text).not.toContain(secret.slice(-16));
      }
    }
  }
}

/** A list that a suite adds every error it produces to, for one scan at the end. */
export function collectErrors() {
  const all: unknown[] = [];
  return { all, add: (error: unknown) => void all.push(error) };
}

/**
 * Every way a server or a parser writes a credential back, whole: as sent, percent-encoded
 * (encodeURIComponent's, twice, lower-case hex, the URL parser's in a query and a path, a form's),
 * and JSON-escaped (`\"`, PHP's `\/`, `\u00XX` for some or every character).
 */
export function writtenForms(credential: string): string[] {
  const query = new URL('https://api.example/');
  query.search = credential;
  const path = new URL('https://api.example/');
  path.pathname = credential;
  const json = JSON.stringify(credential).slice(1, -1);
  const escape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  // The parser's path is an encoding of the credential unless it rewrote it (a backslash as `/`,
  // a `..` segment resolved): then it is another string, not a form of this one.
  const inPath = path.pathname.slice(1);
  return [
    credential,
    encodeURIComponent(credential),
    encodeURIComponent(encodeURIComponent(credential)),
    encodeURIComponent(credential).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    query.search.slice(1),
    ...(safeDecode(inPath) === credential ? [inPath] : []),
    new URLSearchParams({ k: credential }).toString().slice(2),
    json,
    json.replaceAll('/', '\\/'),
    credential.replace(/[^A-Za-z0-9]/g, escape),
    credential.replace(/[\s\S]/g, (char) => escape(char).toUpperCase().replace('\\U', '\\u')),
  ];
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
