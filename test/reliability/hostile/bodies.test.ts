/**
 * Bounded bodies: whatever a server sends, success or error, the client reads at most
 * `maxResponseBytes` of it (counted after decompression), then cancels the download and fails
 * with a ResponseTooLargeError naming the cap. The cases that could exhaust memory run in a child
 * process whose peak is measured.
 *
 * Time: 31 s of a full run on two shared cores: the bombs (256 MiB of gzip, brotli and deflate,
 * an endless chunked body) are decompressed for real up to the cap, each in a child process
 * whose memory peak is the point. A smaller bomb would not show memory the cap failed to bound.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiTimeoutError, Client, ResponseTooLargeError } from '@employee-recognition/sdk';
import { type ChildReport, runClientInChild } from '../../support/child-process.js';
import {
  type BombEncoding,
  cancelledByClient,
  checkNoLeaks,
  closeAllServers,
  EMPTY_PAGE,
  expectTyped,
  json,
  rejection,
  sendBomb,
  sendEndless,
  startHostileServer,
  startRawServer,
  USER,
  zeros,
} from '../../support/hostile-server.js';

const API_KEY = `rk_test_${'B0undedB0dies'.repeat(3)}`;
const MiB = 1024 * 1024;
const CAP = MiB;
/** Far beyond the cap: a client that read it all would hold hundreds of MiB. */
const BOMB_SIZE = 256 * MiB;
const ENCODINGS: BombEncoding[] = ['gzip', 'deflate', 'br'];

checkNoLeaks();
afterEach(closeAllServers);

function client(url: string, options: Record<string, unknown> = {}) {
  return new Client({
    apiKey: API_KEY,
    baseUrl: url,
    maxRetries: 0,
    maxResponseBytes: CAP,
    ...options,
  });
}

function expectTooLarge(error: unknown, limit: number, status: number) {
  expect(error).toBeInstanceOf(ResponseTooLargeError);
  const tooLarge = error as ResponseTooLargeError;
  expect(tooLarge.limit).toBe(limit);
  expect(tooLarge.status).toBe(status);
  expect(tooLarge.method).toBe('GET');
  expect(tooLarge.url).toContain('/v1/users');
  // Names the cap, in bytes or MiB, so the caller knows which option to raise.
  const mib = `${limit / MiB} MiB`;
  expect(
    tooLarge.message.includes(String(limit)) ||
      tooLarge.message.includes(limit.toLocaleString('en-US')) ||
      tooLarge.message.includes(mib),
  ).toBe(true);
}

describe('a body past maxResponseBytes fails with ResponseTooLargeError and is cancelled', () => {
  for (const status of [200, 500]) {
    for (const encoding of ENCODINGS) {
      it(`${encoding} bomb in a ${status}: cancelled after the cap`, async () => {
        let cancelled: Promise<void> | undefined;
        const server = await startHostileServer((_request, response) => {
          cancelled = cancelledByClient(response);
          sendBomb(response, status, encoding, BOMB_SIZE);
        });
        const error = await rejection(client(server.url).users.list());
        expectTooLarge(error, CAP, status);
        await cancelled;
      });
    }

    it(`endless chunked body in a ${status}: cancelled after the cap`, async () => {
      let cancelled: Promise<void> | undefined;
      const server = await startHostileServer((_request, response) => {
        cancelled = cancelledByClient(response);
        sendEndless(response, status);
      });
      const error = await rejection(client(server.url).users.list());
      expectTooLarge(error, CAP, status);
      await cancelled;
    });

    it(`huge body without Content-Length, ended by closing, in a ${status}`, async () => {
      let cancelled: Promise<void> | undefined;
      const server = await startRawServer((socket) => {
        cancelled = cancelledByClient(socket);
        socket.write(
          `HTTP/1.1 ${status} Whatever\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n`,
        );
        zeros(BOMB_SIZE).pipe(socket);
      });
      const error = await rejection(client(server.url).users.list());
      expectTooLarge(error, CAP, status);
      await cancelled;
    });
  }

  it('a Content-Length of 10 GiB: fails without reading it all', async () => {
    let cancelled: Promise<void> | undefined;
    const server = await startRawServer((socket) => {
      cancelled = cancelledByClient(socket);
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${10 * 1024 * MiB}\r\n\r\n`,
      );
      zeros(BOMB_SIZE).pipe(socket);
    });
    const error = await rejection(client(server.url).users.list());
    expectTooLarge(error, CAP, 200);
    await cancelled;
  });

  it('the default cap is 8 MiB', async () => {
    let cancelled: Promise<void> | undefined;
    const server = await startHostileServer((_request, response) => {
      cancelled = cancelledByClient(response);
      sendEndless(response, 200);
    });
    const plain = new Client({ apiKey: API_KEY, baseUrl: server.url, maxRetries: 0 });
    expectTooLarge(await rejection(plain.users.list()), 8 * MiB, 200);
    await cancelled;
  });

  it('the cap counts decompressed bytes: a small gzip body just under it is read, just over it is not', async () => {
    const page = JSON.stringify(EMPTY_PAGE);
    const padded = (size: number) => page.slice(0, -1) + ' '.repeat(size - page.length) + '}';
    const { gzipSync } = await import('node:zlib');
    const server = await startHostileServer((request, response) => {
      const size = request.url.includes('limit=2') ? CAP + 1 : CAP;
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(gzipSync(padded(size)));
    });
    const under = await client(server.url).users.list({ limit: 1 });
    expect(under.data).toEqual([]);
    expectTooLarge(await rejection(client(server.url).users.list({ limit: 2 })), CAP, 200);
  });

  it('corrupt compressed data and an unknown encoding: a typed error or the text, never a crash', async () => {
    const server = await startHostileServer((request, response) => {
      const encoding = request.url.includes('limit=1') ? 'gzip' : 'x-unknown';
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      response.end(Buffer.from('1f8b0800000000000003ffffffff', 'hex'));
    });
    for (const limit of [1, 2]) {
      expectTyped(await rejection(client(server.url).users.list({ limit })));
    }
  });

  it('a bomb compressed twice (Content-Encoding: gzip, gzip): still cut at the cap', async () => {
    const { gzipSync } = await import('node:zlib');
    // 64 MiB of zeros, gzipped twice: about 200 bytes on the wire.
    const twice = gzipSync(gzipSync(Buffer.alloc(64 * MiB), { level: 9 }), { level: 9 });
    const server = await startHostileServer((_request, response) => {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip, gzip',
      });
      response.end(twice);
    });
    expectTooLarge(await rejection(client(server.url).users.list()), CAP, 200);
  });

  it('a 200 whose JSON nests deeper than any stack: typed, never a RangeError', async () => {
    const depth = 500_000;
    const bodies = [
      '['.repeat(depth) + ']'.repeat(depth),
      `{"data":[${'['.repeat(depth)}${']'.repeat(depth)}],"pagination":{"page":1,"total_pages":1,"next_cursor":null}}`,
      `{"data":[],"pagination":${'{"a":'.repeat(depth / 5)}1${'}'.repeat(depth / 5)}}`,
    ];
    const server = await startHostileServer((request, response) =>
      json(
        response,
        200,
        bodies[Number(new URL(request.url, 'http://x').searchParams.get('page')) - 1]!,
      ),
    );
    for (const page of [1, 2, 3]) {
      const outcome = await client(server.url, { maxResponseBytes: 8 * MiB })
        .users.list({ page })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      if (outcome !== undefined) expectTyped(outcome);
    }
  });

  it('a body at the cap on a retried error: each attempt fails alike, none reads past the cap', async () => {
    const server = await startHostileServer((_request, response) => sendEndless(response, 503));
    const error = await rejection(client(server.url, { maxRetries: 1 }).users.list());
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(server.requests.length).toBeLessThanOrEqual(2);
  });
});

describe('memory stays within a small multiple of the cap (child process, peak measured)', () => {
  /**
   * Peak growth of the child's JS heap plus Buffers over its warmed-up baseline, each sample
   * taken after a full collection: what the SDK holds, whenever V8 would have collected
   * (measured 1.5 to 2.3 MiB with a 1 MiB cap on Node 20, 22 and 24).
   */
  const HELD_BOUND = 4 * CAP;
  /**
   * Peak growth of its resident memory: what kills a process. Looser, as the allocator keeps
   * freed pages a while (measured 1 to 26 MiB with a 1 MiB cap; 790 MiB when the cap is 300 MiB).
   */
  const RESIDENT_BOUND = 64 * CAP;

  function expectWithinBounds(report: ChildReport) {
    expect(report.peakHeapAndBuffersGrowth).toBeLessThan(HELD_BOUND);
    expect(report.peakRssGrowth).toBeLessThan(RESIDENT_BOUND);
  }

  async function measure(send: Parameters<typeof startHostileServer>[0]) {
    const server = await startHostileServer((request, response, index, incoming) => {
      if (request.url.endsWith('/warm-up')) json(response, 200, { data: USER });
      else send(request, response, index, incoming);
    });
    return runClientInChild({
      baseUrl: server.url,
      apiKey: API_KEY,
      options: { maxRetries: 0, maxResponseBytes: CAP },
      userIds: ['hostile'],
      liveMemory: true,
    });
  }

  for (const encoding of ENCODINGS) {
    it(`${encoding} bomb of 256 MiB`, async () => {
      const report = await measure((_request, response) =>
        sendBomb(response, 200, encoding, BOMB_SIZE),
      );
      expect(report.outcomes[0]).toMatchObject({
        resolved: false,
        name: 'ResponseTooLargeError',
        limit: CAP,
      });
      expectWithinBounds(report);
    });
  }

  it('gzip bomb as an error answer (500)', async () => {
    const report = await measure((_request, response) =>
      sendBomb(response, 500, 'gzip', BOMB_SIZE),
    );
    expect(report.outcomes[0]).toMatchObject({
      resolved: false,
      name: 'ResponseTooLargeError',
      status: 500,
    });
    expectWithinBounds(report);
  });

  it('endless chunked body', async () => {
    const report = await measure((_request, response) => sendEndless(response, 200));
    expect(report.outcomes[0]).toMatchObject({
      resolved: false,
      name: 'ResponseTooLargeError',
      limit: CAP,
    });
    expectWithinBounds(report);
  });
});

describe('heads and trickles: bounded too', () => {
  /** Writes `text` one byte every 20 ms until it is done or the client hangs up. */
  function trickle(socket: ServerResponse | Socket, text: string) {
    let at = 0;
    const timer = setInterval(() => {
      if (at >= text.length) clearInterval(timer);
      else socket.write(text[at++]!);
    }, 20);
    timer.unref();
    socket.once('close', () => clearInterval(timer));
  }

  it('a body trickled a byte at a time, forever: ApiTimeoutError on the attempt budget', async () => {
    const server = await startHostileServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      trickle(response, `{"data":[${' '.repeat(100_000)}`);
    });
    const error = await rejection(client(server.url, { timeout: 300 }).users.list());
    expect(error).toBeInstanceOf(ApiTimeoutError);
  });

  it('a status line and headers trickled a byte at a time: ApiTimeoutError', async () => {
    const server = await startRawServer((socket) =>
      trickle(socket, `HTTP/1.1 200 OK\r\n${'x-pad: 1\r\n'.repeat(10_000)}`),
    );
    const error = await rejection(client(server.url, { timeout: 300 }).users.list());
    expect(error).toBeInstanceOf(ApiTimeoutError);
  });

  it('a megabyte of headers: typed', async () => {
    const server = await startRawServer((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nx-huge: ${'a'.repeat(1024 * 1024)}\r\n`);
      socket.end(`${'x-many: 1\r\n'.repeat(20_000)}content-length: 2\r\n\r\n{}`);
    });
    expectTyped(await rejection(client(server.url).users.list()));
  });

  it('a thousand 103 Early Hints before the answer: a result or a typed error', async () => {
    const server = await startRawServer((socket) => {
      socket.write('HTTP/1.1 103 Early Hints\r\nlink: </a>; rel=preload\r\n\r\n'.repeat(1000));
      const body = JSON.stringify(EMPTY_PAGE);
      socket.end(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
      );
    });
    const outcome = await client(server.url)
      .users.list()
      .then(
        (page) => page.data,
        (error: unknown) => error,
      );
    if (!Array.isArray(outcome)) expectTyped(outcome);
  });
});
