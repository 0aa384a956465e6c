/** An environment variable where the runtime has `process.env` and lets us read it (Deno may not). */
export function readEnv(name: string): string | undefined {
  try {
    return globalThis.process?.env?.[name] || undefined;
  } catch {
    return undefined;
  }
}
