/**
 * `@employee-recognition/sdk/record`: records an app's calls to the Employee Recognition API as
 * HAR 1.2, redacted, without changing its code:
 * `RECOGNITION_RECORD=calls.har node --import @employee-recognition/sdk/record app.js`.
 *
 * A preload can only wrap the global `fetch`, so it records only requests to the client's base
 * URL (`RECOGNITION_BASE_URL`, else the service's) and to the authorization server
 * (`RECOGNITION_AUTH_URL`, else the service's), plus the addresses `RECOGNITION_RECORD_URLS`
 * lists (comma-separated: a base URL set in code, a token endpoint elsewhere). Other libraries'
 * requests, and their credentials, stay out of the file; requests the SDK sent elsewhere are
 * counted and named at exit. Entries stream to `<file>.partial`; the HAR is finished when the
 * process exits, on `process.exit()`, and on SIGINT and SIGTERM (docs/testing.md, "Recording
 * real traffic").
 *
 * @packageDocumentation
 */
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import {
  DEFAULT_AUTH_URL,
  DEFAULT_BASE_URL,
  ENV_AUTH_URL,
  ENV_BASE_URL,
  ENV_RECORD,
  ENV_RECORD_URLS,
} from '../contract.js';
import { readEnv } from '../internal/env.js';
import { type FileRecorder, startRecorder } from '../testing/recorder.js';

const say = (line: string) => process.stderr.write(`[employee-recognition] record: ${line}\n`);
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

const file = readEnv(ENV_RECORD);
let recorder: FileRecorder | undefined;
if (file === undefined) {
  say(`${ENV_RECORD} names no file, so nothing is recorded.`);
} else {
  const urls = [
    readEnv(ENV_BASE_URL) ?? DEFAULT_BASE_URL,
    readEnv(ENV_AUTH_URL) ?? DEFAULT_AUTH_URL,
    ...(readEnv(ENV_RECORD_URLS) ?? '').split(','),
  ]
    .map((url) => url.trim())
    .filter(Boolean);
  try {
    // node:fs given: the `.partial` is created now, and the `exit` handler can finish the file.
    const fs = {
      closeSync,
      constants,
      fstatSync,
      fsyncSync,
      lstatSync,
      openSync,
      readSync,
      renameSync,
      rmSync,
      writeSync,
    };
    recorder = startRecorder({ file, urls, fetch: globalThis.fetch.bind(globalThis), fs, say });
  } catch (error) {
    say(`cannot record to ${file}: ${describe(error)}`);
  }
}

if (recorder) {
  const active = recorder;
  globalThis.fetch = active.fetch;
  let reported = false;
  // What the session holds, said once the file is finished: a recording that silently missed
  // the app's calls is worse than none.
  const report = (error?: unknown) => {
    if (reported) return;
    reported = true;
    if (error !== undefined) return say(`cannot write ${file}: ${describe(error)}`);
    for (const [origin, count] of active.unrecorded) {
      say(
        `the SDK sent ${count} request(s) to ${origin}, not recorded: add it to ${ENV_RECORD_URLS}.`,
      );
    }
    if (active.recorded === 0) say(`warning: ${file} holds no entries: nothing was recorded.`);
  };
  const finishSync = () => {
    try {
      active.closeSync();
      report();
    } catch (error) {
      report(error);
    }
  };
  // `beforeExit` when the event loop empties, so bodies still being read are waited for;
  // `exit` for process.exit(), where only synchronous work runs.
  process.once('beforeExit', () => {
    active.close().then(() => report(), report);
  });
  process.once('exit', finishSync);
  // A listener takes the signal's default (ending the process) away: when ours is the only one,
  // the HAR is finished and the signal raised again, so the exit code stays 130 or 143; when the
  // app listens too, shutdown is the app's, and `exit` finishes the file.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const onSignal = () => {
      if (process.listenerCount(signal) > 1) return;
      finishSync();
      process.off(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}
