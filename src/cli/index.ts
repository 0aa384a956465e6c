#!/usr/bin/env node
/**
 * The `employee-recognition` command of the package: `npx @employee-recognition/sdk <command>`.
 * It loads the SDK through the package's own entries, as any consumer does, so the client is
 * not bundled twice; nothing of it is reachable from those entries.
 */
import { VERSION } from '@employee-recognition/sdk';
import { api } from './api.js';
import { type Command, EXIT, UsageError } from './command.js';
import { doctor } from './doctor.js';
import { exportCommand } from './export.js';
import { mock } from './mock.js';
import { traffic } from './traffic.js';
import { trigger } from './trigger.js';
import { webhooks } from './webhooks.js';

const COMMANDS: readonly Command[] = [mock, trigger, api, exportCommand, webhooks, doctor, traffic];

const HELP = `Usage: employee-recognition <command> [options]

The Employee Recognition SDK on the command line, for local development.

Commands:
${COMMANDS.map((command) => `  ${command.name.padEnd(9)}${command.summary}`).join('\n')}

Options:
  -h, --help     Show this help; with a command, that command's help
  -v, --version  Show the SDK's version

Run employee-recognition <command> --help for a command's options.`;

async function main(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${HELP}\n`);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS.find((each) => each.name === name);
  try {
    if (!command) throw new UsageError(`Unknown command "${name}".`);
    return await command.run(rest);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const help = command
      ? `employee-recognition ${command.name} --help`
      : 'employee-recognition --help';
    process.stderr.write(`employee-recognition: ${error.message}\nSee ${help}.\n`);
    return EXIT.usage;
  }
}

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
