/** An environment variable where the runtime has `process.env` and lets us read it (Deno may not). */
export function readEnv(name: string): string | undefined {
  try {
    return globalThis.process?.env?.[name] || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the code runs where a page's visitors can read it: `window` and `document` both exist.
 * Secrets (an API key, an OAuth client secret) are refused there unless the caller says they know.
 */
export function isBrowserLike(): boolean {
  return 'window' in globalThis && 'document' in globalThis;
}
