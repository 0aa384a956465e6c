/**
 * `export` where stderr is no terminal (CI, a log file): progress as plain lines, a page's count
 * at most every 10 s, the waits as they come, and the summary; never a terminal's redraw. The
 * clock is faked (Date only: the sockets stay real), and each request moves it on.
 */
import { type MockServer, startMockServer } from '@employee-recognition/sdk/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/index.js';
import { ENV_API_KEY, ENV_BASE_URL, ENV_LOG_LEVEL } from '../../src/contract.js';
import { captureOutput } from './output.js';

let server: MockServer;
let output: ReturnType<typeof captureOutput>;

beforeEach(async () => {
  server = await startMockServer({ recognitions: 1000 });
  vi.stubEnv(ENV_API_KEY, server.api.testKey);
  vi.stubEnv(ENV_BASE_URL, server.url);
  vi.stubEnv(ENV_LOG_LEVEL, '');
  output = captureOutput();
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-21T10:00:00Z') });
});
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  await server.close();
});

/** The global fetch, moving the faked clock on by `ms` before each request. */
function fetchTaking(ms: number) {
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    vi.setSystemTime(Date.now() + ms);
    return realFetch(input, init);
  });
}

describe('export with stderr not a terminal', () => {
  it('prints a plain count line at most every 10 s, then the summary, and no redraw', async () => {
    fetchTaking(4_000);
    expect(await main(['export', 'recognitions', '--format', 'jsonl'])).toBe(0);
    // A page is counted once the next is asked for (the list reads one ahead): pages 1 to 9 at
    // 8, 12 … 40 s, the last at 40 s. A count once 10 s have passed since the last one.
    expect(output.stderr()).toBe(
      [
        '200 recognitions, 2 pages',
        '500 recognitions, 5 pages',
        '800 recognitions, 8 pages',
        '1000 recognitions from 10 pages.',
        '',
      ].join('\n'),
    );
    expect(output.stdout().split('\n')).toHaveLength(1001);
  });

  it('prints a line per page when pages are rarer than 10 s, and each wait as the SDK logs it', async () => {
    fetchTaking(25_000);
    // One real second: the SDK logs waits of a second or more.
    server.api.faults.failNext('GET /v1/recognitions', { status: 503, retryAfter: 1 });
    expect(await main(['export', 'recognitions', '--format', 'jsonl'])).toBe(0);
    const lines = output.stderr().split('\n');
    expect(lines[0]).toMatch(
      /^\[employee-recognition\] waiting 1 s \(Retry-After\) before retry 1 of 2 of GET /,
    );
    // A count per page, each 25 s after the last (the list reads one ahead, so the last page's
    // count would come with no time passed: the summary says it).
    expect(lines.slice(1)).toEqual([
      '100 recognitions, 1 page',
      ...Array.from(
        { length: 8 },
        (_, index) => `${(index + 2) * 100} recognitions, ${index + 2} pages`,
      ),
      '1000 recognitions from 10 pages.',
      '',
    ]);
  });
});
