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
