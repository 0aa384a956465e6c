#!/usr/bin/env node
// The public API as a reviewed diff: one API Extractor report per entry of each package, made from
// the built declarations (dist/*.d.ts, where tsup's `stripInternal` has already dropped every
// `@internal` name) and checked in under review/.
//
// The entries come from the `exports` of package.json (the SDK's, then each workspace's), so a new
// entry gets a report without touching this file, and the check fails until that report is
// checked in. API Extractor takes one entry point per configuration (microsoft/rushstack#3557),
// so each entry gets its own configuration, built here in memory; the entries of one package
// share one compiler program, which keeps the step to a few seconds.
//
// Usage: node scripts/api-report.mjs            fail (exit 1) when a report differs or is missing
//        node scripts/api-report.mjs --update   write the reports (npm run api:update builds first)
// Both read dist/: run npm run build first.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { root } from './lib/build.mjs';

const REVIEW = join(root, 'review');
const UPDATE = '--update';
/** API Extractor's console lines that this script words itself (or that say nothing useful). */
const QUIET = new Set([
  'console-preamble',
  'console-compiler-version-notice',
  'console-api-report-not-copied',
  'console-api-report-copied',
  'console-api-report-created',
  'console-api-report-diff',
]);

/** A package of this repository: its folder and manifest. */
function packages() {
  const main = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const workspaces = (main.workspaces ?? []).filter((folder) => folder !== '.');
  return [root, ...workspaces.map((folder) => join(root, folder))].map((folder) => ({
    folder,
    manifest: JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')),
  }));
}

/** The `import` declarations of an `exports` target: a string or the nested conditions. */
function declarationsOf(target) {
  if (typeof target === 'string') return /\.d\.ts$/.test(target) ? target : undefined;
  if (!target || typeof target !== 'object') return undefined;
  if (typeof target.types === 'string' && !target.types.endsWith('.d.cts')) return target.types;
  return declarationsOf(target.import) ?? declarationsOf(target.default);
}

/**
 * Every entry with declarations, as `{ name, folder, declarations, report }`: `./openapi.json` and
 * `./package.json` have none. The report of `@scope/pkg/sub/path` is review/pkg-sub-path.api.md.
 */
function apiEntries() {
  return packages().flatMap(({ folder, manifest }) =>
    Object.entries(manifest.exports ?? {}).flatMap(([subpath, target]) => {
      const declarations = declarationsOf(target);
      if (!declarations) return [];
      const unscoped = manifest.name.replace(/^@[^/]+\//, '');
      const suffix = subpath === '.' ? '' : `-${subpath.slice(2).replaceAll('/', '-')}`;
      return [
        {
          name: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
          folder,
          declarations: join(folder, declarations),
          report: `${unscoped}${suffix}`,
        },
      ];
    }),
  );
}

/** The API Extractor configuration of one entry. */
function configFor(entry, tempFolder) {
  return ExtractorConfig.prepare({
    configObject: {
      projectFolder: entry.folder,
      mainEntryPointFilePath: entry.declarations,
      bundledPackages: [],
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            target: 'es2022',
            module: 'nodenext',
            moduleResolution: 'nodenext',
            lib: ['es2022', 'dom'],
            types: ['node'],
            strict: true,
            skipLibCheck: true,
          },
          files: [entry.declarations],
        },
      },
      apiReport: {
        enabled: true,
        reportFileName: entry.report,
        reportFolder: REVIEW,
        reportTempFolder: tempFolder,
        // A type a public signature uses but no entry exports shows in the report, so that it
        // is reviewed like the rest.
        includeForgottenExports: true,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      newlineKind: 'lf',
      messages: {
        compilerMessageReporting: { default: { logLevel: 'error' } },
        extractorMessageReporting: {
          default: { logLevel: 'warning', addToApiReportFile: true },
          // Everything an entry exports is public, so no name carries `@public`; what is not
          // public is `@internal`, which the build strips.
          'ae-missing-release-tag': { logLevel: 'none', addToApiReportFile: false },
          // Kept in the report (see `includeForgottenExports`) rather than printed on every run.
          'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
          // typedoc checks the doc comments and their links (`npm run docs`).
          'ae-unresolved-link': { logLevel: 'none', addToApiReportFile: false },
          'ae-undocumented': { logLevel: 'none', addToApiReportFile: false },
        },
        // The doc comments are typedoc's (`npm run docs` checks them), not TSDoc's.
        tsdocMessageReporting: { default: { logLevel: 'none', addToApiReportFile: false } },
      },
    },
    configObjectFullPath: join(entry.folder, 'api-extractor.json'),
    packageJsonFullPath: join(entry.folder, 'package.json'),
  });
}

/** The change to a report as a unified diff (git is in every checkout of this repository). */
function reportDiff(checkedIn, made) {
  try {
    execFileSync('git', ['diff', '--no-index', '--no-color', '-U1', checkedIn, made], {
      encoding: 'utf8',
    });
    return '';
  } catch (error) {
    return String(error.stdout ?? '');
  }
}

function main() {
  const update = process.argv.includes(UPDATE);
  const entries = apiEntries();
  const missing = entries.filter((entry) => !existsSync(entry.declarations));
  if (missing.length) {
    console.error(
      `api-report: no declarations for ${missing.map((entry) => entry.name).join(', ')}: run npm run build first`,
    );
    return 1;
  }
  const tempFolder = mkdtempSync(join(tmpdir(), 'er-api-report-'));
  const changed = [];
  try {
    const folders = [...new Set(entries.map((entry) => entry.folder))];
    for (const group of folders.map((folder) => entries.filter((e) => e.folder === folder))) {
      const configs = group.map((entry) => [entry, configFor(entry, tempFolder)]);
      const compilerState = CompilerState.create(configs[0][1], {
        additionalEntryPoints: group.map((entry) => entry.declarations),
      });
      for (const [entry, config] of configs) {
        const result = Extractor.invoke(config, {
          localBuild: update,
          compilerState,
          messageCallback: (message) => {
            // The report's verdict is printed below, with what to do about it.
            if (QUIET.has(message.messageId)) message.handled = true;
          },
        });
        if (result.errorCount > 0) throw new Error(`API Extractor failed on ${entry.name}`);
        const checkedIn = join(REVIEW, `${entry.report}.api.md`);
        if (update) {
          console.log(
            `${result.apiReportChanged ? 'updated' : 'unchanged'} ${relative(root, checkedIn)}  (${entry.name})`,
          );
        } else if (result.apiReportChanged) {
          changed.push({ entry, checkedIn, made: join(tempFolder, `${entry.report}.api.md`) });
        } else {
          console.log(`api: ${entry.name} matches ${relative(root, checkedIn)}`);
        }
      }
    }
    const expected = new Set(entries.map((entry) => `${entry.report}.api.md`));
    const stale = readdirSync(REVIEW).filter((file) => !expected.has(file));
    if (stale.length) {
      console.error(
        `api: review/ holds reports of no entry: ${stale.join(', ')} (delete them with the entry)`,
      );
      if (!update) return 1;
    }
    if (!changed.length) return 0;
    for (const { entry, checkedIn, made } of changed) {
      console.error(
        existsSync(checkedIn)
          ? `\napi: the public API of ${entry.name} differs from ${relative(root, checkedIn)}:\n${reportDiff(checkedIn, made)}`
          : `\napi: ${entry.name} has no report: ${relative(root, checkedIn)} is missing`,
      );
    }
    console.error(
      'api: the built declarations (dist/*.d.ts) are not what review/*.api.md records.\n' +
        'api: if the change is meant, run `npm run api:update` (it builds, then rewrites the reports)\n' +
        'api: and commit review/ with a CHANGELOG line; if not, undo it. docs/versioning.md says\n' +
        'api: what counts as breaking.',
    );
    return 1;
  } finally {
    rmSync(tempFolder, { recursive: true, force: true });
  }
}

process.exitCode = main();
