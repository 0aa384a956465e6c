// The facts the docs state about the package, checked against where each is decided, for
// scripts/check-docs.mjs. Docs that keep past figures on purpose (docs/benchmarks.md, and the
// CHANGELOG, which is not among the docs checked) are skipped.
//
// - Sizes. A `dist/<file>` followed in its sentence by a size, `(about 43 kB)`: the built file's
//   size. A size budget of .size-limit.json named by its short name (the entry's name up to its
//   first ":" or "(", such as "webhook receiver app"), followed in its sentence by a size: what
//   size-limit measures for it. "about", "near" or "~" allow 10 %; otherwise the figure must be
//   the measured size rounded to the digits written.
// - The CLI's commands: a list of commands as code spans, introduced by "command(s)" (or the
//   first column of a table headed "command"), that holds three commands or more must hold every
//   command of the CLI's own table (src/cli/index.ts, COMMANDS), and a count before the noun
//   ("five commands") must be theirs.
// - The CLI's flags: under a heading that is a command's name (`## export`), a table whose first
//   column is headed "option" must list exactly that command's flags, as its table of options
//   (`Command.options`) holds them; and where one command's section has such a table, every
//   command's section of the file must have one.
// - The exported entries: the same for lists introduced by "entries" or "entry points", against
//   the JavaScript entries of package.json's `exports` (`.`, `./webhooks`…; JSON ones may be
//   listed or not).
// - The supported Node versions: "Node 20 or later", "Node 20+", "`engines.node >= 20`", and the
//   first row of a table of Node.js versions, must give package.json's `engines.node` floor.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

const SKIPPED = new Set(['benchmarks.md']);
const NUMBERS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];
const SIZE = /(about |near |~)?(\d[\d,]*(?:\.\d+)?) ?(kB|KB|MB|bytes|B)\b/;
const UNITS = { B: 1, bytes: 1, kB: 1000, KB: 1024, MB: 1000 * 1000 };

/** What the docs are checked against, read once from the repository at `root`. */
export function packageFacts(root) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  let table;
  let measured;
  return {
    name: pkg.name,
    nodeFloor: Number(/^>=\s*(\d+)/.exec(pkg.engines.node)[1]),
    /** The JavaScript entries, as `exports` names them: `.`, `./webhooks`… */
    entries: Object.entries(pkg.exports)
      .filter(([, target]) => typeof target === 'object')
      .map(([entry]) => entry),
    /** The CLI's commands, from its own table. */
    commands() {
      return commandTable().map((command) => command.name);
    },
    /** Each command's flags, without `--`, from its table of options. */
    commandFlags() {
      return Object.fromEntries(commandTable().map(({ name, flags }) => [name, flags]));
    },
    /** A built file's size in bytes, or undefined when it is not built. */
    distSize(file) {
      const path = join(root, 'dist', file);
      return existsSync(path) ? statSync(path).size : undefined;
    },
    /** The size budgets: short name (lower case) and the size size-limit measures, in bytes. */
    budgets() {
      if (!measured) {
        if (!existsSync(join(root, 'dist', 'index.js'))) {
          throw new Error('the size budgets are measured on dist/: run npm run build first');
        }
        // Exits 1 when a budget is exceeded: that is `npm run size`'s to report, not this.
        const { stdout } = spawnSync(join(root, 'node_modules', '.bin', 'size-limit'), ['--json'], {
          cwd: root,
          encoding: 'utf8',
          timeout: 120_000,
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        const output = stdout;
        measured = JSON.parse(output).map(({ name, size }) => ({ name: shortName(name), size }));
      }
      return measured;
    },
  };

  /** The CLI's own table (src/cli/index.ts, COMMANDS): each command's name and flags. */
  function commandTable() {
    table ??= JSON.parse(
      execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          "const { COMMANDS } = await import('./src/cli/index.ts'); process.stdout.write(JSON.stringify(COMMANDS.map((command) => ({ name: command.name, flags: Object.keys(command.options) }))));",
        ],
        { cwd: root, encoding: 'utf8', timeout: 60_000 },
      ),
    );
    return table;
  }
}

function shortName(name) {
  return name.split(/[:(]/)[0].trim().toLowerCase();
}

/** The failures of one Markdown file, `{ line, message }`, and how many facts held. */
export function checkFacts(file, markdown, facts) {
  const problems = [];
  let held = 0;
  if (SKIPPED.has(basename(file))) return { problems, held };
  const check = (line, problem) => {
    if (problem) problems.push({ line, message: problem });
    else held++;
  };
  // The section (`## <command>`) each block is in, the line of each command's heading, and the
  // commands whose section has a table of flags.
  let section;
  const headings = new Map();
  const tabled = new Set();
  for (const { line, text, table } of paragraphs(markdown)) {
    const heading = /^#{2,6}\s+`?([^`\n]+?)`?\s*$/.exec(text);
    if (heading) {
      section = heading[1];
      headings.set(section, line);
    }
    if (table && /^\|\s*options?\s*\|/i.test(text) && facts.commands().includes(section)) {
      tabled.add(section);
      check(line, flagsProblem(section, text, facts.commandFlags()[section]));
    }
    for (const sentence of sentences(text, line)) {
      for (const fact of sizes(sentence.text, facts)) check(sentence.line, fact());
      for (const fact of nodeFloors(sentence.text, facts)) check(sentence.line, fact());
    }
    for (const [noun, known, normal] of [
      ['command', () => facts.commands(), (item) => item.split(/\s/)[0]],
      ['entr(?:y|ies)(?: points?)?', () => facts.entries, (item) => entryOf(item, facts.name)],
    ]) {
      for (const list of lists(text, table, noun)) {
        check(line + list.line, listProblem(list, known(), normal, noun));
      }
    }
    // A table of what is supported (its header says so): its first Node row is the floor.
    if (table && /support/i.test(text.split('\n')[0])) {
      const first = /^\|\s*Node(?:\.js)? (\d+)\s*\|/m.exec(text);
      if (first) {
        check(
          line,
          Number(first[1]) === facts.nodeFloor
            ? undefined
            : `its table of Node versions starts at ${first[1]}; the package supports Node ${facts.nodeFloor} or later (engines.node)`,
        );
      }
    }
  }
  if (tabled.size > 0) {
    for (const command of facts.commands().filter((name) => headings.has(name))) {
      check(
        headings.get(command),
        tabled.has(command) ? undefined : `the section of \`${command}\` has no table of its flags`,
      );
    }
  }
  return { problems, held };
}

/** What a table of a command's flags gets wrong: flags it leaves out, or that are not the command's. */
function flagsProblem(command, text, flags) {
  const [, , ...rows] = text.split('\n');
  const listed = new Set();
  for (const row of rows) {
    const first = row.split(/(?<!\\)\|/)[1] ?? '';
    for (const [, flag] of first.matchAll(/`--([a-z][\w-]*)/g)) listed.add(flag);
  }
  const missing = flags.filter((flag) => !listed.has(flag));
  const extra = [...listed].filter((flag) => !flags.includes(flag));
  const named = (list) => list.map((flag) => `\`--${flag}\``).join(', ');
  const wrong = [
    missing.length ? `without ${named(missing)}` : '',
    extra.length ? `with ${named(extra)}, which it does not take` : '',
  ].filter(Boolean);
  return wrong.length ? `lists the flags of \`${command}\` ${wrong.join(', and ')}` : undefined;
}

/** Blank-line separated blocks outside code fences, with their first line (1-based). */
function paragraphs(markdown) {
  const blocks = [];
  let current;
  let fence;
  markdown.split('\n').forEach((raw, index) => {
    const open = /^\s*(`{3,}|~{3,})/.exec(raw);
    if (fence) {
      if (open && raw.trim().startsWith(fence)) fence = undefined;
      return;
    }
    if (open) {
      fence = open[1];
      current = undefined;
      return;
    }
    if (raw.trim() === '') {
      current = undefined;
      return;
    }
    if (!current) {
      current = { line: index + 1, lines: [] };
      blocks.push(current);
    }
    current.lines.push(raw);
  });
  return blocks.map(({ line, lines }) => ({
    line,
    text: lines.join('\n'),
    table: lines[0].trim().startsWith('|'),
  }));
}

/** The sentences of a block (table rows are sentences), each with its first line. */
function sentences(text, line) {
  const found = [];
  const pattern = /[^.;|\s][^.;|]*(?:\.(?=\S)[^.;|]*)*/g;
  for (const match of text.matchAll(pattern)) {
    found.push({ text: match[0], line: line + text.slice(0, match.index).split('\n').length - 1 });
  }
  return found;
}

/** The size facts of a sentence, each a function giving its problem or undefined. */
function sizes(text, facts) {
  const found = [];
  for (const match of text.matchAll(/`dist\/([\w.-]+)`/g)) {
    const size = SIZE.exec(text.slice(match.index + match[0].length));
    if (!size) continue;
    found.push(() => {
      const actual = facts.distSize(match[1]);
      if (actual === undefined) return `\`dist/${match[1]}\` is not built: run npm run build first`;
      return sizeProblem(`\`dist/${match[1]}\``, size, actual);
    });
  }
  const lower = text.toLowerCase();
  let after = 0;
  for (const size of text.matchAll(new RegExp(SIZE.source, 'g'))) {
    // A whole app's figure, in kB, after the budget's name: the name named last since the
    // previous figure of the sentence, within 60 characters.
    const from = Math.max(after, size.index - 60);
    after = size.index + size[0].length;
    if (size[3] !== 'kB') continue;
    found.push(() => {
      let named;
      for (const budget of facts.budgets()) {
        const at = lower.lastIndexOf(budget.name, size.index);
        if (at >= from && (!named || at > named.at)) named = { ...budget, at };
      }
      if (!named) return undefined;
      return sizeProblem(`the ${named.name} (.size-limit.json)`, size, named.size);
    });
  }
  return found;
}

function sizeProblem(what, [written, approximate, number, unit], actual) {
  const stated = Number(number.replaceAll(',', '')) * UNITS[unit];
  const decimals = number.split('.')[1]?.length ?? 0;
  const step = UNITS[unit] / 10 ** decimals;
  const tolerance = Math.max(approximate ? stated * 0.1 : 0, step / 2);
  if (Math.abs(actual - stated) <= tolerance) return undefined;
  const kb = (actual / 1000).toFixed(actual < 10_000 ? 2 : 1);
  return `says ${what} is ${written.trim()}; it is ${actual.toLocaleString('en')} bytes (${kb} kB)`;
}

function nodeFloors(text, facts) {
  const found = [];
  const patterns = [
    /\bNode(?:\.js)? (\d+)(?![.\d])(?: or later|\+| and later)/g,
    /engines\.node\s*>=\s*(\d+)/g,
  ];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      found.push(() =>
        Number(match[1]) === facts.nodeFloor
          ? undefined
          : `says "${match[0]}"; the package supports Node ${facts.nodeFloor} or later (engines.node)`,
      );
    }
  }
  return found;
}

/**
 * The lists of a block introduced by `noun`: runs of code spans separated only by commas, "and",
 * "or" and short remarks, with the noun in the 60 characters before the first; in a table headed
 * by the noun, its first column.
 */
function lists(text, table, noun) {
  const found = [];
  if (table) {
    const [header, , ...rows] = text.split('\n');
    if (new RegExp(`^\\|\\s*${noun}s?\\s*\\|`, 'i').test(header)) {
      const cells = (row) => row.split(/(?<!\\)\|/);
      const items = rows.map((row) => /`([^`]+)`/.exec(cells(row)[1] ?? '')?.[1]).filter(Boolean);
      found.push({ items, count: undefined, line: 0 });
    }
    return found;
  }
  const spans = [...text.matchAll(/`([^`\n]+)`/g)];
  let run = [];
  const close = () => {
    if (run.length >= 3) {
      const first = run[0];
      const before = text.slice(Math.max(0, first.index - 60), first.index);
      const intro = new RegExp(`(?:(\\w+) )?${noun}s?\\b[^\`]*$`, 'i').exec(before);
      if (intro) {
        const word = intro[1]?.toLowerCase();
        const count = NUMBERS.includes(word) ? NUMBERS.indexOf(word) : undefined;
        found.push({
          items: run.map((span) => span[1]),
          count,
          line: text.slice(0, first.index).split('\n').length - 1,
        });
      }
    }
    run = [];
  };
  for (const span of spans) {
    const previous = run.at(-1);
    const gap = previous ? text.slice(previous.index + previous[0].length, span.index) : '';
    if (previous && !/^[^.`;:]{0,24}$/.test(gap)) close();
    run.push(span);
  }
  close();
  return found;
}

function listProblem(list, known, normal, noun) {
  const listed = new Set(list.items.map(normal));
  if ([...listed].filter((item) => known.includes(item)).length < 3) return undefined;
  const missing = known.filter((item) => !listed.has(item));
  const what = noun.startsWith('command') ? "the CLI's commands" : 'the exported entries';
  if (missing.length) {
    return `lists ${what} without ${missing.map((item) => `\`${item}\``).join(', ')}`;
  }
  if (list.count !== undefined && list.count !== known.length) {
    return `counts ${list.count} of ${what}; there are ${known.length}`;
  }
  return undefined;
}

/** `./webhooks` for `./webhooks`, `/webhooks`, `@employee-recognition/sdk/webhooks`; `.` for the root. */
function entryOf(item, name) {
  if (item === '.' || item === name) return '.';
  if (item.startsWith(`${name}/`)) return `.${item.slice(name.length)}`;
  if (item.startsWith('./')) return item;
  if (item.startsWith('/')) return `.${item}`;
  return item;
}
