/**
 * The SDK's version, sent in the User-Agent header. Kept equal to package.json by a test. Typed
 * `string`, not its literal, so that a release does not change the public API's declarations.
 */
export const VERSION: string = '1.0.0';
