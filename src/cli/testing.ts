import { register } from 'node:module';
import type * as TestingEntry from '@employee-recognition/sdk/testing';

type Testing = typeof TestingEntry;

// The testing entry imports msw at load time, for the MSW handlers of `createMockApi`. msw is an
// optional peer dependency that a project running the CLI may lack, and the CLI serves the mock
// over node:http, never through those handlers. So where msw cannot be found, this hook resolves
// it to a module whose `http.all` makes an inert handler; an installed msw is used as it is.
const MSW_FALLBACK = `data:text/javascript,${encodeURIComponent(
  'export const http = { all: () => ({}) };',
)}`;
const RESOLVE_HOOK = `
export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    if (specifier !== 'msw' || error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return { url: ${JSON.stringify(MSW_FALLBACK)}, format: 'module', shortCircuit: true };
  }
}`;

let testing: Promise<Testing> | undefined;

/** The package's `./testing` entry, loadable whether or not msw is installed. */
export function loadTesting(): Promise<Testing> {
  if (!testing) {
    // module.register arrived in Node 20.6; before it, the entry loads only where msw is installed.
    if (typeof register === 'function') {
      register(`data:text/javascript,${encodeURIComponent(RESOLVE_HOOK)}`);
    }
    testing = import('@employee-recognition/sdk/testing');
  }
  return testing;
}
