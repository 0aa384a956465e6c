/**
 * Every output channel of a client, observed at once, on a fake clock: the error (all its fields,
 * the cause chain, `util.inspect`) or what the SDK adds to a result, every hook context, what the
 * instrumentation is told, and every log line at debug. The service is a scripted in-process `fetch`, so a property
 * can run hundreds of calls in a second; the waits the SDK schedules are recorded, never waited.
 */
import { inspect } from 'node:util';
import { vi } from 'vitest';
import { Client, type ClientOptions } from '../../src/index.js';
import type { CallObserver, Instrumentation } from '../../src/core/observer.js';
import { renderings } from './secrets.js';

/** One scripted answer: a Response, or a rejection of fetch itself (a network failure). */
export type Answer =
  { status: number; headers?: [string, string][]; body?: string } | { reject: unknown };

export interface Observed<T> {
  settled: boolean;
  value?: T;
  error?: unknown;
  /** Every delay handed to setTimeout while the call ran, as given, in ms. */
  delays: number[];
  /** Timers the clock was moved to, one after the other. */
  steps: number;
  /** Fake milliseconds that passed. */
  elapsed: number;
  /** The URLs fetch was asked for, in order. */
  requested: string[];
  /** Every text that left the SDK by any channel (see the module's comment). */
  texts: string[];
  /** The `delayMs` of every beforeRetry context, and the `retryAfter` and `rateLimit.reset` seen. */
  waits: number[];
}

/** Every rendering of `value` a customer's code or tool commonly makes. */
function everyText(value: unknown): string[] {
  const texts = [inspect(value, { depth: 8, showHidden: true, getters: true })];
  try {
    texts.push(JSON.stringify(value) ?? '');
  } catch {
    // A cycle: inspect has it.
  }
  const seen = new Set<unknown>();
  // Each error of the chain as renderings() shows it, and every header an object keeps.
  const walk = (each: unknown, depth: number) => {
    if (depth > 6 || each === null || typeof each !== 'object' || seen.has(each)) return;
    seen.add(each);
    if (each instanceof Error) texts.push(...renderings(each));
    if (each instanceof Headers) {
      for (const [name, header] of each) texts.push(`${name}: ${header}`);
      return;
    }
    for (const key of Object.getOwnPropertyNames(each)) {
      let member: unknown;
      try {
        member = (each as Record<string, unknown>)[key];
      } catch {
        continue;
      }
      if (typeof member === 'string') texts.push(member);
      else walk(member, depth + 1);
    }
    if (each instanceof Error) walk(each.cause, depth + 1);
  };
  walk(value, 0);
  return texts;
}

/**
 * Runs `call` on a new client whose fetch answers with `answers` in turn (the last repeating),
 * every hook, an instrumentation and a debug logger recording what they are given, under a fake
 * clock moved from timer to timer while the call is idle, at most `maxSteps` times: a call that
 * spins on timers ends the drive unsettled.
 */
export async function observeCall<T>(
  answers: readonly Answer[],
  options: ClientOptions,
  call: (client: Client) => PromiseLike<T>,
  maxSteps = 40,
): Promise<Observed<T>> {
  const texts: string[] = [];
  const waits: number[] = [];
  const requested: string[] = [];
  const record = (...values: unknown[]) => {
    for (const value of values) texts.push(...everyText(value));
  };
  const line = (message: string) => void texts.push(message);
  const observer: CallObserver = {
    wait: (...args) => record(args),
    attempt: (attempt) => {
      record(attempt);
      return undefined;
    },
    end: (error) => record(error),
  };
  const instrumentation: Instrumentation = { call: () => observer };
  let index = 0;
  const fetch: typeof globalThis.fetch = (input) => {
    requested.push(String(input));
    const answer = answers[Math.min(index++, answers.length - 1)]!;
    if ('reject' in answer) return Promise.reject(answer.reject);
    const empty = [101, 204, 205, 304].includes(answer.status);
    return Promise.resolve(
      new Response(empty ? null : (answer.body ?? ''), {
        status: answer.status,
        headers: answer.headers,
      }),
    );
  };
  const client = new Client({
    baseUrl: 'https://api.test',
    logger: { debug: line, info: line, warn: line, error: line },
    logLevel: 'debug',
    instrumentation,
    hooks: {
      beforeRequest: [(context) => record(context)],
      afterResponse: [(context) => record(context)],
      beforeRetry: [
        (context) => {
          waits.push(context.delayMs);
          record(context);
        },
      ],
      beforeError: [(error, context) => record(error, context)],
    },
    ...options,
    fetch,
  });

  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
  const delays: number[] = [];
  const fakeSetTimeout = globalThis.setTimeout;
  globalThis.setTimeout = ((callback: () => void, ms?: number, ...args: unknown[]) => {
    delays.push(Number(ms));
    return fakeSetTimeout(callback, ms, ...args);
  }) as typeof setTimeout;
  const startedAt = Date.now();
  const result: Observed<T> = {
    settled: false,
    delays,
    steps: 0,
    elapsed: 0,
    requested,
    texts,
    waits,
  };
  void Promise.resolve()
    .then(() => call(client))
    .then(
      (value) => Object.assign(result, { settled: true, value }),
      (error: unknown) => Object.assign(result, { settled: true, error }),
    );
  try {
    while (!result.settled) {
      // Lets fetch, the body's stream and the SDK's reactions run before the clock moves.
      for (let turn = 0; turn < 8 && !result.settled; turn++) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (result.settled || vi.getTimerCount() === 0 || result.steps >= maxSteps) break;
      vi.advanceTimersToNextTimer();
      result.steps++;
    }
  } finally {
    result.elapsed = Date.now() - startedAt;
    globalThis.setTimeout = fakeSetTimeout;
    vi.clearAllTimers();
    vi.useRealTimers();
  }
  // A result's records, its raw Response and the request id read from it are the answer as the
  // service sent it: what the SDK adds to them (rate limit, deprecation notice) is observed.
  const value = result.value as Record<string, unknown> | undefined;
  if (value && typeof value === 'object' && 'response' in value) {
    const { data: _data, response: _response, requestId: _requestId, ...added } = value;
    record(added);
  }
  record(result.error);
  const { error } = result as { error?: { retryAfter?: unknown } };
  if (typeof error?.retryAfter === 'number') waits.push(error.retryAfter);
  return result;
}
