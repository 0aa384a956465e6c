// The MCP server as a customer gets it: the SDK and this package each built, packed with npm
// pack and installed from their tarballs into a fresh project (test/cli/installed-cli.ts does the
// SDK's part), then run through node_modules/.bin. Nothing here touches a shared dist/.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type InstalledCli, installCli, step } from '../../../../test/cli/installed-cli.js';

const packageRoot = resolve(import.meta.dirname, '../..');
const repositoryRoot = resolve(packageRoot, '../..');

export interface InstalledServer {
  /** The installed `employee-recognition-mcp` bin. */
  bin: string;
  /** The package as packed: its package.json, README, LICENSE and build. */
  packageDir: string;
  /** The project both packages are installed in. */
  project: string;
  /** Kills what still runs and removes the temporary directories. */
  remove(): Promise<void>;
}

/** Builds, packs and installs the SDK and this package into a fresh project (10 to 20 s). */
export async function installServer(): Promise<InstalledServer> {
  const sdk: InstalledCli = await installCli();
  const work = join(sdk.project, '..', 'mcp');
  try {
    mkdirSync(work);
    for (const file of ['package.json', 'README.md', 'LICENSE']) {
      copyFileSync(join(packageRoot, file), join(work, file));
    }
    // With its declarations, so the tarball is whole (bin.test.ts runs publint on it).
    await step(
      process.execPath,
      [
        join(repositoryRoot, 'node_modules/tsup/dist/cli-default.js'),
        '--out-dir',
        join(work, 'dist'),
      ],
      packageRoot,
    );
    const packed = await step('npm', ['pack', '--json', '--ignore-scripts'], work);
    const [{ filename }] = JSON.parse(packed.slice(packed.indexOf('['))) as [{ filename: string }];
    // Its dependency on the SDK is met by the tarball installed before; the MCP SDK comes from
    // npm's cache when it has it.
    await step(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        join(work, filename),
      ],
      sdk.project,
    );
  } catch (error) {
    await sdk.remove();
    throw error;
  }
  return {
    bin: join(sdk.project, 'node_modules', '.bin', 'employee-recognition-mcp'),
    packageDir: work,
    project: sdk.project,
    remove: () => sdk.remove(),
  };
}
