/**
 * Benchmark 4: what an app pays in bundle size. Each entry in bench/size/ is bundled by esbuild
 * as a browser ESM app (dependencies included, minified, tree-shaken; the SDK from its built
 * dist/ through the package's `exports`), then gzipped at level 9 as size-limit does. The
 * esbuild metafile splits each bundle's minified bytes by package, which shows where size goes.
 *
 * Usage: node bench/size.mjs
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { report } from './lib/stats.mjs';

const APPS = {
  'Client app (list recognitions)': 'client-app.js',
  'verifyWebhook app (/webhooks entry)': 'webhook-app.js',
  'openai: new OpenAI()': 'openai-app.js',
  'stripe: new Stripe()': 'stripe-app.js',
  'ky alone (one GET)': 'ky-app.js',
  'zod/mini alone (one object schema)': 'zod-mini-app.js',
};

/** The package a bundled input file belongs to: the SDK itself, or a dependency's name. */
function packageOf(path) {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (match) return match[1];
  return path.startsWith('dist/') ? '@employee-recognition/sdk' : '(app)';
}

export async function measure(entry) {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`./size/${entry}`, import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: fileURLToPath(new URL('..', import.meta.url)),
  });
  const code = result.outputFiles[0].contents;
  const byPackage = {};
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = packageOf(path);
      byPackage[name] = (byPackage[name] ?? 0) + bytesInOutput;
    }
  }
  return { minBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length, byPackage };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = {};
  for (const [name, entry] of Object.entries(APPS))
    results[name] = { entry, ...(await measure(entry)) };
  report({ apps: results });
}
