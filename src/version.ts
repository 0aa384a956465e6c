/**
 * The SDK's version, sent in the User-Agent header. Kept equal to package.json by a test. Typed
 * `string`, not its literal, so that a release does not change the public API's declarations.
 */
export const VERSION: string = '1.0.0';

/**
 * The published documentation: the docs/ folder of the repository that package.json's `homepage`
 * names, as a customer reading a log line can open it (the package does not ship docs/). Kept
 * equal to package.json by a test.
 */
export const DOCS_URL = 'https://github.com/employee-recognition/sdk-typescript/blob/main/docs/';
