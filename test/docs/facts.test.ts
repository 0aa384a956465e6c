// `npm run test:docs` checks the facts the docs state about the package (scripts/lib/doc-facts.mjs):
// each kind fails on a doctored sentence of test/docs/fixtures/facts, and the real docs hold.
// Sizes are read from dist/ and measured by size-limit: npm test builds first.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkFacts, packageFacts } from '../../scripts/lib/doc-facts.mjs';
import { COMMANDS } from '../../src/cli/index.js';
import { runCheckDocs } from './run-check-docs.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = fileURLToPath(new URL('fixtures/facts', import.meta.url));
const facts = packageFacts(root);

/** The 1-based line of the first line of `file` (under the fixtures) that contains `text`. */
const lineOf = (file: string, text: string) =>
  readFileSync(`${fixtures}/${file}`, 'utf8')
    .split('\n')
    .findIndex((line) => line.includes(text)) + 1;

describe('on doctored sentences', () => {
  let output: string;
  let exitCode: number;
  beforeAll(async () => {
    ({ output, exitCode } = await runCheckDocs(fixtures));
  }, 130_000);

  it('fails a dist/ file of another size', () => {
    const size = facts.distSize('cli.js')!;
    expect(output).toContain(
      `README.md:${lineOf('README.md', '`dist/cli.js`')}: says \`dist/cli.js\` is about 25 kB; it is ${size.toLocaleString('en')} bytes`,
    );
  });

  it('fails a size budget of another size, named by its short name', () => {
    expect(output).toMatch(
      new RegExp(
        `README.md:${lineOf('README.md', 'receiver app is about 9 kB')}: says the webhook receiver app \\(\\.size-limit\\.json\\) is about 9 kB; it is [\\d,]+ bytes`,
      ),
    );
  });

  it("fails a list of the CLI's commands that lacks one, in prose and in a table", () => {
    for (const [file, text] of [
      ['docs/versioning.md', 'its commands'],
      ['docs/cli.md', '| command |'],
    ] as const) {
      expect(output).toContain(
        `${file}:${lineOf(file, text)}: lists the CLI's commands without \`webhooks\``,
      );
    }
  });

  it("fails a command's table of flags that lacks one or lists another, and a command's section without one", () => {
    expect(output).toContain(
      `docs/cli.md:${lineOf('docs/cli.md', '| option |')}: lists the flags of \`api\` without \`--base-url\`, and with \`--verbose\`, which it does not take`,
    );
    expect(output).toContain(
      `docs/cli.md:${lineOf('docs/cli.md', '## export')}: the section of \`export\` has no table of its flags`,
    );
  });

  it('fails a list of the exported entries that lacks one, or counts them wrong', () => {
    expect(output).toContain(
      `docs/versioning.md:${lineOf('docs/versioning.md', 'Six entries')}: lists the exported entries without \`./otel\``,
    );
    expect(output).toContain(
      `README.md:${lineOf('README.md', 'eight entries')}: counts 8 of the exported entries; there are ${facts.entries.length}`,
    );
  });

  it('fails another Node floor, in prose, as engines.node and in a table of what is supported', () => {
    expect(output).toContain(
      `README.md:${lineOf('README.md', 'Node 18 or later')}: says "Node 18 or later"; the package supports Node 20 or later (engines.node)`,
    );
    expect(output).toContain(
      `docs/versioning.md:${lineOf('docs/versioning.md', 'engines.node')}: says "engines.node >= 22"`,
    );
    expect(output).toContain(
      `docs/versioning.md:${lineOf('docs/versioning.md', '| 1.x supports |')}: its table of Node versions starts at 18`,
    );
    expect(output).not.toContain(`README.md:${lineOf('README.md', 'Node 20 or later')}:`);
  });

  it('ends with the count and exits 1', () => {
    // The count is the last line: nothing crashed after it.
    expect(output).toMatch(/\ndocs: 3 passed, 11 failed\n$/);
    expect(exitCode).toBe(1);
  });
});

describe('the sources of truth', () => {
  it("reads the CLI's commands from its own table, so a new command is demanded", () => {
    expect(facts.commands()).toEqual(COMMANDS.map((command) => command.name));
    const cli = readFileSync(`${root}/docs/cli.md`, 'utf8');
    const more = { ...facts, commands: () => [...facts.commands(), 'upcoming'] };
    const { problems } = checkFacts(`${root}/docs/cli.md`, cli, more);
    expect(problems.map((problem) => problem.message)).toContain(
      "lists the CLI's commands without `upcoming`",
    );
  });

  it("reads each command's flags from its own table of options", () => {
    expect(facts.commandFlags()).toEqual(
      Object.fromEntries(COMMANDS.map((command) => [command.name, Object.keys(command.options)])),
    );
  });

  it("reads the entries from package.json's exports and the Node floor from its engines", () => {
    const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
    expect(facts.entries).toEqual(
      Object.keys(pkg.exports).filter((entry: string) => !entry.endsWith('.json')),
    );
    expect(`>=${facts.nodeFloor}`).toBe(pkg.engines.node);
  });

  it('finds the docs of this repository true, docs/benchmarks.md left out', () => {
    const files = [
      'README.md',
      ...readdirSync(`${root}/docs`)
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`),
    ];
    const problems = files.flatMap((file) =>
      checkFacts(`${root}/${file}`, readFileSync(`${root}/${file}`, 'utf8'), facts).problems.map(
        (problem) => `${file}:${problem.line}: ${problem.message}`,
      ),
    );
    expect(problems).toEqual([]);
    const benchmarks = `${root}/docs/benchmarks.md`;
    expect(checkFacts(benchmarks, readFileSync(benchmarks, 'utf8'), facts)).toEqual({
      problems: [],
      held: 0,
    });
  });
});
