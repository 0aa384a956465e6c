import type * as TestingEntry from '@employee-recognition/sdk/testing';

/**
 * The package's `./testing` entry, which `mock` and `trigger` run on; undefined, after saying
 * how to get it, when msw is missing. The mock routes requests with msw's URL matcher, so msw
 * (an optional peer dependency, left out of projects that never test with it) must be there.
 */
export async function loadTesting(command: string): Promise<typeof TestingEntry | undefined> {
  try {
    return await import('@employee-recognition/sdk/testing');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code !== 'ERR_MODULE_NOT_FOUND' || !/['"]msw['"]/.test(message)) throw error;
    process.stderr
      .write(`employee-recognition ${command} runs the SDK's mock API, which needs msw, an optional peer
dependency of @employee-recognition/sdk. Install it in this project:
  npm install --save-dev msw
or run the command with it for once:
  npx -p msw -p @employee-recognition/sdk employee-recognition ${command} …
`);
    return undefined;
  }
}
