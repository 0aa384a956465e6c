/**
 * A real redis-server for tests: started on 127.0.0.1 at a free port, with no persistence, in a
 * temporary directory; stopped, and started again on the same port, whenever a test says.
 *
 * On a machine without redis-server the suites that need one skip, with one line saying how to
 * run them (install redis-server, or point REDIS_URL at a server); under CI=true a skip is a
 * failure, so CI always runs them. `describeRedis` does both. With REDIS_URL set, suites that
 * need only a server use it (give every test a key prefix of its own); suites that stop and
 * start the server (`describeRedis(name, body, { ownServer: true })`) still need redis-server.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import type { RedisClientLike } from '../../src/redis/client.js';

const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;
const START_ATTEMPTS = 5;
const READY = /Ready to accept connections/;
const IN_USE = /Address already in use/i;
// Runs redis-server and kills it when its stdin closes: when the test process dies without
// calling close() (a crash, a killed worker), its end of the pipe closes and the server goes too.
const WATCHDOG = `
const { spawn } = require('node:child_process');
const server = spawn(process.argv[1], process.argv.slice(2), { stdio: ['ignore', 'inherit', 'inherit'] });
process.stdin.on('close', () => server.kill('SIGKILL'));
process.stdin.resume();
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
process.on('SIGTERM', () => server.kill('SIGTERM'));
`;

/** Whether this machine can run redis-server, and if not, the line that says how to. */
const redisServerAvailable =
  spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

/** A server the customer points the tests at, instead of one of their own. */
const REDIS_URL = process.env.REDIS_URL || undefined;

/** The one line a skipped Redis suite prints. */
const REDIS_SKIP_MESSAGE =
  'Redis tests skipped: redis-server is not installed. Install it (Debian/Ubuntu: apt-get install -y redis-server) or set REDIS_URL to a server to run them; CI does.';

/** A server to test against: the test's own redis-server, or REDIS_URL's (which cannot be stopped). */
export interface RedisTarget {
  readonly url: string;
  /** The server, when it is the test's own; undefined for REDIS_URL. */
  readonly server: RedisServer | undefined;
  close(): Promise<void>;
}

/** Starts a redis-server of the test's own, or uses REDIS_URL when this machine has none. */
export async function redisTarget(): Promise<RedisTarget> {
  if (!redisServerAvailable && REDIS_URL) {
    return { url: REDIS_URL, server: undefined, close: async () => {} };
  }
  const server = await startRedisServer();
  return { url: server.url, server, close: () => server.close() };
}

/** A redis-server of a test's own. */
interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Whether the server is running now. */
  readonly running: boolean;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s); its data goes with it. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Stops it if running and removes its directory. */
  close(): Promise<void>;
}

/** Starts redis-server on 127.0.0.1 at a free port, without persistence, in a temporary dir. */
async function startRedisServer(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-redis-'));
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let port = 0;

  const launch = async (onPort: number): Promise<'ready' | 'in-use'> => {
    const args = [
      ...['--port', String(onPort), '--bind', '127.0.0.1', '--dir', dir],
      ...['--save', '', '--appendonly', 'no', '--protected-mode', 'no', '--loglevel', 'notice'],
    ];
    const started = spawn(process.execPath, ['-e', WATCHDOG, 'redis-server', ...args], {
      // Its own process group, so stop() reaches the watchdog and the server at once.
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child = started;
    exited = new Promise((resolve) => started.once('exit', () => resolve()));
    const log: string[] = [];
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        void stopProcess(started, exited);
        reject(
          new Error(`redis-server did not start within ${START_TIMEOUT_MS} ms:\n${log.join('')}`),
        );
      }, START_TIMEOUT_MS);
      const onData = (chunk: Buffer) => {
        const text = chunk.toString('utf8');
        log.push(text);
        if (READY.test(text)) {
          clearTimeout(timer);
          resolve('ready');
        }
      };
      started.stdout!.on('data', onData);
      started.stderr!.on('data', onData);
      started.once('exit', () => {
        clearTimeout(timer);
        if (IN_USE.test(log.join(''))) resolve('in-use');
        else reject(new Error(`redis-server exited before it was ready:\n${log.join('')}`));
      });
    });
  };

  // redis-server refuses --port 0: take a port the system calls free, and try another if
  // something else took it in between.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    if ((await launch(port)) === 'ready') break;
    if (attempt === START_ATTEMPTS) throw new Error('redis-server found no free port');
  }

  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    port,
    get running() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    async stop() {
      if (child) await stopProcess(child, exited);
    },
    async start() {
      if (server.running) return;
      // The same port, so the clients reconnect by themselves; wait while the old socket lingers.
      for (let attempt = 1; ; attempt++) {
        if ((await launch(port)) === 'ready') return;
        if (attempt === START_ATTEMPTS) throw new Error(`port ${port} stayed in use`);
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    },
    async close() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function stopProcess(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // Already gone.
    }
  };
  signal('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), STOP_TIMEOUT_MS);
  });
  const killed = await Promise.race([exited.then(() => false), late]);
  clearTimeout(timer);
  if (killed) {
    signal('SIGKILL');
    await exited;
  }
}

/**
 * A describe block for tests that need their own redis-server. Without one it skips, saying so
 * once; under CI=true it fails instead, so CI never passes without having run it.
 */
export function describeRedis(
  name: string,
  body: () => void,
  options: { ownServer?: boolean } = {},
): void {
  if (redisServerAvailable || (REDIS_URL && !options.ownServer)) {
    describe(name, body);
  } else if (process.env.CI === 'true') {
    describe(name, () => {
      it('has redis-server to run against (CI=true: a skip is a failure)', () => {
        throw new Error(REDIS_SKIP_MESSAGE);
      });
    });
  } else {
    skipNotice();
    describe.skip(name, body);
  }
}

let noticed = false;
function skipNotice(): void {
  if (noticed) return;
  noticed = true;
  process.stderr.write(`${REDIS_SKIP_MESSAGE}\n`);
}

/** A connected client of one of the libraries customers use, and how to close it. */
export interface TestRedisClient {
  /** Such as `node-redis 4` or `ioredis 6`. */
  readonly library: string;
  readonly client: RedisClientLike;
  /** Runs a plain command (for inspecting keys and TTLs), whichever library. */
  command(...args: string[]): Promise<unknown>;
  close(): Promise<void>;
}

/** The client libraries and majors the tests cover, each as the customer would create it. */
export const REDIS_LIBRARIES = ['node-redis 4', 'node-redis 6', 'ioredis 5', 'ioredis 6'] as const;
export type RedisLibrary = (typeof REDIS_LIBRARIES)[number];

/**
 * Connects a client of `library` to `url`, as its README shows, with an error listener (without
 * one node-redis and ioredis crash the process when the server goes away).
 */
export async function connectRedisClient(
  library: RedisLibrary,
  url: string,
): Promise<TestRedisClient> {
  // Reconnect quickly, so a test that restarts the server does not wait for the default backoff.
  const backoff = (retries: number) => Math.min(retries * 20, 200);
  switch (library) {
    case 'node-redis 4': {
      const { createClient } = await import('redis4');
      const client = createClient({ url, socket: { reconnectStrategy: backoff } });
      client.on('error', () => {});
      await client.connect();
      return {
        library,
        client,
        command: (...args) => client.sendCommand(args),
        close: async () => {
          if (client.isOpen) await client.disconnect();
        },
      };
    }
    case 'node-redis 6': {
      const { createClient } = await import('redis');
      const client = createClient({ url, socket: { reconnectStrategy: backoff } });
      client.on('error', () => {});
      await client.connect();
      return {
        library,
        client,
        command: (...args) => client.sendCommand(args),
        close: async () => {
          if (client.isOpen) client.destroy();
        },
      };
    }
    case 'ioredis 5': {
      const { Redis } = await import('ioredis');
      return ioredisClient(library, new Redis(url, { lazyConnect: true, retryStrategy: backoff }));
    }
    case 'ioredis 6': {
      const { Redis } = await import('ioredis6');
      return ioredisClient(library, new Redis(url, { lazyConnect: true, retryStrategy: backoff }));
    }
  }
}

interface IoRedisTestClient {
  on(event: 'error', listener: () => void): unknown;
  connect(): Promise<void>;
  call(command: string, ...args: string[]): Promise<unknown>;
  disconnect(): void;
}

async function ioredisClient(
  library: RedisLibrary,
  client: IoRedisTestClient & RedisClientLike,
): Promise<TestRedisClient> {
  client.on('error', () => {});
  await client.connect();
  return {
    library,
    client,
    command: (name, ...args) => client.call(name!, ...args),
    close: async () => {
      client.disconnect();
    },
  };
}
