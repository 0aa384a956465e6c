import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, it } from 'vitest';
import { runCheckDocs } from './run-check-docs.js';

const fixtures = fileURLToPath(new URL('fixtures', import.meta.url));
const readme = readFileSync(`${fixtures}/README.md`, 'utf8').split('\n');
const guide = readFileSync(`${fixtures}/docs/guide.md`, 'utf8').split('\n');

/** The 1-based line of the first line that contains `text`. */
const lineOf = (lines: string[], text: string, from = 0) =>
  lines.findIndex((line, index) => index >= from && line.includes(text)) + 1;
/** The 1-based line of the ```ts fence above the line that contains `text`. */
const fenceAbove = (lines: string[], text: string) => {
  let index = lineOf(lines, text) - 1;
  while (!lines[index]!.trim().startsWith('```')) index--;
  return index + 1;
};

let output: string;
let exitCode: number;
beforeAll(async () => {
  ({ output, exitCode } = await runCheckDocs(fixtures));
}, 130_000);

it('runs a block against a fresh mock server, with its setup and imports merged', () => {
  expect(output).toMatch(
    new RegExp(`ok {3}README.md:${fenceAbove(readme, 'client.users.list')} type-checks and runs`),
  );
});

it('names the Markdown line of each type error, indented blocks too', () => {
  const count = fenceAbove(readme, "const count: number = 'two'");
  expect(output).toContain(`README.md:${count}: the block does not type-check`);
  expect(output).toContain(
    `    README.md:${count + 1}: Type 'string' is not assignable to type 'number'.`,
  );
  expect(output).toContain(
    `    docs/guide.md:${lineOf(guide, 'const word')}: Type 'number' is not assignable to type 'string'.`,
  );
});

it('fails a block that throws when run, with what it printed', () => {
  const block = fenceAbove(readme, "users.get('00000000");
  expect(output).toContain(`README.md:${block}: run exited with 1`);
  expect(output).toMatch(/NotFoundError/);
});

it('only type-checks blocks marked types-only or with declared values', () => {
  expect(output).toContain(
    `ok   README.md:${fenceAbove(readme, 'createServer().listen(0)')} type-checks (types-only)`,
  );
  expect(output).toContain(
    `ok   README.md:${fenceAbove(readme, 'rawBody.length')} type-checks (types-only)`,
  );
});

it('fails links to missing files, missing headings, the web (autolinks too) and above the root', () => {
  const at = `README.md:${lineOf(readme, '[missing]')}: link`;
  expect(output).toContain(`${at} docs/nope.md: no such file`);
  expect(output).toContain(`${at} docs/guide.md#nowhere: no heading #nowhere in docs/guide.md`);
  expect(output).toContain(`${at} https://example.com leads outside the repository`);
  expect(output).toContain(
    `README.md:${lineOf(readme, '[above the root]')}: link ../outside.md leads outside the repository`,
  );
  expect(output).toContain(
    `README.md:${lineOf(readme, '<https:')}: link https://example.com/autolink leads outside the repository`,
  );
  // Good links (with GitHub's heading slugs, duplicates numbered) are not reported.
  expect(output).not.toMatch(/link docs\/guide\.md(#a-code|#usage-1)?:/);
  expect(output).not.toMatch(/link #fixture/);
  expect(output).not.toMatch(/link \.\.\/README\.md/);
  // An explicit <a id> names a row (docs/assumptions.md's); one inside a code fence does not.
  expect(output).not.toMatch(/link docs\/guide\.md#a-row/);
  expect(output).toContain(
    `README.md:${lineOf(readme, '[a fenced anchor]')}: link docs/guide.md#fenced-anchor: no heading #fenced-anchor in docs/guide.md`,
  );
});

it('ends with the count and exits 1 on a failure', () => {
  // 5 good links and 3 good blocks; 5 bad links and 3 bad blocks.
  expect(output).toMatch(/\ndocs: 9 passed, 9 failed\n$/);
  expect(exitCode).toBe(1);
});
