/**
 * Every suite runs with the SDK logging at debug (RECOGNITION_LOG), and every line the SDK writes
 * to the console is scanned: none may hold an API key, a webhook secret, a bearer or Basic
 * credential, an OAuth client secret or an Authorization header, whatever the test made the SDK
 * or a server do. Clients given their own `logger` are scanned by their tests
 * (test/core/request.test.ts, logging; test/reliability/secrets.test.ts, OAuth).
 */
import { afterAll, expect } from 'vitest';

// An Authorization header with a value, not the word: a server's text may name the header.
const SECRET =
  /rk_(?:live|test)_[A-Za-z0-9]|whsec_[A-Za-z0-9+/=]|authorization["']?\s*[:=]\s*["']?(?!\[redacted\])[^\s"']|(?:Bearer|Basic) (?!\[redacted\])|client_secret["']?\s*[:=]\s*["']?(?!\[redacted\])[^\s"'&]/i;
const PREFIX = '[employee-recognition]';

process.env.RECOGNITION_LOG ??= 'debug';

const leaks: string[] = [];
for (const level of ['debug', 'info', 'warn', 'error'] as const) {
  const write = console[level].bind(console);
  console[level] = (...args: unknown[]) => {
    const line = args.map(String).join(' ');
    if (!line.startsWith(PREFIX)) {
      write(...args);
      return;
    }
    if (SECRET.test(line)) leaks.push(line);
    // The SDK's own lines are checked, not printed: at debug they would bury the test output.
    if (level === 'error' || level === 'warn') write(...args);
  };
}

afterAll(() => {
  expect(leaks, 'SDK log lines holding a secret').toEqual([]);
});
