/**
 * `@employee-recognition/sdk/record`: records an app's calls to the Employee Recognition API as
 * HAR 1.2, redacted, without changing its code:
 * `RECOGNITION_RECORD=calls.har node --import @employee-recognition/sdk/record app.js`.
 *
 * A preload can only wrap the global `fetch`, so it records only requests to the client's base
 * URL (`RECOGNITION_BASE_URL`, else the service's) and to the authorization server
 * (`RECOGNITION_AUTH_URL`, else the service's), plus the addresses `RECOGNITION_RECORD_URLS`
 * lists (comma-separated: a base URL set in code, a token endpoint elsewhere). Other libraries'
 * requests, and their credentials, stay out of the file. Entries stream to the file; it is a HAR
 * once the process exits (docs/testing.md, "Recording real traffic").
 *
 * @packageDocumentation
 */
import {
  DEFAULT_AUTH_URL,
  DEFAULT_BASE_URL,
  ENV_AUTH_URL,
  ENV_BASE_URL,
  ENV_RECORD,
  ENV_RECORD_URLS,
} from '../contract.js';
import { readEnv } from '../internal/env.js';
import { startRecorder } from '../testing/recorder.js';

const file = readEnv(ENV_RECORD);
if (file === undefined) {
  process.stderr.write(
    `[employee-recognition] record: ${ENV_RECORD} names no file, so nothing is recorded.\n`,
  );
} else {
  const urls = [
    readEnv(ENV_BASE_URL) ?? DEFAULT_BASE_URL,
    readEnv(ENV_AUTH_URL) ?? DEFAULT_AUTH_URL,
    ...(readEnv(ENV_RECORD_URLS) ?? '').split(','),
  ]
    .map((url) => url.trim())
    .filter(Boolean);
  const recorder = startRecorder({ file, urls, fetch: globalThis.fetch.bind(globalThis) });
  globalThis.fetch = recorder.fetch;
  // `beforeExit` when the event loop empties, so bodies still being read are waited for;
  // `exit` for process.exit(), where only synchronous work runs.
  process.once('beforeExit', () => {
    recorder.close().catch((error: unknown) => {
      process.stderr.write(
        `[employee-recognition] record: cannot write ${file}: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    });
  });
  process.once('exit', () => recorder.closeSync());
}
