/**
 * A key shared with a consumer the client cannot see, to the millisecond: on a fixed-window
 * service simulated on a fake clock (test/support/simulated-service.ts), with a fixed latency,
 * the times each call goes and the turns it is told. The fairness tests bound these (few 429s,
 * a fair share of the time); these pin the arithmetic behind them (the others' measured rate,
 * the client's demand, its part of what is left and the spacing), so that a change to any of
 * it shows. Each trace was checked against docs/architecture.md ("Pacing") when it was written:
 * what the comments say.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiTimeoutError } from '../../src/core/errors.js';
import { Throttle } from '../../src/core/throttle.js';
import { foreignConsumer, pacedCall, simulatedService } from '../support/simulated-service.js';

const START = Date.UTC(2026, 10, 22, 9, 0, 0, 0);
const SHARED = "rate limit: the key's live use is shared";

afterEach(() => {
  vi.useRealTimers();
});

/** How many of `items` are each value, in order of first appearance. */
function tally<T>(items: T[]): Array<[T, number]> {
  const counts = new Map<T, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts];
}

/** Runs `job` to its end, 100 ms of the fake clock at a time, for two minutes of it at most. */
async function runToEnd(job: Promise<unknown>) {
  let done = false;
  void job.then(() => (done = true));
  for (let elapsed = 0; !done && elapsed < 120_000; elapsed += 100) {
    await vi.advanceTimersByTimeAsync(100);
  }
  expect(done).toBe(true);
}

describe('a key shared with a steady consumer it cannot see', () => {
  it('a sequential caller: its probe at once, then its part of what is left spread to the reset, each turn told', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START });
    // 30 per 3 s; the other spends 5 a second, half of it.
    const service = simulatedService({
      limiter: 'fixed-first',
      family: 'x-ratelimit',
      limit: 30,
      windowMs: 3000,
    });
    const other = foreignConsumer(service, { everyMs: 200 });
    const throttle = new Throttle();
    const sentAt: number[] = [];
    const waits: string[] = [];
    let limited = 0;
    await runToEnd(
      (async () => {
        for (let call = 0; call < 30; call++) {
          const record = await pacedCall(throttle, service, () => 20, {
            onWait: (ms, cause) => waits.push(`${call}: ${Math.round(ms)} ms, ${cause}`),
            sent: (at) => sentAt.push(at - START),
          });
          if (record.limited) limited++;
        }
      })(),
    );
    other.stop();
    expect({ limited, others: other.limitedAt.length }).toEqual({ limited: 0, others: 0 });
    // Each window: its first calls one after the other as their answers come (40 ms each), then,
    // once the other's spending shows, its part of what is left spread over the time to the
    // reset, about 300 ms apart; the next window the same.
    expect(sentAt).toEqual([
      0, 40, 80, 120, 160, 200, 240, 608, 906, 1227, 1516, 1829, 2103, 2458, 2694, 3000, 3040, 3080,
      3120, 3160, 3200, 3240, 3608, 3906, 4227, 4516, 4829, 5103, 5458, 5694,
    ]);
    const turns = ['328 ms', '258 ms', '281 ms', '249 ms', '273 ms', '234 ms', '315 ms', '196 ms'];
    expect(waits).toEqual([
      ...turns.map((turn, index) => `${index + 7}: ${turn}, ${SHARED}`),
      `15: 266 ms, ${SHARED}`,
      ...turns.map((turn, index) => `${index + 22}: ${turn}, ${SHARED}`),
    ]);
  });

  it('a burst joining a window the other has been spending: half of what is left at once, then one that measures, then the reset; the next windows from its part of the last', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START });
    // 60 per 10 s; the other spends 4 a second from 2 s before the client's first call.
    const service = simulatedService({
      limiter: 'fixed-first',
      family: 'x-ratelimit',
      limit: 60,
      windowMs: 10_000,
    });
    const other = foreignConsumer(service, { everyMs: 250 });
    await vi.advanceTimersByTimeAsync(2000);
    // 9 of the other's spent: its first answer says 50 left. 25 go at once after the first (slow
    // start doubling), one more when the rate span ends (1 s after that answer, 3040), whose
    // answer shows the other's rate: its part taken, the rest wait for the reset at 10 s.
    const throttle = new Throttle();
    const sentAt: number[] = [];
    const waits: string[] = [];
    await runToEnd(
      Promise.all(
        Array.from({ length: 70 }, () =>
          pacedCall(throttle, service, () => 20, {
            onWait: (ms, cause) => waits.push(`${Math.round(ms)} ms, ${cause}`),
            sent: (at) => sentAt.push(at - START),
          }),
        ),
      ),
    );
    other.stop();
    // Each window alike: slow start from the first answer (1, 2, 4, 8…) up to its budget,
    // one request at the rate span's end, then the reset; the second and third windows' budget
    // is its part of the window before, which others spent while its calls waited.
    expect(tally(sentAt)).toEqual([
      [2000, 1],
      [2040, 2],
      [2080, 4],
      [2120, 8],
      [2160, 11],
      [3040, 1],
      [10000, 1],
      [10040, 2],
      [10080, 4],
      [10120, 8],
      [10160, 15],
      [11040, 1],
      [20000, 1],
      [20040, 2],
      [20080, 4],
      [20120, 5],
    ]);
    expect(tally(waits)).toEqual([
      [`880 ms, ${SHARED}`, 57],
      [`6960 ms, ${SHARED}`, 43],
      [`8960 ms, ${SHARED}`, 12],
    ]);
  });
});

describe('a key shared with others, answer by answer', () => {
  const target = { method: 'GET', url: 'https://api.example.test/v1/users' };
  const answer = (remaining: number, resetAt = START + 10_000) =>
    new Headers({
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(resetAt / 1000),
    });

  /**
   * A client whose first answer said 50 left, and a second on, after one more request of its own,
   * 30: 19 more of the others' requests counted, 19 per second, 171 to the reset, far more than
   * the 30 left. Its part: half the window (25.5 of its 51) less the 3 it has, 22.5, over the
   * 9 s left: one every 400 ms.
   */
  async function beside19PerSecond(resetAt = START + 10_000) {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START });
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(50, resetAt));
    await throttle.acquire({ target });
    vi.setSystemTime(START + 1000);
    throttle.update(answer(30, resetAt));
    return throttle;
  }

  it('tells each queued call its turn: the next paced send, and one spacing more per place ahead of it', async () => {
    const throttle = await beside19PerSecond();
    const told: number[][] = [];
    const sentAt: number[] = [];
    const calls = Array.from({ length: 5 }, (_, index) => {
      told[index] = [];
      return throttle
        .acquire({ target, onWait: (ms) => told[index]!.push(ms) })
        .then(() => sentAt.push(Date.now() - START));
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(told).toEqual([[], [400], [800], [1200], [1600]]);
    // Its turn at 1800 comes, but two are in flight, its share of the 30 left (1 of the 20
    // requests each second, its own and the others'): it waits for an answer.
    await vi.advanceTimersByTimeAsync(3000);
    expect(sentAt).toEqual([1000, 1400]);
    // At 4 s an answer: 20 left; one goes, the two after it are told their new turns.
    throttle.update(answer(20));
    await vi.advanceTimersByTimeAsync(3000);
    expect(sentAt).toEqual([1000, 1400, 4000]);
    expect(told.map((waits) => waits.map(Math.round))).toEqual([
      [],
      [400],
      [800],
      [1200, 667],
      [1600, 1333],
    ]);
    for (let answers = 0; answers < 3; answers++) {
      throttle.update(answer(19 - answers));
      await vi.advanceTimersByTimeAsync(1000);
    }
    await Promise.all(calls);
    expect(sentAt).toEqual([1000, 1400, 4000, 7000, 8000]);
  });

  it('tells a call nothing of its turn when it has come, and it waits only for an answer', async () => {
    const throttle = await beside19PerSecond();
    await throttle.acquire({ target });
    await vi.advanceTimersByTimeAsync(400);
    await throttle.acquire({ target });
    // Two in flight, its share: the next waits for an answer, its turn (1800) has passed.
    vi.setSystemTime(START + 2000);
    const onWait = vi.fn();
    let sentAt: number | undefined;
    void throttle.acquire({ target, onWait }).then(() => (sentAt = Date.now() - START));
    await vi.advanceTimersByTimeAsync(100);
    expect(sentAt).toBeUndefined();
    throttle.update(answer(28));
    await vi.advanceTimersByTimeAsync(0);
    expect(sentAt).toBe(2100);
    expect(onWait).not.toHaveBeenCalled();
  });

  it('sends at once beside others who spend little: their rate and its own, to the reset, leave more than it needs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START });
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(90));
    await throttle.acquire({ target });
    // One of the others' requests in a second: 9 more to the reset, of the 88 left.
    vi.setSystemTime(START + 1000);
    let left = 88;
    throttle.update(answer(left));
    const sentAt: number[] = [];
    const calls = Array.from({ length: 4 }, () =>
      throttle.acquire({ target }).then(() => {
        sentAt.push(Date.now() - START);
        throttle.update(answer(--left));
      }),
    );
    await vi.advanceTimersByTimeAsync(0);
    await Promise.all(calls);
    expect(sentAt).toEqual([1000, 1000, 1000, 1000]);
  });

  it('counts its own sends of the span before for the part of that span still within the last second', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START });
    const throttle = new Throttle();
    await throttle.acquire({ target });
    throttle.update(answer(30));
    await throttle.acquire({ target });
    // One of the others' requests in a second: 9 more to the reset, of the 28 left.
    vi.setSystemTime(START + 1000);
    throttle.update(answer(28));
    vi.setSystemTime(START + 1500);
    const sentAt: number[] = [];
    for (let call = 0; call < 3; call++) {
      void throttle.acquire({ target }).then(() => sentAt.push(Date.now() - START));
    }
    await vi.advanceTimersByTimeAsync(3000);
    // Its own two sends of the span before count for half: two go at once, then it is pressed.
    expect(sentAt).toEqual([1500, 1500, 1986]);
  });

  it('sends at once, before its paced turn, when an answer a rate span on shows the others stopped', async () => {
    const resetAt = START + 21_000;
    const throttle = await beside19PerSecond(resetAt);
    const sentAt: number[] = [];
    for (let call = 0; call < 3; call++) {
      void throttle.acquire({ target }).then(() => sentAt.push(Date.now() - START));
    }
    // Its part of what is left over the 20 s to the reset: one about every 889 ms.
    await vi.advanceTimersByTimeAsync(1000);
    expect(sentAt).toEqual([1000, 1889]);
    // A second after the last measure, none of the others' requests more: the next goes now.
    throttle.update(answer(29, resetAt));
    await vi.advanceTimersByTimeAsync(0);
    expect(sentAt).toEqual([1000, 1889, 2000]);
  });

  it('tells a call refused at once, its deadline passed, nothing of a paced turn', async () => {
    const throttle = await beside19PerSecond();
    await throttle.acquire({ target });
    const onWait = vi.fn();
    await expect(throttle.acquire({ target, deadline: Date.now(), onWait })).rejects.toBeInstanceOf(
      ApiTimeoutError,
    );
    expect(onWait).not.toHaveBeenCalled();
  });

  it('keeps the paced turn of the next call when a request in flight gets no answer', async () => {
    const throttle = await beside19PerSecond();
    await throttle.acquire({ target });
    let sentAt: number | undefined;
    void throttle.acquire({ target }).then(() => (sentAt = Date.now() - START));
    await vi.advanceTimersByTimeAsync(100);
    // No answer says anything: its turn, 400 ms after the last send, stands.
    throttle.release();
    await vi.advanceTimersByTimeAsync(299);
    expect(sentAt).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(sentAt).toBe(1400);
  });

  it("waits for the answer in flight once the others' rate has spent what the last answer said was left", async () => {
    const throttle = await beside19PerSecond();
    await throttle.acquire({ target });
    // 1.6 s after the answer that said 30: at 19 a second the others have spent them.
    vi.setSystemTime(START + 2600);
    let sentAt: number | undefined;
    void throttle.acquire({ target }).then(() => (sentAt = Date.now() - START));
    await vi.advanceTimersByTimeAsync(0);
    expect(sentAt).toBeUndefined();
    // The answer tells: 10 left, its share of them 1.
    vi.setSystemTime(START + 2700);
    throttle.update(answer(10));
    await vi.advanceTimersByTimeAsync(0);
    expect(sentAt).toBe(2700);
  });

  it("waits for the reset, told, once the others' rate has spent what the last answer said was left and none is in flight", async () => {
    const throttle = await beside19PerSecond();
    vi.setSystemTime(START + 2600);
    const onWait = vi.fn();
    let sentAt: number | undefined;
    void throttle.acquire({ target, onWait }).then(() => (sentAt = Date.now() - START));
    expect(onWait).toHaveBeenCalledExactlyOnceWith(7400, SHARED);
    await vi.advanceTimersByTimeAsync(7399);
    expect(sentAt).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(sentAt).toBe(10_000);
  });

  /**
   * Two of its requests in flight, its share of the 30 left, and a third waiting for an answer
   * though its turn has come: then one of a store's requests is answered, its reset `resetIn`
   * seconds from the start (the known window's is 10). When the third went, if it did.
   */
  async function afterAStoresAnswer(resetIn: number) {
    const throttle = await beside19PerSecond();
    await throttle.acquire({ target });
    await vi.advanceTimersByTimeAsync(400);
    await throttle.acquire({ target });
    let sentAt: number | undefined;
    void throttle.acquire({ target }).then(() => (sentAt = Date.now() - START));
    await vi.advanceTimersByTimeAsync(400);
    throttle.observe(
      new Headers({
        'x-ratelimit-limit': '100',
        'x-ratelimit-remaining': '30',
        'x-ratelimit-reset': String(START / 1000 + resetIn),
      }),
    );
    await vi.advanceTimersByTimeAsync(1000);
    return sentAt;
  }

  it('counts an answer of the known window whose reset reads two seconds earlier: its share grows', async () => {
    // Three of its answers against the others' 19: a share of 3 of the 30 left.
    expect(await afterAStoresAnswer(8)).toBe(1800);
  });

  it('counts nothing of an answer from a window before the known one', async () => {
    expect(await afterAStoresAnswer(3)).toBeUndefined();
  });

  it('waits on that guess for a reset up to the cap away, never beyond it', async () => {
    // A reset exactly the cap (60 s) after the call: it waits for it, told.
    let throttle = await beside19PerSecond(START + 63_000);
    vi.setSystemTime(START + 3000);
    const onWait = vi.fn();
    let sentAt: number | undefined;
    void throttle.acquire({ target, onWait }).then(() => (sentAt = Date.now() - START));
    expect(onWait).toHaveBeenCalledExactlyOnceWith(60_000, SHARED);
    // An hour away: the guess waits for nothing, the call goes on its paced turn, at once.
    vi.useRealTimers();
    throttle = await beside19PerSecond(START + 3_600_000);
    vi.setSystemTime(START + 3000);
    sentAt = undefined;
    void throttle.acquire({ target }).then(() => (sentAt = Date.now() - START));
    await vi.advanceTimersByTimeAsync(0);
    expect(sentAt).toBe(3000);
  });
});
