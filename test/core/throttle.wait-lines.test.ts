/**
 * The queue's info lines (`WaitLines`): one line when a wait starts, naming the call when it waits
 * alone, counting the calls when several share it; one when the shared wait ends, counting those
 * that go; nothing logged under a second, though each call's `onWait` is told. Word for word, on
 * a fake clock: the request-level tests check that a line appears, not what it says.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Log } from '../../src/core/logger.js';
import { Throttle, type ToldWait, WaitLines } from '../../src/core/throttle.js';
import { answer } from '../support/throttle.js';

const START = Date.UTC(2026, 10, 22);
const CAUSE = 'rate limit: X-RateLimit-Reset';
const target = { method: 'GET', url: 'https://api.example/v1/users' };

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: START });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A log at info that keeps its lines in `lines`, without their prefix. */
function recordedLog() {
  const lines: string[] = [];
  const log = new Log(
    {
      debug: () => {},
      info: (line: string) => void lines.push(line.replace('[employee-recognition] ', '')),
      warn: () => {},
      error: () => {},
    },
    'info',
  );
  return { lines, log };
}

/** Wait lines that log to `lines`, at info. */
function recorded() {
  const { lines, log } = recordedLog();
  return { lines, waitLines: new WaitLines(log) };
}

function waiter(options: Partial<ToldWait['options']> = {}) {
  const onWait = vi.fn();
  const told: ToldWait = { options: { target, onWait, ...options }, notified: false };
  return { told, onWait };
}

describe('WaitLines: a call that waits alone', () => {
  it('is told at once, and its line names the call and the whole seconds, rounded, at the flush', () => {
    const { lines, waitLines } = recorded();
    const { told, onWait } = waiter();
    waitLines.tell(told, 2499, CAUSE);
    expect(onWait).toHaveBeenCalledExactlyOnceWith(2499, CAUSE);
    expect(lines).toEqual([]);
    waitLines.flush();
    expect(lines).toEqual([`waiting 2 s (${CAUSE}) before GET https://api.example/v1/users`]);
    // Flushed once: a second flush says nothing more.
    waitLines.flush();
    expect(lines).toHaveLength(1);
  });

  it("names the call through the call's redaction", () => {
    const { lines, waitLines } = recorded();
    const { told } = waiter({ redact: (text) => text.replace('users', '[users]') });
    waitLines.tell(told, 1500, CAUSE);
    waitLines.flush();
    expect(lines).toEqual([`waiting 2 s (${CAUSE}) before GET https://api.example/v1/[users]`]);
  });

  it('logs no line for a wait under a second, and a line from a second on', () => {
    const { lines, waitLines } = recorded();
    const short = waiter();
    waitLines.tell(short.told, 999, CAUSE);
    waitLines.flush();
    expect(short.onWait).toHaveBeenCalledExactlyOnceWith(999, CAUSE);
    expect(lines).toEqual([]);
    expect(short.told.group).toBeUndefined();
    waitLines.tell(waiter().told, 1000, CAUSE);
    waitLines.flush();
    expect(lines).toEqual([`waiting 1 s (${CAUSE}) before GET https://api.example/v1/users`]);
  });

  it('says nothing when it leaves: the line at the start named it', () => {
    const { lines, waitLines } = recorded();
    const { told } = waiter();
    waitLines.tell(told, 5000, CAUSE);
    waitLines.flush();
    vi.setSystemTime(START + 5000);
    waitLines.leave(told, true);
    expect(lines).toHaveLength(1);
    expect(told.group).toBeUndefined();
  });
});

describe('WaitLines: calls that share a wait', () => {
  it('one line when it starts, with the longest wait told before the flush and the count; one when it ends, with the calls that go', () => {
    const { lines, waitLines } = recorded();
    const calls = [waiter(), waiter(), waiter()];
    waitLines.tell(calls[0]!.told, 3000, CAUSE);
    waitLines.tell(calls[1]!.told, 5400, CAUSE);
    waitLines.tell(calls[2]!.told, 4000, CAUSE);
    waitLines.flush();
    expect(lines).toEqual([`waiting 5 s for the rate-limit window (${CAUSE}; 3 calls queued)`]);
    vi.setSystemTime(START + 4600);
    waitLines.leave(calls[0]!.told, true);
    waitLines.leave(calls[1]!.told, false);
    expect(lines).toHaveLength(1);
    waitLines.leave(calls[2]!.told, true);
    expect(lines).toEqual([
      `waiting 5 s for the rate-limit window (${CAUSE}; 3 calls queued)`,
      `waited 5 s for the rate-limit window (${CAUSE}): 2 queued calls go`,
    ]);
  });

  it('says nothing at the end when none of them went', () => {
    const { lines, waitLines } = recorded();
    const calls = [waiter(), waiter()];
    for (const { told } of calls) waitLines.tell(told, 2000, CAUSE);
    waitLines.flush();
    for (const { told } of calls) waitLines.leave(told, false);
    expect(lines).toEqual([`waiting 2 s for the rate-limit window (${CAUSE}; 2 calls queued)`]);
  });

  it('keeps the length its line said once logged, and counts a call that joins after it', () => {
    const { lines, waitLines } = recorded();
    const first = waiter();
    const second = waiter();
    waitLines.tell(first.told, 2000, CAUSE);
    waitLines.flush();
    waitLines.tell(second.told, 9000, CAUSE);
    waitLines.flush();
    expect(lines).toEqual([`waiting 2 s (${CAUSE}) before GET https://api.example/v1/users`]);
    vi.setSystemTime(START + 2000);
    waitLines.leave(first.told, true);
    waitLines.leave(second.told, true);
    expect(lines.at(-1)).toBe(`waited 2 s for the rate-limit window (${CAUSE}): 2 queued calls go`);
  });

  it('starts a new line for the same cause once the last wait ended', () => {
    const { lines, waitLines } = recorded();
    const first = waiter();
    waitLines.tell(first.told, 2000, CAUSE);
    waitLines.flush();
    waitLines.leave(first.told, true);
    const next = waiter();
    waitLines.tell(next.told, 3000, CAUSE);
    waitLines.flush();
    expect(lines).toEqual([
      `waiting 2 s (${CAUSE}) before GET https://api.example/v1/users`,
      `waiting 3 s (${CAUSE}) before GET https://api.example/v1/users`,
    ]);
  });

  it('keeps one line per cause', () => {
    const { lines, waitLines } = recorded();
    waitLines.tell(waiter().told, 2000, CAUSE);
    waitLines.tell(waiter().told, 3000, 'another cause');
    waitLines.flush();
    expect(lines).toEqual([
      `waiting 2 s (${CAUSE}) before GET https://api.example/v1/users`,
      `waiting 3 s (another cause) before GET https://api.example/v1/users`,
    ]);
  });

  it('a call leaving twice, or one never told, counts once', () => {
    const { lines, waitLines } = recorded();
    const calls = [waiter(), waiter()];
    for (const { told } of calls) waitLines.tell(told, 2000, CAUSE);
    waitLines.flush();
    waitLines.leave(calls[0]!.told, true);
    waitLines.leave(calls[0]!.told, true);
    waitLines.leave(waiter().told, true);
    expect(lines).toHaveLength(1);
    waitLines.leave(calls[1]!.told, true);
    expect(lines.at(-1)).toBe(`waited 0 s for the rate-limit window (${CAUSE}): 2 queued calls go`);
  });
});

describe('WaitLines: a call told again', () => {
  it('is not told a wait that ends less than a second after the one it knows, and is from a second on', () => {
    const { waitLines } = recorded();
    const { told, onWait } = waiter();
    waitLines.tell(told, 5000, CAUSE);
    expect(told.until).toBe(START + 5000);
    waitLines.tell(told, 5999, CAUSE);
    waitLines.tell(told, 1000, CAUSE);
    expect(onWait).toHaveBeenCalledOnce();
    waitLines.tell(told, 6000, CAUSE);
    expect(onWait).toHaveBeenCalledTimes(2);
    expect(onWait).toHaveBeenLastCalledWith(6000, CAUSE);
    expect(told.until).toBe(START + 6000);
  });

  it('moves to the line of its new wait, leaving the old one without going', () => {
    const { lines, waitLines } = recorded();
    const moved = waiter();
    const stays = waiter();
    waitLines.tell(moved.told, 2000, 'paced');
    waitLines.tell(stays.told, 2000, 'paced');
    waitLines.flush();
    waitLines.tell(moved.told, 10_000, CAUSE);
    waitLines.flush();
    waitLines.leave(stays.told, true);
    expect(lines).toEqual([
      'waiting 2 s for the rate-limit window (paced; 2 calls queued)',
      `waiting 10 s (${CAUSE}) before GET https://api.example/v1/users`,
      'waited 0 s for the rate-limit window (paced): 1 queued calls go',
    ]);
  });

  it('is told again, without a line, of a short wait that ends a second or more after the one it knew', () => {
    const { lines, waitLines } = recorded();
    const { told, onWait } = waiter();
    waitLines.tell(told, 2000, CAUSE);
    waitLines.flush();
    vi.setSystemTime(START + 2600);
    waitLines.tell(told, 500, CAUSE);
    expect(onWait).toHaveBeenCalledTimes(2);
    expect(onWait).toHaveBeenLastCalledWith(500, CAUSE);
    expect(told.group).toBeUndefined();
    waitLines.flush();
    expect(lines).toEqual([`waiting 2 s (${CAUSE}) before GET https://api.example/v1/users`]);
  });
});

describe('WaitLines without a log', () => {
  it('tells each call, and writes nowhere', () => {
    const waitLines = new WaitLines(undefined);
    const calls = [waiter(), waiter()];
    for (const { told } of calls) waitLines.tell(told, 2000, CAUSE);
    expect(() => waitLines.flush()).not.toThrow();
    for (const { told } of calls) waitLines.leave(told, true);
    for (const { onWait } of calls) expect(onWait).toHaveBeenCalledOnce();
  });
});

describe('Throttle: the line that ends a shared wait', () => {
  it('counts the calls that went, not one that left by its signal', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START });
    const { lines, log } = recordedLog();
    const throttle = new Throttle(log);
    await throttle.acquire({ target });
    throttle.update(answer(0, START + 5000));
    const aborted = new AbortController();
    const calls = [
      throttle.acquire({ target }),
      throttle.acquire({ target, signal: aborted.signal }).catch(() => 'aborted'),
      throttle.acquire({ target }),
    ];
    // Each call is logged as it queues: the first one's line, which the others join.
    const started = `waiting 5 s (${CAUSE}) before GET https://api.example/v1/users`;
    expect(lines).toEqual([started]);
    await vi.advanceTimersByTimeAsync(1000);
    aborted.abort();
    // At the reset one goes, to learn the next window; its answer lets the last go.
    await vi.advanceTimersByTimeAsync(4000);
    throttle.update(answer(99, START + 65_000));
    expect(await Promise.all(calls)).toEqual([undefined, 'aborted', undefined]);
    expect(lines).toEqual([
      started,
      `waited 5 s for the rate-limit window (${CAUSE}): 2 queued calls go`,
    ]);
  });
});
