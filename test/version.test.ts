import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { DOCS_URL, VERSION } from '../src/version.js';

it('reports the version package.json publishes', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  expect(VERSION).toBe(pkg.version);
});

it('links log lines to the published docs: the docs/ folder of the repository of `homepage`', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const repository = (pkg.homepage as string).replace(/#.*$/, '');
  expect(repository).toBe((pkg.repository.url as string).replace(/^git\+|\.git$/g, ''));
  expect(DOCS_URL).toBe(`${repository}/blob/main/docs/`);
});
