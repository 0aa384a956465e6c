/**
 * Linear-time error text: making a message out of any error body, however large or malformed,
 * costs time linear in its size. The pathological pages run in a child process, so a backtracking
 * parser would be killed there (the child's bound is a hang guard, not a speed target) instead of
 * freezing the test runner. The message keeps a bounded excerpt, and control characters and ANSI
 * escapes from the server are escaped, so a message cannot forge log lines.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  BadRequestError,
  Client,
  InternalServerError,
  NotFoundError,
} from '@employee-recognition/sdk';
import { runClientInChild } from '../../support/child-process.js';
import {
  checkNoLeaks,
  closeAllServers,
  errorBody,
  json,
  rejection,
  startHostileServer,
  startRawServer,
  USER,
} from '../../support/hostile-server.js';

const API_KEY = `rk_test_${'L1nearT1meText'.repeat(3)}`;
const KB = 1024;
/** The longest message the SDK may make from a server's text, URL and status included. */
const MESSAGE_BOUND = 2048;

checkNoLeaks();
afterEach(closeAllServers);

/** Error pages that make backtracking tag-stripping or title-finding regexes explode. */
const PATHOLOGICAL_PAGES: Record<string, (size: number) => string> = {
  "'<' characters": (size) => '<'.repeat(size),
  'nested unclosed tags': (size) => '<a'.repeat(size / 2),
  'unclosed <title> tags': (size) => '<title>'.repeat(size / 7),
  'unclosed comments': (size) => '<!--'.repeat(size / 4),
  'attributes without an end': (size) => `<div ${'a="<'.repeat(size / 4)}`,
  'whitespace between angle brackets': (size) => `<${' \t'.repeat(size / 2)}`,
  'an error body opened as JSON and never closed': (size) =>
    `{"error":{"message":"${'\\"<'.repeat(size / 3)}`,
  'JSON nested a hundred thousand deep': (size) => `{"error":${'['.repeat(size)}`,
};

/** Runs every pathological page of `size` in one child and checks each outcome. */
async function runPages(size: number) {
  const pages = Object.values(PATHOLOGICAL_PAGES).map((page) => page(size));
  const server = await startHostileServer((request, response) => {
    if (request.url.endsWith('/warm-up')) json(response, 200, { data: USER });
    else {
      response.writeHead(500, { 'content-type': 'text/html' });
      response.end(pages[Number(request.url.split('/').pop())]);
    }
  });
  const report = await runClientInChild({
    baseUrl: server.url,
    apiKey: API_KEY,
    options: { maxRetries: 0 },
    userIds: pages.map((_page, index) => String(index)),
  });
  const names = Object.keys(PATHOLOGICAL_PAGES);
  expect(report.outcomes).toHaveLength(pages.length);
  report.outcomes.forEach((outcome, index) => {
    expect({ page: names[index], ...outcome }).toMatchObject({
      page: names[index],
      resolved: false,
      sdkError: true,
      name: 'InternalServerError',
      status: 500,
    });
    expect(outcome.message!.length).toBeLessThanOrEqual(MESSAGE_BOUND);
  });
  return report;
}

describe('pathological error pages: the right ApiError, linear work (child process)', () => {
  it('every page at 150 KB and at 1.5 MB; ten times the text costs less than thirty times the CPU', async () => {
    const small = await runPages(150 * KB);
    const large = await runPages(1500 * KB);
    // Linear work would cost at most ten times as much, quadratic a hundred times: a generous
    // bound between the two, on CPU time (not wall time) of the child's calls alone.
    expect(large.cpuMicros).toBeLessThan(30 * small.cpuMicros);
  });
});

const FORGED = '2026-11-23T12:00:00Z INFO payment approved';
/** Server text that tries to forge a log line and recolour a terminal. */
const HOSTILE_TEXT = `denied\u001b[31m red\u001b[0m\r\n${FORGED}\n${FORGED}\u0000\u0007\u009b2J\u2028${FORGED}`;

function expectEscaped(message: string) {
  // Line feeds of the SDK's own may remain; no other control character, and no line separators.
  const controls = [...message].filter((char) => {
    const code = char.charCodeAt(0);
    return (code < 0x20 && char !== '\n') || (code >= 0x7f && code <= 0x9f) || code === 0x2028;
  });
  expect(controls).toEqual([]);
  // A forged line can only start at a line break that the server put there.
  expect(message.split(/\r?\n/).some((line) => line.startsWith(FORGED))).toBe(false);
  expect(message.length).toBeLessThanOrEqual(MESSAGE_BOUND);
}

describe('server text in a message: bounded, control characters and ANSI escapes escaped', () => {
  const client = (url: string) => new Client({ apiKey: API_KEY, baseUrl: url, maxRetries: 0 });

  it('in the message of a JSON error body', async () => {
    const server = await startHostileServer((_request, response) =>
      json(response, 404, errorBody('not_found', HOSTILE_TEXT)),
    );
    const error = await rejection(client(server.url).users.get('x'));
    expect(error).toBeInstanceOf(NotFoundError);
    expectEscaped((error as ApiError).message);
  });

  it('in the code and the details of a JSON error body', async () => {
    const server = await startHostileServer((_request, response) =>
      json(response, 400, {
        error: {
          code: HOSTILE_TEXT,
          message: 'bad',
          details: [{ field: HOSTILE_TEXT, message: HOSTILE_TEXT }],
        },
      }),
    );
    const error = await rejection(client(server.url).users.get('x'));
    expect(error).toBeInstanceOf(BadRequestError);
    expectEscaped((error as ApiError).message);
  });

  it('in a plain-text error page', async () => {
    const server = await startHostileServer((_request, response) => {
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(HOSTILE_TEXT);
    });
    const error = await rejection(client(server.url).users.get('x'));
    expect(error).toBeInstanceOf(InternalServerError);
    expectEscaped((error as ApiError).message);
  });

  it("in an HTML page's title", async () => {
    const server = await startHostileServer((_request, response) => {
      response.writeHead(503, { 'content-type': 'text/html' });
      response.end(`<html><head><title>${HOSTILE_TEXT}</title></head></html>`);
    });
    const error = await rejection(client(server.url).users.get('x'));
    expect(error).toBeInstanceOf(InternalServerError);
    expectEscaped((error as ApiError).message);
  });

  it('in the status text of a raw answer', async () => {
    const server = await startRawServer((socket) => {
      socket.end(
        `HTTP/1.1 500 Oops\u001b[31m red ${FORGED}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`,
      );
    });
    const error = await rejection(client(server.url).users.get('x'));
    expect(error).toBeInstanceOf(ApiError);
    expectEscaped((error as ApiError).message);
  });

  it('a 5 MB single-line message is cut to a bounded excerpt', async () => {
    const server = await startHostileServer((_request, response) =>
      json(response, 404, errorBody('not_found', 'x'.repeat(5 * KB * KB))),
    );
    const error = await rejection(client(server.url).users.get('x'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as ApiError).message.length).toBeLessThanOrEqual(MESSAGE_BOUND);
    expect((error as ApiError).message).toContain('xxxxxxxx');
  });

  it("in the SDK's own log lines, at debug, success and error alike", async () => {
    const server = await startHostileServer((request, response) => {
      if (request.url.includes('limit=1'))
        json(response, 200, {
          data: [],
          note: HOSTILE_TEXT,
          pagination: { page: 1, total_pages: 0, next_cursor: null },
        });
      else json(response, 404, errorBody('not_found', HOSTILE_TEXT), { 'x-request-id': 'req_1' });
    });
    const lines: string[] = [];
    const record = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
    const logged = new Client({
      apiKey: API_KEY,
      baseUrl: server.url,
      maxRetries: 0,
      logLevel: 'debug',
      logger: { debug: record, info: record, warn: record, error: record },
    });
    await logged.users.list({ limit: 1 });
    await rejection(logged.users.get('x'));
    // The debug lines quote the bodies: the server's text is there, escaped.
    expect(lines.filter((line) => line.includes('payment approved'))).toHaveLength(2);
    for (const line of lines) {
      expect(line).not.toContain('\u001b');
      expect(line).not.toContain('\r');
      expect(line).not.toContain('\n');
      expect(line).not.toContain('\u0000');
    }
  });
});
