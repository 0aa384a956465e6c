/**
 * The customer's own Redis client, used through the few methods the SDK needs. The SDK imports
 * neither node-redis nor ioredis and lists neither, not even as a peer: a peer range would break
 * installs for apps on another major. Both are typed here structurally and told apart at run time.
 */
import { createHash } from 'node:crypto';
import { later } from '../internal/timers.js';

/** The methods of a node-redis 4–6 client (or v4–6 cluster) the SDK calls. */
export interface NodeRedisClientLike {
  /** node-redis 4.6+: connected and ready. Older v4 clusters have only `isOpen`. */
  readonly isReady?: boolean | undefined;
  /** Connected (not necessarily ready): how node-redis and ioredis are told apart. */
  readonly isOpen: boolean;
  /** Runs a loaded script by its SHA-1. */
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  /** Runs a script sent whole, which also loads it. */
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** The methods of an ioredis 5–6 client (or `Cluster`) the SDK calls. */
export interface IoRedisClientLike {
  /** `'ready'` once connected and ready; `'connecting'`, `'reconnecting'`, `'end'` … otherwise. */
  readonly status: string;
  /** Runs a loaded script by its SHA-1. */
  evalsha(sha1: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  /** Runs a script sent whole, which also loads it. */
  eval(script: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
}

/** The few methods of a node-redis 4–6 or ioredis 5–6 client the SDK calls, typed structurally. */
export type RedisClientLike = NodeRedisClientLike | IoRedisClientLike;

/** A Lua script and its SHA-1, the name `EVALSHA` runs it by. */
export interface RedisScript {
  readonly lua: string;
  readonly sha1: string;
}

/** A script ready for {@link RedisAdapter.run}: its SHA-1 is computed once, here. */
export function defineScript(lua: string): RedisScript {
  return Object.freeze({ lua, sha1: createHash('sha1').update(lua).digest('hex') });
}

/** One way to run scripts on either client. */
export interface RedisAdapter {
  /** True when the client says it is connected and ready (node-redis isReady, ioredis status 'ready'). */
  readonly ready: boolean;
  /**
   * Runs a script by EVALSHA, falling back to EVAL on NOSCRIPT (even one that comes after
   * timeoutMs: what the script does still happens, its answer heard as late); rejects with
   * {@link RedisUnavailableError} when the client is not ready, fails, or a round trip takes
   * longer than timeoutMs. `observe` hears every answer with its round trip, an answer that came
   * after timeoutMs too (`late`): how long Redis takes, and what a question it gave up on did.
   */
  run(
    script: RedisScript,
    keys: string[],
    args: Array<string | number>,
    timeoutMs: number,
    observe?: AnswerObserver,
  ): Promise<unknown>;
}

/** Hears an answer of Redis: its value, its round trip in ms, and whether it came too late. */
export type AnswerObserver = (answer: unknown, roundTripMs: number, late: boolean) => void;

/** Why the adapter could not get an answer: not ready, too slow, or the client's own failure. */
export class RedisUnavailableError extends Error {
  override name = 'RedisUnavailableError';
}

/**
 * Wraps the customer's client. Throws a TypeError naming what is missing when `client` is
 * neither kind, so a wrong object fails at construction, not on the first call.
 */
export function redisAdapter(client: RedisClientLike): RedisAdapter {
  const candidate = client as Partial<IoRedisClientLike & NodeRedisClientLike> | null;
  if (typeof candidate?.evalsha === 'function' && typeof candidate.status === 'string') {
    return adapter(
      () => (client as IoRedisClientLike).status === 'ready',
      (useSha, script, keys, args) => {
        const io = client as IoRedisClientLike;
        return useSha
          ? io.evalsha(script.sha1, keys.length, ...keys, ...args)
          : io.eval(script.lua, keys.length, ...keys, ...args);
      },
    );
  }
  if (typeof candidate?.evalSha === 'function' && typeof candidate.isOpen === 'boolean') {
    return adapter(
      () => {
        const node = client as NodeRedisClientLike;
        // Clusters of node-redis 4 before 4.6 have no isReady: open is the best they say.
        return typeof node.isReady === 'boolean' ? node.isReady : node.isOpen;
      },
      (useSha, script, keys, args) => {
        const node = client as NodeRedisClientLike;
        const options = { keys, arguments: args };
        return useSha ? node.evalSha(script.sha1, options) : node.eval(script.lua, options);
      },
    );
  }
  throw new TypeError(
    'The Redis client must be a node-redis 4–6 client (with isOpen and evalSha) or an ioredis 5–6 client (with status and evalsha).',
  );
}

type Evaluate = (
  useSha: boolean,
  script: RedisScript,
  keys: string[],
  args: string[],
) => Promise<unknown>;

function adapter(ready: () => boolean, evaluate: Evaluate): RedisAdapter {
  return {
    get ready() {
      return ready();
    },
    run(script, keys, args, timeoutMs, observe) {
      // Both clients queue commands while disconnected: a script asked now would run late, on
      // reconnect, when its answer means nothing. So a client that is not ready is not asked.
      if (!ready()) {
        return Promise.reject(new RedisUnavailableError('the Redis client is not ready'));
      }
      const strings = args.map(String);
      const whole = (hear = observe) =>
        withTimeout(() => evaluate(false, script, keys, strings), timeoutMs, hear);
      // Each round trip gets the whole timeout: a server that has just restarted answers
      // NOSCRIPT, and the script sent whole is a second, longer trip.
      return withTimeout(
        () => evaluate(true, script, keys, strings),
        timeoutMs,
        observe,
        (late) => {
          // The caller gave up before Redis said it had forgotten the script: the script is sent
          // whole all the same, so that what it does still happens (a place freed; a place
          // granted is told to `observe` as late, which gives it back), and Redis loads it.
          if (!isNoScript(late)) return;
          whole(observe && ((answer, roundTripMs) => observe(answer, roundTripMs, true))).catch(
            () => {},
          );
        },
      ).catch((error: unknown) => {
        // A restarted or flushed server has forgotten the script: send it whole once.
        if (!isNoScript((error as Error).cause)) throw error;
        return whole();
      });
    },
  };
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

/**
 * The answer of `ask()`, or a rejection after `timeoutMs`; a late failure goes only to
 * `lateFailure`, and a late answer only to `observe`. The timer's end waits for the event loop's
 * I/O of that turn: when the process itself was busy past the timeout, Redis's answer may be
 * waiting unread, and it counts.
 */
function withTimeout(
  ask: () => Promise<unknown>,
  timeoutMs: number,
  observe: AnswerObserver | undefined,
  lateFailure?: (error: unknown) => void,
): Promise<unknown> {
  const asked = performance.now();
  const answer = ask();
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = later(
      () =>
        setImmediate(() => {
          if (settled) return;
          settled = true;
          reject(new RedisUnavailableError(`Redis did not answer within ${timeoutMs} ms`));
        }),
      timeoutMs,
    );
    answer.then(
      (value) => {
        clearTimeout(timer);
        observe?.(value, performance.now() - asked, settled);
        if (settled) return;
        settled = true;
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (settled) {
          lateFailure?.(error);
          return;
        }
        settled = true;
        reject(new RedisUnavailableError(`Redis failed: ${describe(error)}`, { cause: error }));
      },
    );
  });
}

/** The first line of an error's message, short: Redis replies quote no data of ours but keys. */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
