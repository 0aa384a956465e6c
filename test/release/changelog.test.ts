import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../scripts/changelog.mjs', import.meta.url));

// The repository as `changeset version` leaves it: versions bumped, a `## 1.0.0` block of
// "Major/Minor/Patch Changes" right under each changelog's title.
const SDK_CHANGELOG = `# Changelog

## 1.0.0

### Major Changes

- Changed: 1.0, the first stable release.
  Its second line.
- Removed \`Client.legacy()\`: call \`client.get()\`.

### Minor Changes

- Deprecated: \`Page.toJSON\`, use \`page.data\`.
- \`client.ping()\`.

### Patch Changes

- Security: zod 4.6.8 is bundled.

All notable changes to this project are documented here.

## [Unreleased]

### Breaking changes (what to change in your code)
- A hand-written breaking change.

### Added
- A hand-written addition.

## [0.1.0] - 2026-11-22

### Added
- The first release.
`;

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'er-changelog-'));
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, 'packages', 'mcp'), { recursive: true });
  writeFileSync(
    join(root, 'package.json'),
    JSON.stringify({ version: '1.0.0', workspaces: ['.', 'packages/mcp'] }),
  );
  writeFileSync(join(root, 'src', 'version.ts'), "export const VERSION: string = '0.1.0';\n");
  writeFileSync(join(root, 'CHANGELOG.md'), SDK_CHANGELOG);
  // A changelog changesets has just created: the package name and the release.
  writeFileSync(
    join(root, 'packages', 'mcp', 'CHANGELOG.md'),
    '# @employee-recognition/mcp\n\n## 1.0.0\n\n### Patch Changes\n\n- Changed: Depends on `@employee-recognition/sdk` 1.0.0.\n',
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const release = () =>
  new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [script, `--root=${root}`, '--date=2026-12-01'],
      { timeout: 30_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(stderr || error.message)) : resolve(stdout),
    );
  });
const read = (...path: string[]) => readFileSync(join(root, ...path), 'utf8');

it("files changesets' lines and the hand-written Unreleased ones under one dated release, in Keep a Changelog order", async () => {
  await release();
  expect(read('CHANGELOG.md')).toBe(`# Changelog

All notable changes to this project are documented here.

## [Unreleased]

## [1.0.0] - 2026-12-01

### Breaking changes (what to change in your code)
- A hand-written breaking change.
- Removed \`Client.legacy()\`: call \`client.get()\`.

### Added
- A hand-written addition.
- \`client.ping()\`.

### Changed
- 1.0, the first stable release.
  Its second line.

### Deprecated
- \`Page.toJSON\`, use \`page.data\`.

### Security
- zod 4.6.8 is bundled.

## [0.1.0] - 2026-11-22

### Added
- The first release.
`);
});

it('files once a changeset line that is also written by hand under Unreleased', async () => {
  const changelog = read('CHANGELOG.md').replace(
    '### Added\n- A hand-written addition.\n',
    '### Added\n- A hand-written addition.\n- `client.ping()`.\n\n### Security\n- zod 4.6.8 is bundled.\n',
  );
  writeFileSync(join(root, 'CHANGELOG.md'), changelog);
  await release();
  const released = read('CHANGELOG.md');
  expect(released.match(/- `client\.ping\(\)`\./g)).toHaveLength(1);
  expect(released.match(/- zod 4\.6\.8 is bundled\./g)).toHaveLength(1);
  expect(released).toContain(
    '### Added\n- A hand-written addition.\n- `client.ping()`.\n\n### Changed\n',
  );
});

it('gives a changelog changesets created the Keep a Changelog header', async () => {
  await release();
  const mcp = read('packages', 'mcp', 'CHANGELOG.md');
  expect(mcp).toMatch(/^# Changelog\n\nAll notable changes to this package/);
  expect(mcp).toContain(
    '## [Unreleased]\n\n## [1.0.0] - 2026-12-01\n\n### Changed\n- Depends on `@employee-recognition/sdk` 1.0.0.\n',
  );
  expect(mcp).not.toContain('@employee-recognition/mcp\n');
});

it("sets the SDK's VERSION to package.json's version", async () => {
  await release();
  expect(read('src', 'version.ts')).toBe("export const VERSION: string = '1.0.0';\n");
});

it('leaves a changelog with no new release as it is', async () => {
  writeFileSync(join(root, 'CHANGELOG.md'), '# Changelog\n\n## [Unreleased]\n');
  expect(await release()).toContain('CHANGELOG.md: no release');
  expect(read('CHANGELOG.md')).toBe('# Changelog\n\n## [Unreleased]\n');
});
