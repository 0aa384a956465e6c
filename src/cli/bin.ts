#!/usr/bin/env node
// The `employee-recognition` bin (tsup.config.ts builds it as dist/cli.js): runs the tool of
// index.ts, which tests import without running it.
import { EXIT } from './command.js';
import { main } from './index.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // A bug of the CLI: the stack helps whoever reports it.
    process.stderr.write(
      `employee-recognition: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exitCode = EXIT.failure;
  },
);
