// The package's build, made when dist/ is missing or older than what it is built from.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, seconds, stripAnsi } from './process.mjs';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Runs `npm run build` unless dist/ is newer than src/, package.json and tsup.config.ts. */
export async function ensureBuild(say = console.log) {
  const outputs = ['index.js', 'index.cjs', 'webhooks.js', 'webhooks.cjs', 'testing.js'].map((f) =>
    join(root, 'dist', f),
  );
  const inputs = ['src', 'package.json', 'tsup.config.ts'].map((f) => join(root, f));
  const built = outputs.every((f) => existsSync(f))
    ? Math.min(...outputs.map((f) => statSync(f).mtimeMs))
    : 0;
  if (built >= Math.max(...inputs.map(newestMtime))) {
    say('build: dist/ is up to date');
    return;
  }
  const started = Date.now();
  const result = await run('npm', ['run', 'build'], { cwd: root, timeoutMs: 5 * 60_000 });
  if (result.code !== 0) {
    say(stripAnsi(result.output).split('\n').slice(-30).join('\n'));
    throw new Error('npm run build failed');
  }
  say(`build: npm run build (${seconds(started)})`);
}
