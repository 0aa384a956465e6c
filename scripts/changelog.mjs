#!/usr/bin/env node
// The second half of `npm run release:version`, after `changeset version`: keeps each package's
// CHANGELOG.md in Keep a Changelog form and the SDK's VERSION constant equal to package.json.
//
// changesets writes a release as `## 1.2.0` with "Major/Minor/Patch Changes" right below the file's
// first line. This script takes that block out and files it, together with what the `## [Unreleased]`
// section holds (written by hand; a changeset's line written there too is filed once), under
// `## [1.2.0] - <date>`:
//   - a changeset line starting with `Breaking:`, `Added:`, `Changed:`, `Deprecated:`, `Removed:`,
//     `Fixed:` or `Security:` goes to that section (the word is dropped);
//   - any other line goes by its bump: major to "Breaking changes", minor to "Added", patch to "Fixed".
// An empty `## [Unreleased]` stays on top for the next changes.
//
// Usage: node scripts/changelog.mjs [--date=YYYY-MM-DD] [--root=DIR]
//   --date  the release date (default: today, UTC)
//   --root  the repository to work on (default: this one; test/release/ uses a temporary copy)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { root as repository } from './lib/build.mjs';

const BREAKING = 'Breaking changes (what to change in your code)';
/** Keep a Changelog's sections, in its order, with the breaking changes first. */
const SECTIONS = [BREAKING, 'Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];
const BY_BUMP = { Major: BREAKING, Minor: 'Added', Patch: 'Fixed' };
const PREFIX = /^- (Breaking|Added|Changed|Deprecated|Removed|Fixed|Security):\s*/;

const INTRO = `All notable changes to this package are documented here. The format follows
[Keep a Changelog](https://keepachangelog.com/en/1.1.0/), and the package uses
[Semantic Versioning](https://semver.org/spec/v2.0.0.html) as docs/versioning.md describes.`;

/** The changesets block after line 1: `{ version, items: [{ section, lines }], end }`, or none. */
function takeChangesetsBlock(lines) {
  let i = 1;
  while (lines[i]?.trim() === '') i++;
  const heading = /^## (\d+\.\d+\.\d+\S*)$/.exec(lines[i] ?? '');
  if (!heading) return undefined;
  const items = [];
  let bump;
  for (i++; i < lines.length; i++) {
    const line = lines[i];
    const changes = /^### (Major|Minor|Patch) Changes$/.exec(line);
    if (changes) bump = changes[1];
    else if (line.startsWith('- ') && bump) {
      const prefix = PREFIX.exec(line);
      const section = prefix ? (prefix[1] === 'Breaking' ? BREAKING : prefix[1]) : BY_BUMP[bump];
      items.push({ section, lines: [prefix ? `- ${line.slice(prefix[0].length)}` : line] });
    } else if (/^\s+\S/.test(line) && items.length) items.at(-1).lines.push(line);
    else if (line.trim() !== '') break;
  }
  return { version: heading[1], items, end: i };
}

/** The `### ` sections of the `## [Unreleased]` block as `Map<title, lines>`, and where it ends. */
function readUnreleased(lines) {
  const start = lines.findIndex((line) => /^## \[Unreleased\]/.test(line));
  if (start < 0) return { start: -1, end: -1, sections: new Map() };
  let end = lines.findIndex((line, index) => index > start && /^## /.test(line));
  if (end < 0) end = lines.length;
  const sections = new Map();
  let current;
  for (const line of lines.slice(start + 1, end)) {
    const title = /^### (.+)$/.exec(line);
    if (title) sections.set((current = title[1].trim()), []);
    else if (current) sections.get(current).push(line);
  }
  return { start, end, sections };
}

function trimBlank(lines) {
  const copy = [...lines];
  while (copy.length && copy[0].trim() === '') copy.shift();
  while (copy.length && copy.at(-1).trim() === '') copy.pop();
  return copy;
}

/** Rewrites one CHANGELOG.md; returns the version released, or undefined when none was. */
function release(file, date) {
  if (!existsSync(file)) return undefined;
  const lines = readFileSync(file, 'utf8').split('\n');
  const block = takeChangesetsBlock(lines);
  if (!block) return undefined;
  const rest = [lines[0], '', ...lines.slice(block.end)];
  // A changelog changesets has just created holds its package name as title and nothing else.
  if (!rest.some((line) => /^## /.test(line))) rest.splice(0, rest.length, '# Changelog', '');
  if (!rest.some((line) => line.startsWith('All notable changes'))) rest.splice(2, 0, INTRO, '');
  const unreleased = readUnreleased(rest);
  // A changeset's line is also written by hand under `## [Unreleased]`, so that the CHANGELOG on
  // main shows customers what is coming: it is filed once.
  const handWritten = new Set([...unreleased.sections.values()].flat());
  const titles = [...new Set([...SECTIONS, ...unreleased.sections.keys()])];
  const body = titles.flatMap((title) => {
    const entries = [
      ...trimBlank(unreleased.sections.get(title) ?? []),
      ...block.items
        .filter((item) => item.section === title && !handWritten.has(item.lines[0]))
        .flatMap((item) => item.lines),
    ];
    return entries.length ? [`### ${title}`, ...entries, ''] : [];
  });
  const section = ['## [Unreleased]', '', `## [${block.version}] - ${date}`, '', ...body];
  if (unreleased.start >= 0)
    rest.splice(unreleased.start, unreleased.end - unreleased.start, ...section);
  else {
    const firstRelease = rest.findIndex((line) => /^## /.test(line));
    const at = firstRelease < 0 ? rest.length : firstRelease;
    rest.splice(at, 0, ...(rest[at - 1]?.trim() === '' ? [] : ['']), ...section);
  }
  writeFileSync(file, `${trimBlank(rest).join('\n')}\n`);
  return block.version;
}

function main() {
  const option = (name) =>
    process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const today = option('date') ?? new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new Error(`--date=${today}: not YYYY-MM-DD`);
  const root = resolve(option('root') ?? repository);
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const folders = ['.', ...(manifest.workspaces ?? []).filter((folder) => folder !== '.')];
  for (const folder of folders) {
    const file = join(root, folder, 'CHANGELOG.md');
    const version = release(file, today);
    console.log(
      `${join(folder, 'CHANGELOG.md')}: ${version ? `${version} - ${today}` : 'no release'}`,
    );
  }
  // The version the SDK sends in its User-Agent (a test keeps the two equal).
  writeFileSync(
    join(root, 'src/version.ts'),
    readFileSync(join(root, 'src/version.ts'), 'utf8').replace(
      /VERSION: string = '[^']*'/,
      `VERSION: string = '${manifest.version}'`,
    ),
  );
  console.log(`src/version.ts: ${manifest.version}`);
}

main();
