#!/usr/bin/env node
// Docs that run: every ```ts block of README.md and docs/*.md is type-checked against the
// sources (`@employee-recognition/sdk*` resolves to src/ through tsconfig.json's `paths`), and
// the runnable ones are run against the mock; every link must stay inside the repository.
//
// Blocks
//   - Each block is a module of its own: it must import what it uses.
//   - A block runs unless marked types-only: in its own Node process (tsx), with a fresh
//     `startMockServer()` on 127.0.0.1 and RECOGNITION_BASE_URL / RECOGNITION_API_KEY pointing
//     at it, so `new Client()` talks to the mock (and RECOGNITION_AUTH_URL, RECOGNITION_CLIENT_ID,
//     RECOGNITION_CLIENT_SECRET at its token endpoint and test client, for OAuth blocks). It passes when it settles without throwing and
//     the process exits within 30 s (nothing left open).
//   - HTML comments right before the fence (blank lines between are fine) give a block context:
//       <!-- check: types-only -->          type-check, do not run (a receiver, a test file, a
//                                           port that must stay open…); a reason may follow
//       <!-- check: vitest -->              a test file: run by Vitest (`vitest run`, the
//                                           repository's aliases) in a directory of its own, its
//                                           setup first; no mock server is started for it
//       <!-- setup: TypeScript code -->     code the reader does not see, placed before the
//                                           block: imports and the values a fragment uses, e.g.
//                                           <!-- setup: import { Client } from '@employee-recognition/sdk';
//                                                const client = new Client(); -->
//                                           Imports the block makes itself are dropped from it.
//     `declare const rawBody: string;` in a setup types a value without one; such a block is
//     types-only.
// Facts
//   - The numbers and lists the docs give about the package (sizes of dist/ files and of the size
//     budgets, the CLI's commands, the exported entries, the supported Node versions) are those
//     of the repository: scripts/lib/doc-facts.mjs says how each is found and checked. Sizes are
//     read from dist/, so `npm run build` comes first (npm test does so).
// Links
//   - A relative link (and an image) resolves to a file or folder inside the repository that git
//     does not ignore; a `#fragment` names a heading of the target Markdown file (GitHub's slugs).
//   - A link with a scheme (https:, mailto:…) fails: docs never link outside the repository.
//
// Prints one line per block and link failure and `docs: N passed, M failed`; exits 1 on a failure.
// Usage: node scripts/check-docs.mjs [--types-only] [--docs-root=DIR] [--keep]
//   --types-only    type-check and check links, run nothing
//   --docs-root=DIR check DIR/README.md and DIR/docs/*.md instead (test/docs/ checks the checker)
//   --keep          leave the generated block files in .tmp/ (their paths are printed)
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { checkFacts, packageFacts } from './lib/doc-facts.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RUN_TIMEOUT_MS = 30_000;
const PARALLEL_RUNS = 2;

// ---------------------------------------------------------------------------------------------
// Markdown

const FENCE = /^( *)(`{3,}|~{3,})\s*([\w+-]*)/;
const TS_LANGS = new Set(['ts', 'typescript']);

/**
 * The ```ts blocks of a Markdown text: `{ line, code, runnable, setup, setupLine }`, `line` being
 * the 1-based line of the opening fence.
 */
function extractBlocks(markdown) {
  const lines = markdown.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    let end = i + 1;
    while (end < lines.length && !isClosingFence(lines[end], fence)) end++;
    if (TS_LANGS.has(lang.toLowerCase())) {
      const code = lines
        .slice(i + 1, end)
        .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()))
        .join('\n');
      blocks.push({ line: i + 1, code, ...directivesBefore(lines, i) });
    }
    i = end;
  }
  return blocks;
}

function isClosingFence(line, fence) {
  const trimmed = line.trim();
  return trimmed.startsWith(fence) && /^[`~]+$/.test(trimmed) && trimmed[0] === fence[0];
}

/** The `<!-- check: … -->` and `<!-- setup: … -->` comments right above line `fenceIndex`. */
function directivesBefore(lines, fenceIndex) {
  let runnable = true;
  let vitest = false;
  const setups = [];
  let setupLine;
  let i = fenceIndex - 1;
  while (i >= 0) {
    if (lines[i].trim() === '') {
      i--;
      continue;
    }
    if (!lines[i].trim().endsWith('-->')) break;
    let start = i;
    while (start >= 0 && !lines[start].includes('<!--')) start--;
    if (start < 0) break;
    const text = lines
      .slice(start, i + 1)
      .join('\n')
      .replace(/^\s*<!--/, '')
      .replace(/-->\s*$/, '')
      .trim();
    const directive = /^(check|setup):\s*([\s\S]*)$/.exec(text);
    if (!directive) break;
    if (directive[1] === 'check') {
      if (/^vitest\b/.test(directive[2])) vitest = true;
      else if (/^types-only\b/.test(directive[2])) runnable = false;
      else throw new Error(`line ${start + 1}: unknown directive "check: ${directive[2]}"`);
    } else {
      setups.unshift(directive[2]);
      setupLine = start + 1;
    }
    i = start - 1;
  }
  const setup = setups.join('\n');
  // A declared value has no value at run time.
  if (/(^|[\s;])declare\s/.test(setup)) runnable = false;
  return { runnable, vitest: vitest && runnable, setup, setupLine };
}

/**
 * The links of a Markdown text outside code: `{ line, target }`. Inline links and images,
 * reference definitions, autolinks and HTML `href`/`src` attributes.
 */
function extractLinks(markdown) {
  const links = [];
  let fence;
  markdown.split('\n').forEach((raw, index) => {
    const open = FENCE.exec(raw);
    if (fence) {
      if (isClosingFence(raw, fence)) fence = undefined;
      return;
    }
    if (open) {
      fence = open[2];
      return;
    }
    const line = raw.replace(/(`+)[\s\S]*?\1/g, '');
    const patterns = [
      /!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g,
      /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g,
      /\s(?:href|src)="([^"]+)"/g,
      /<([a-z][a-z\d+.-]*:[^>\s]+)>/gi, // an autolink
    ];
    for (const pattern of patterns) {
      for (const match of line.matchAll(pattern)) links.push({ line: index + 1, target: match[1] });
    }
  });
  return links;
}

/**
 * The anchors of a Markdown text: those GitHub gives its headings (github-slugger's rules), and
 * the explicit `<a id="…">` (or `name`) of its rows and paragraphs, outside code fences.
 */
function headingSlugs(markdown) {
  const slugs = new Set();
  const seen = new Map();
  let fence;
  for (const raw of markdown.split('\n')) {
    const open = FENCE.exec(raw);
    if (fence) {
      if (isClosingFence(raw, fence)) fence = undefined;
      continue;
    }
    if (open) {
      fence = open[2];
      continue;
    }
    for (const anchor of raw.matchAll(/<a\s+(?:id|name)="([^"]+)"\s*>/g)) slugs.add(anchor[1]);
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw);
    if (!heading) continue;
    const text = heading[1]
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text
      .replace(/<[^>]+>/g, '');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count ? `${base}-${count}` : base);
  }
  return slugs;
}

/** What is wrong with one link of `file` (absolute path), or undefined. */
function checkLink(file, target, repoRoot) {
  if (/^[a-z][a-z\d+.-]*:/i.test(target) || target.startsWith('//')) {
    return `${target} leads outside the repository`;
  }
  const [pathPart, fragment] = splitFragment(target);
  const path = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart));
  const inside = relative(repoRoot, path);
  if (inside.startsWith('..') || inside.startsWith(sep) || /^[a-z]:/i.test(inside)) {
    return `${target} leads outside the repository`;
  }
  if (!existsSync(path)) return `${target}: no such file`;
  if (gitIgnores(path)) return `${target}: ignored by git, so not in the repository`;
  if (fragment !== undefined && path.endsWith('.md')) {
    if (!headingSlugs(readFileSync(path, 'utf8')).has(decodeURIComponent(fragment))) {
      return `${target}: no heading #${fragment} in ${relative(repoRoot, path)}`;
    }
  }
  return undefined;
}

function splitFragment(target) {
  const hash = target.indexOf('#');
  return hash < 0 ? [target, undefined] : [target.slice(0, hash), target.slice(hash + 1)];
}

function gitIgnores(path) {
  try {
    execFileSync('git', ['check-ignore', '-q', path], { cwd: root, stdio: 'ignore' });
    return true;
  } catch {
    return false; // exit 1: not ignored (or no git at all, where nothing is ignored)
  }
}

// ---------------------------------------------------------------------------------------------
// TypeScript

/** The names a block's own import declarations bind. */
function importedNames(source) {
  const names = new Set();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !statement.importClause) continue;
    const clause = statement.importClause;
    if (clause.name) names.add(clause.name.text);
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) names.add(element.name.text);
    }
  }
  return names;
}

/** The setup without the imports the block makes itself, so neither binds a name twice. */
function setupWithout(setup, blockCode) {
  if (!setup) return '';
  const taken = importedNames(ts.createSourceFile('block.ts', blockCode, ts.ScriptTarget.Latest));
  const source = ts.createSourceFile('setup.ts', setup, ts.ScriptTarget.Latest);
  let text = setup;
  const edits = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !statement.importClause) continue;
    const clause = statement.importClause;
    const keepDefault = clause.name && !taken.has(clause.name.text) ? clause.name : undefined;
    let bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings) && taken.has(bindings.name.text)) {
      bindings = undefined;
    } else if (bindings && ts.isNamedImports(bindings)) {
      const elements = bindings.elements.filter((element) => !taken.has(element.name.text));
      bindings = elements.length ? ts.factory.updateNamedImports(bindings, elements) : undefined;
    }
    const replacement =
      keepDefault || bindings
        ? ts
            .createPrinter()
            .printNode(
              ts.EmitHint.Unspecified,
              ts.factory.updateImportDeclaration(
                statement,
                statement.modifiers,
                ts.factory.updateImportClause(clause, clause.isTypeOnly, keepDefault, bindings),
                statement.moduleSpecifier,
                statement.attributes,
              ),
              source,
            )
        : '';
    edits.push({ start: statement.getStart(source), end: statement.getEnd(), replacement });
  }
  for (const { start, end, replacement } of edits.reverse()) {
    text = text.slice(0, start) + replacement + text.slice(end);
  }
  return text;
}

/** Type-checks the block files with the repository's compiler options; diagnostics per file. */
function typeCheck(files) {
  const configPath = join(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  if (config.error)
    throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const program = ts.createProgram(files, { ...options, noEmit: true });
  const byFile = new Map(files.map((file) => [file, []]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const list = diagnostic.file && byFile.get(resolve(diagnostic.file.fileName));
    if (!list) continue; // the sources' own errors are `npm run typecheck`'s
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    list.push({ line, message: ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ') });
  }
  return byFile;
}

// ---------------------------------------------------------------------------------------------
// Running

const RUNNER = `// Written by scripts/check-docs.mjs: runs one docs block against a fresh mock server.
import { pathToFileURL } from 'node:url';
import { startMockServer } from '@employee-recognition/sdk/testing';

const server = await startMockServer({ host: '127.0.0.1' });
process.env.RECOGNITION_BASE_URL = server.url;
process.env.RECOGNITION_API_KEY = server.api.testKey;
// The mock serves its token endpoint too: OAuth blocks get a client it knows.
process.env.RECOGNITION_AUTH_URL = server.api.oauth.issuer;
process.env.RECOGNITION_CLIENT_ID = server.api.oauth.testClient.clientId;
process.env.RECOGNITION_CLIENT_SECRET = server.api.oauth.testClient.clientSecret;
try {
  await import(pathToFileURL(process.argv[2]!).href);
} finally {
  await server.close();
}
`;

const VITEST = join(root, 'node_modules', 'vitest', 'vitest.mjs');
// A Vitest block runs with the repository's aliases (the package's name means src/), nothing else
// of its configuration: its folder is the root, its file the only test.
const VITEST_CONFIG = join(root, 'scripts', 'lib', 'vitest-docs.config.mjs');

async function runBlocks(jobs, runner) {
  const { run } = await import('./lib/process.mjs');
  const results = new Map();
  const queue = [...jobs];
  const env = { ...process.env };
  delete env.RECOGNITION_LOG;
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const result = job.vitest
        ? await run(
            process.execPath,
            [VITEST, 'run', '--config', VITEST_CONFIG, '--root', dirname(job.file)],
            {
              cwd: dirname(job.file),
              env,
              timeoutMs: RUN_TIMEOUT_MS,
            },
          )
        : await run(process.execPath, ['--import', 'tsx', runner, job.file], {
            cwd: root,
            env,
            timeoutMs: RUN_TIMEOUT_MS,
          });
      results.set(job, result);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_RUNS }, worker));
  return results;
}

// ---------------------------------------------------------------------------------------------

function docsFiles(docsRoot) {
  const docs = join(docsRoot, 'docs');
  return [
    join(docsRoot, 'README.md'),
    ...readdirSync(docs)
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => join(docs, name)),
  ];
}

async function main(args) {
  const typesOnly = args.includes('--types-only');
  const docsRootArg = args.find((arg) => arg.startsWith('--docs-root='));
  const docsRoot = docsRootArg ? resolve(docsRootArg.slice('--docs-root='.length)) : root;
  // Inside the repository, so the blocks resolve packages from its node_modules.
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const tmp = mkdtempSync(join(root, '.tmp', 'docs-'));
  try {
    await checkDocs(docsRoot, tmp, typesOnly);
  } finally {
    if (args.includes('--keep')) console.log(`block files kept in ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
}

async function checkDocs(docsRoot, tmp, typesOnly) {
  let passed = 0;
  const failures = [];
  const jobs = [];
  // The facts are the repository's own, whichever docs are checked (test/docs/ checks fixtures).
  const facts = packageFacts(root);
  for (const file of docsFiles(docsRoot)) {
    const name = relative(docsRoot, file);
    const markdown = readFileSync(file, 'utf8');
    try {
      const { problems, held } = checkFacts(file, markdown, facts);
      passed += held;
      for (const { line, message } of problems) failures.push(`${name}:${line}: ${message}`);
    } catch (error) {
      failures.push(`${name}: the facts could not be checked: ${error.message}`);
    }
    for (const { line, target } of extractLinks(markdown)) {
      const problem = checkLink(file, target, docsRoot);
      if (problem) failures.push(`${name}:${line}: link ${problem}`);
      else passed++;
    }
    let blocks;
    try {
      blocks = extractBlocks(markdown);
    } catch (error) {
      failures.push(`${name}:${error.message}`);
      continue;
    }
    for (const block of blocks) {
      const setup = setupWithout(block.setup, block.code);
      const setupLines = setup ? setup.split('\n').length : 0;
      const stem = `${name.replace(/[\\/.]/g, '_')}_${block.line}`;
      const source = `${setup}${setup ? '\n' : ''}${block.code}\nexport {};\n`;
      // A Vitest block in a folder of its own, which is its working directory.
      const path = block.vitest ? join(tmp, stem, `${stem}.test.ts`) : join(tmp, `${stem}.ts`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, source);
      jobs.push({ ...block, name, file: path, setupLines });
    }
  }

  const diagnostics = typeCheck(jobs.map((job) => job.file));
  const toRun = [];
  for (const job of jobs) {
    const where = `${job.name}:${job.line}`;
    const errors = diagnostics.get(job.file);
    if (errors.length) {
      const lines = errors.map(({ line, message }) => {
        const at =
          line < job.setupLines
            ? `${job.name}:${job.setupLine} (setup)`
            : `${job.name}:${job.line + 1 + line - job.setupLines}`;
        return `    ${at}: ${message}`;
      });
      failures.push(`${where}: the block does not type-check\n${lines.join('\n')}`);
      console.log(`FAIL ${where} type-check`);
    } else if (job.runnable && !typesOnly) {
      toRun.push(job);
    } else {
      passed++;
      console.log(`ok   ${where} type-checks${job.runnable ? '' : ' (types-only)'}`);
    }
  }

  if (toRun.length) {
    const runner = join(tmp, '_run.ts');
    writeFileSync(runner, RUNNER);
    const results = await runBlocks(toRun, runner);
    for (const job of toRun) {
      const result = results.get(job);
      const where = `${job.name}:${job.line}`;
      if (result.code === 0) {
        passed++;
        console.log(`ok   ${where} type-checks and runs (${result.ms} ms)`);
        continue;
      }
      const why = result.timedOut
        ? `did not finish within ${RUN_TIMEOUT_MS / 1000} s (a wait, or something left open)`
        : `exited with ${result.code ?? result.signal}`;
      console.log(`FAIL ${where} run`);
      // The error's message is at the top of Node's report, what the block printed before it.
      const lines = result.output.trim().split('\n');
      const shown = lines.length > 24 ? [...lines.slice(0, 16), '…', ...lines.slice(-6)] : lines;
      const output = shown.join('\n    ');
      failures.push(`${where}: run ${why}\n    ${output}`);
    }
  }

  for (const failure of failures) console.log(`\n${failure}`);
  console.log(`\ndocs: ${passed} passed, ${failures.length} failed`);
  if (failures.length) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  await main(process.argv.slice(2));
