/**
 * The `employee-recognition` command of the package: `npx @employee-recognition/sdk <command>`
 * (its bin, bin.ts, runs {@link main}). It loads the SDK through the package's own entries, as
 * any consumer does, so the client is not bundled twice; nothing of it is reachable from those
 * entries.
 */
import { VERSION } from '@employee-recognition/sdk';
import { api } from './api.js';
import { type Command, EXIT, runCommand, UsageError } from './command.js';
import { doctor } from './doctor.js';
import { exportCommand } from './export.js';
import { mock } from './mock.js';
import { traffic } from './traffic.js';
import { trigger } from './trigger.js';
import { webhooks } from './webhooks.js';

/** The commands, in the order of `--help`: what docs/cli.md must list (scripts/check-docs.mjs). */
export const COMMANDS: readonly Command[] = [
  mock,
  trigger,
  api,
  exportCommand,
  webhooks,
  doctor,
  traffic,
];

const HELP = `Usage: employee-recognition <command> [options]

The Employee Recognition SDK on the command line, for local development.

Commands:
${COMMANDS.map((command) => `  ${command.name.padEnd(9)}${command.summary}`).join('\n')}

Options:
  -h, --help     Show this help; with a command, that command's help
  -v, --version  Show the SDK's version

Run employee-recognition <command> --help for a command's options.`;

/** The tool run with `args` (the command line without `node` and the script): its exit code. */
export async function main(args: string[]): Promise<number> {
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
  if (command) return runCommand(command, rest);
  return runCommand(
    {
      name: '',
      help: HELP,
      run: () => Promise.reject(new UsageError(`Unknown command "${name}".`)),
    },
    rest,
  );
}
