import { vi } from 'vitest';

/** Captures what a command in this process writes to stdout and stderr, from now on. */
export function captureOutput(): { stdout: () => string; stderr: () => string; clear(): void } {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    clear() {
      stdout = '';
      stderr = '';
    },
  };
}
