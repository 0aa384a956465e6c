/**
 * Hostile servers for the hostile suite: real node:http and node:net servers on 127.0.0.1 that a
 * test scripts by hand, plus the tools to watch what the client does against them: a fake clock
 * that records every delay the SDK schedules, a fetch that knows when a request is on the wire,
 * compression bombs made on the fly, and a scan of every rendering of an error for secrets.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { inspect } from 'node:util';
import { constants, createBrotliCompress, createDeflate, createGzip } from 'node:zlib';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import {
  Client,
  type ClientOptions,
  EmployeeRecognitionError,
  RateLimitError,
} from '@employee-recognition/sdk';
import { renderings } from './secrets.js';

/** A request as the server saw it, body included. */
export interface SeenRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  /** Every header line as sent: name, value, name, value… */
  rawHeaders: string[];
  body: string;
}

export type Handler = (
  request: SeenRequest,
  response: ServerResponse,
  index: number,
  incoming: IncomingMessage,
) => void;

export interface HostileServer {
  /** `http://127.0.0.1:<port>`: a distinct origin per server. */
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

const open = new Set<{ close(): Promise<void> }>();

/** Closes every server the test started, with its connections; for `afterEach`. */
export async function closeAllServers(): Promise<void> {
  const servers = [...open];
  open.clear();
  await Promise.all(servers.map((server) => server.close()));
}

const OUR_RESOURCES = ['Timeout', 'TCPSocketWrap', 'TCPServerWrap', 'ProcessWrap', 'PipeWrap'];
const countOpen = () =>
  process.getActiveResourcesInfo().filter((kind) => OUR_RESOURCES.includes(kind)).length;

/**
 * Registers the suite's leak check: after the file, no server, socket, timer or child process it
 * opened is left, and no promise rejection went unhandled.
 */
export function checkNoLeaks(): void {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  let openBefore = 0;
  beforeAll(() => {
    openBefore = countOpen();
    process.on('unhandledRejection', onUnhandled);
  });
  afterAll(async () => {
    await closeAllServers();
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
    // Closed sockets and exited children need a few turns of the event loop to be torn down.
    for (let turn = 0; turn < 50 && countOpen() > openBefore; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const left = process.getActiveResourcesInfo().filter((kind) => OUR_RESOURCES.includes(kind));
    expect(left.length, `open after the file: ${left.join(', ')}`).toBeLessThanOrEqual(openBefore);
  });
}

/** A node:http server on 127.0.0.1 whose every answer the test writes by hand. */
export async function startHostileServer(handle: Handler): Promise<HostileServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const seen: SeenRequest = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        rawHeaders: incoming.rawHeaders,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      handle(seen, response, requests.length - 1, incoming);
    });
  });
  // A client may reuse a kept-alive socket from an earlier test: never let that hold a close.
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const handleClose = {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  open.add(handleClose);
  return { url: `http://127.0.0.1:${port}`, requests, close: handleClose.close };
}

/** A node:net server whose answer is raw bytes: status lines and framing no HTTP library would write. */
export async function startRawServer(
  answer: (socket: Socket, head: string) => void,
): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const requests: SeenRequest[] = [];
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.off('data', onData);
      const [requestLine = '', ...lines] = head.slice(0, end).split('\r\n');
      const [method = '', url = ''] = requestLine.split(' ');
      const rawHeaders = lines.flatMap((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon), line.slice(colon + 1).trim()];
      });
      requests.push({ method, url, headers: {}, rawHeaders, body: '' });
      answer(socket, head);
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const handleClose = {
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  open.add(handleClose);
  return { url: `http://127.0.0.1:${port}`, requests, close: handleClose.close };
}

/** Every value a header arrived with, over all its lines, whatever the case of its name. */
export function headerValues(request: SeenRequest, name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    if (request.rawHeaders[i]!.toLowerCase() === name.toLowerCase()) {
      values.push(request.rawHeaders[i + 1]!);
    }
  }
  return values;
}

/**
 * Resolves when the client stops the download: the answer closed before the server finished
 * writing it. A server whose body was read to the end never resolves this (the test's timeout
 * then reports it).
 */
export function cancelledByClient(response: ServerResponse | Socket): Promise<void> {
  return new Promise((resolve) => {
    response.once('close', () => {
      const finished = 'writableFinished' in response ? response.writableFinished : false;
      if (!finished) resolve();
    });
  });
}

export type BombEncoding = 'gzip' | 'deflate' | 'br';

const ZEROS = Buffer.alloc(64 * 1024);

/** `total` bytes of zeros (endless when Infinity), made only as fast as the reader takes them. */
export function zeros(total: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) {
        this.push(null);
        return;
      }
      const size = Math.min(ZEROS.length, total - sent);
      sent += size;
      this.push(size === ZEROS.length ? ZEROS : ZEROS.subarray(0, size));
    },
  });
}

/**
 * A compression bomb built on the fly: `total` bytes of zeros through node:zlib, so a few
 * kilobytes on the wire inflate to `total` bytes. Stops compressing when the client hangs up.
 */
export function sendBomb(
  response: ServerResponse,
  status: number,
  encoding: BombEncoding,
  total: number,
): void {
  const compressor =
    encoding === 'gzip'
      ? createGzip({ level: 1 })
      : encoding === 'deflate'
        ? createDeflate({ level: 1 })
        : createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
  response.writeHead(status, { 'content-type': 'application/json', 'content-encoding': encoding });
  const source = zeros(total);
  source.pipe(compressor).pipe(response);
  response.once('close', () => {
    source.destroy();
    compressor.destroy();
  });
}

/** An endless chunked body: `{"data":[` then filler, for as long as the client reads. */
export function sendEndless(response: ServerResponse, status: number): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.write('{"data":["');
  const source = zeros(Infinity);
  source.pipe(response);
  response.once('close', () => source.destroy());
}

/** Writes a JSON answer. */
export function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
}

export const USER = {
  id: '1f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
  name: 'Ada Lovelace',
  email: 'ada@example.test',
  role: 'admin',
  status: 'active',
  team_id: null,
  points_balance: 10,
  created_at: '2026-11-21T09:30:00Z',
};

export const RECOGNITION = {
  id: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
  sender: { id: USER.id, name: USER.name },
  recipient: { id: '2f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f', name: 'Alan Turing' },
  message: 'Thanks',
  points: 10,
  created_at: '2026-11-21T09:30:00Z',
};

export const EMPTY_PAGE = { data: [], pagination: { page: 1, total_pages: 0, next_cursor: null } };

/** A well-formed error body of the contract. */
export function errorBody(code: string, message: string) {
  return { error: { code, message } };
}

/** The error a rejected promise carries, or fails the test when it resolves. */
export async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** The error a function throws, or fails the test when it returns. */
export function thrownBy(make: () => unknown): unknown {
  try {
    make();
  } catch (error) {
    return error;
  }
  throw new Error('expected it to throw, but it returned');
}

/** The SDK's promise of the "every failure is typed" rule: nothing raw reaches the caller. */
export function expectTyped(error: unknown): asserts error is EmployeeRecognitionError {
  if (!(error instanceof EmployeeRecognitionError)) {
    throw new Error(`expected an EmployeeRecognitionError, got ${inspect(error)}`);
  }
}

/** Every text an error can be turned into, including every header it keeps. */
function everyRendering(error: unknown): string[] {
  const texts = [
    ...renderings(error),
    String(error),
    inspect(error, { depth: 5 }),
    inspect(error, { depth: 5, showHidden: true }),
  ];
  const headers = (error as { headers?: unknown }).headers;
  if (headers instanceof Headers) {
    for (const [name, value] of headers) texts.push(`${name}: ${value}`);
  } else if (headers && typeof headers === 'object') {
    for (const [name, value] of Object.entries(headers)) texts.push(`${name}: ${String(value)}`);
  }
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined) texts.push(inspect(cause, { depth: 5 }));
  return texts;
}

/** Asserts that no rendering of the error shows any of the secrets, whole or by its tail. */
export function expectNotShown(error: unknown, secrets: readonly string[]): void {
  for (const text of everyRendering(error)) {
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      if (secret.length > 16) expect(text).not.toContain(secret.slice(-12));
    }
  }
}

/**
 * A fetch over the real network that counts requests on the wire and reads each body to the end
 * before handing the answer on, so "nothing on the wire" is a fact the fake clock can wait for.
 * Only for small bodies.
 */
function wireFetch() {
  let inFlight = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    inFlight++;
    try {
      const response = await globalThis.fetch(input, init);
      const body = await response.arrayBuffer();
      const copy = new Response([101, 204, 205, 304].includes(response.status) ? null : body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
      Object.defineProperty(copy, 'url', { value: response.url });
      return copy;
    } finally {
      inFlight--;
    }
  };
  return { fetch, idle: () => inFlight === 0 };
}

export interface Driven<T> {
  settled: boolean;
  value?: T;
  error?: unknown;
  /** Every delay passed to setTimeout while the call ran, in ms. */
  delays: number[];
  /** Fake milliseconds that passed. */
  elapsed: number;
  /** Timers the driver fired one after the other. */
  steps: number;
}

/**
 * Runs a call against a real server under a fake clock (setTimeout, setInterval, Date; never
 * setImmediate or I/O). While a request is on the wire the clock stands still; when the client is
 * idle, it jumps to the next timer. Every delay the SDK schedules is recorded, so a test asserts
 * the waits without waiting them. Gives up after `maxSteps` jumps: an unbounded chain of timers
 * (a spinning wait) ends the drive unsettled.
 */
async function driveWithFakeClock<T>(
  start: () => PromiseLike<T>,
  idle: () => boolean,
  maxSteps = 30,
): Promise<Driven<T>> {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    shouldAdvanceTime: false,
  });
  const delays: number[] = [];
  const fakeSetTimeout = globalThis.setTimeout;
  const recording = ((callback: () => void, ms?: number, ...args: unknown[]) => {
    delays.push(Number(ms ?? 0));
    return fakeSetTimeout(callback, ms, ...args);
  }) as typeof setTimeout;
  globalThis.setTimeout = recording;
  // AbortSignal.timeout runs on Node's own timers, out of a fake clock's reach: stand one in.
  const realAbortTimeout = AbortSignal.timeout;
  AbortSignal.timeout = (ms: number) => {
    const controller = new AbortController();
    recording(
      () => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')),
      ms,
    );
    return controller.signal;
  };
  const startedAt = Date.now();
  const result: Driven<T> = { settled: false, delays, elapsed: 0, steps: 0 };
  const call = Promise.resolve()
    .then(start)
    .then(
      (value) => Object.assign(result, { settled: true, value }),
      (error: unknown) => Object.assign(result, { settled: true, error }),
    );
  try {
    let quietTurns = 0;
    while (!result.settled) {
      await new Promise((resolve) => setImmediate(resolve));
      if (!idle()) {
        quietTurns = 0;
        continue;
      }
      // Let the client finish what it does between a response and its next timer.
      if (++quietTurns < 20) continue;
      quietTurns = 0;
      if (vi.getTimerCount() === 0 || result.steps >= maxSteps) break;
      vi.advanceTimersToNextTimer();
      result.steps++;
    }
  } finally {
    result.elapsed = Date.now() - startedAt;
    globalThis.setTimeout = fakeSetTimeout;
    AbortSignal.timeout = realAbortTimeout;
    vi.clearAllTimers();
    vi.useRealTimers();
  }
  void call;
  return result;
}

/**
 * Runs `call` on a fresh client of `server` under the fake clock, its requests going through
 * {@link wireFetch}. `new Client()` runs outside the drive: a bad option throws to the test.
 */
export function driveClient<T>(
  server: HostileServer,
  options: ClientOptions,
  call: (client: Client) => PromiseLike<T>,
): Promise<Driven<T>> {
  const wire = wireFetch();
  const client = new Client({ baseUrl: server.url, fetch: wire.fetch, ...options });
  return driveWithFakeClock(() => call(client), wire.idle);
}

/** The longest single wait the SDK may schedule. */
export const WAIT_CAP_MS = 60_000;

/**
 * What holds whatever a server says or a caller passes: the call ended, in a result or an
 * EmployeeRecognitionError (a RateLimitError's `retryAfter` finite and ≥ 0), and every delay it
 * scheduled but the attempt timeouts (`timeout`) was within the wait cap.
 */
export function expectEndedWithinCap(driven: Driven<unknown>, timeout: number): void {
  expect(driven.settled).toBe(true);
  if (driven.error !== undefined) {
    expectTyped(driven.error);
    if (driven.error instanceof RateLimitError && driven.error.retryAfter !== undefined) {
      expect(Number.isFinite(driven.error.retryAfter)).toBe(true);
      expect(driven.error.retryAfter).toBeGreaterThanOrEqual(0);
    }
  }
  for (const delay of driven.delays) {
    expect(delay).toBeGreaterThanOrEqual(0);
    if (delay !== timeout) expect(delay).toBeLessThanOrEqual(WAIT_CAP_MS);
  }
}
