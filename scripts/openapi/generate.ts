/**
 * Writes openapi.json from the SDK's source: `npm run openapi`. With `--check`, writes nothing
 * and exits 1 when the committed file differs from a fresh generation.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { buildDocument } from './document.js';

const target = new URL('../../openapi.json', import.meta.url);

/** The document as committed: JSON laid out by the repository's prettier settings. */
export async function renderDocument(): Promise<string> {
  const path = fileURLToPath(target);
  const options = await resolveConfig(path);
  return format(JSON.stringify(await buildDocument()), { ...options, filepath: path });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const fresh = await renderDocument();
  if (process.argv.includes('--check')) {
    const committed = readFileSync(target, 'utf8');
    if (committed !== fresh) {
      console.error('openapi.json differs from a fresh generation: run `npm run openapi`.');
      process.exit(1);
    }
  } else {
    writeFileSync(target, fresh);
  }
}
