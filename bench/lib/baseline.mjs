/**
 * The build to compare against: the SDK as it was at a git ref, built into
 * `.tmp/bench-baseline/<commit>/dist/` (git-ignored), so that `npm run bench` can measure the
 * current build and the one before a change side by side, in one run, on the same machine load.
 *
 * Only the ref's `src/` and the root files it builds with are taken (`git archive`); the build
 * uses this checkout's `node_modules/` (Node finds it from `.tmp/` by walking up) and the ESM build
 * of the ref's own tsup.config.ts, without type declarations, which nothing here reads.
 * A ref whose dependencies differ from this checkout's is therefore built with today's: the
 * comparison is of the SDK's own code. A build is kept per commit and reused.
 *
 * As a program (`node bench/lib/baseline.mjs --build`, cwd = the folder) it runs that build there.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUILD_LIMIT_MS = 5 * 60_000;
/** What a build reads from the ref: the sources and the root files they import or build with. */
const SOURCES = ['src', 'tsconfig.json', 'tsup.config.ts', 'package.json', 'openapi.json'];

/** The baseline's ref, from `--baseline <ref>`, else BENCH_BASELINE, else `fallback`. */
export function baselineRef(argv, fallback) {
  const at = argv.indexOf('--baseline');
  return (at !== -1 ? argv[at + 1] : undefined) ?? process.env.BENCH_BASELINE ?? fallback;
}

/**
 * Builds (or reuses) the SDK of `ref`; returns the commit, its subject line and the folder with
 * its `index.js`, for BENCH_SDK_DIR / BENCH_COMPARE_DIR.
 */
export function buildBaseline(ref) {
  const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  const commit = git('rev-parse', '--verify', `${ref}^{commit}`);
  const subject = git('log', '-1', '--format=%s', commit);
  const folder = join(ROOT, '.tmp', 'bench-baseline', commit);
  const dist = join(folder, 'dist');
  if (!existsSync(join(dist, 'index.js'))) {
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    const files = new Set(git('ls-tree', '--name-only', commit).split('\n'));
    const paths = SOURCES.filter((path) => files.has(path)).join(' ');
    const archive = spawnSync(
      'sh',
      ['-c', `git archive ${commit} ${paths} | tar -x -C "${folder}"`],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: BUILD_LIMIT_MS,
      },
    );
    if (archive.status !== 0) throw new Error(`git archive of ${ref} failed: ${archive.stderr}`);
    const build = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--build'], {
      cwd: folder,
      encoding: 'utf8',
      timeout: BUILD_LIMIT_MS,
    });
    if (build.status !== 0 || !existsSync(join(dist, 'index.js'))) {
      rmSync(folder, { recursive: true, force: true });
      throw new Error(`the build of ${ref} failed: ${build.stderr || build.error}`);
    }
  }
  return { ref, commit: commit.slice(0, 7), subject, dir: dist };
}

if (process.argv.includes('--build')) {
  const { build } = await import('tsup');
  const { tsImport } = await import('tsx/esm/api');
  // The ref's own tsup.config.ts, its ESM build (every entry, so that the code splits into the
  // same chunks as the package's), without type declarations or the licence file it writes.
  const { default: config } = await tsImport(
    pathToFileURL(join(process.cwd(), 'tsup.config.ts')).href,
    import.meta.url,
  );
  const esm = [config].flat().find((options) => [options.format].flat().includes('esm'));
  await build({ ...esm, config: false, dts: false, onSuccess: undefined, silent: true });
}
