/** The SDK's version, sent in the User-Agent header. Kept equal to package.json by a test. */
export const VERSION = '0.1.0';
