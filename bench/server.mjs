/**
 * The benchmarks' API server: node:http on 127.0.0.1 with fixed JSON bodies, run in a child
 * process of its own (see `startServer`) so that its work lands on the second core and never in
 * the heap or CPU profile of the process being measured.
 *
 * Routes (each may sit under a `/s/{total}/{delayMs}` prefix that sets the list's length and a
 * delay before each answer; without it a list has 20 records and no delay):
 *   GET /v1/users/{id}         → { data: user }
 *   GET /v1/recognitions       → { data: recognition[], pagination } by `limit`, `page` or `cursor`
 *   POST /v1/recognitions      → 201 { data: recognition }
 * Under a `/limited` prefix every answer says its rate-limit window is spent (X-RateLimit-Remaining
 * 0) and resets in 50 s, so a client paced by the headers queues every later call.
 *   GET /bench/requests        → { requests } answered so far, this one left out
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

const uuid = (n) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

export const USER = {
  id: uuid(1),
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  role: 'member',
  status: 'active',
  team_id: uuid(900),
  points_balance: 1250,
  created_at: '2026-01-05T09:30:00Z',
};

function recognition(n) {
  return {
    id: uuid(10_000 + n),
    sender: { id: uuid(1), name: 'Ada Lovelace' },
    recipient: { id: uuid(2 + (n % 50)), name: `Colleague ${n % 50}` },
    message: `Thank you for the help with release ${n}: the migration went smoothly.`,
    points: 10 + (n % 90),
    created_at: '2026-11-20T14:05:00Z',
  };
}

const userBody = JSON.stringify({ data: USER });
const createdBody = JSON.stringify({ data: recognition(0) });
/** A list page's records as one JSON fragment, built once per (start, count). */
const fragments = new Map();
function records(start, count) {
  const key = `${start}:${count}`;
  let text = fragments.get(key);
  if (text === undefined) {
    text = Array.from({ length: count }, (_, i) => JSON.stringify(recognition(start + i))).join();
    // Pages repeat their records cyclically: 1,000 distinct fragments cover every benchmark.
    if (fragments.size < 1000) fragments.set(key, text);
  }
  return text;
}

/** A first page of `count` recognitions as the service sends it, for in-process benchmarks. */
export function recognitionsPage(count) {
  return listBody(new URLSearchParams({ limit: String(count) }), count);
}

function listBody(query, total) {
  const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 20)));
  const cursor = query.get('cursor');
  const pageParam = query.get('page');
  const page = cursor ? Number(cursor.slice(1)) : Number(pageParam ?? 1);
  const totalPages = Math.ceil(total / limit);
  const start = (page - 1) * limit;
  const count = Math.max(0, Math.min(limit, total - start));
  // Cursor mode (no `page` sent) gets cursors, as the service does; page mode gets page numbers.
  const nextCursor = pageParam === null ? (page < totalPages ? `c${page + 1}` : null) : undefined;
  const pagination = JSON.stringify({ page, total_pages: totalPages, next_cursor: nextCursor });
  return `{"data":[${records(start % 1000, count)}],"pagination":${pagination}}`;
}

// Within the SDK's 60 s cap on a wait for the window, with room for a slow measurement.
const LIMITED_RESET_S = 50;
let answered = 0;

function handle(request, response) {
  request.resume();
  const url = new URL(request.url, 'http://127.0.0.1');
  let path = url.pathname;
  let total = 20;
  let delay = 0;
  const headers = { 'content-type': 'application/json', 'x-request-id': 'req_bench' };
  if (path === '/bench/requests') {
    response.writeHead(200, headers).end(JSON.stringify({ requests: answered }));
    return;
  }
  answered++;
  if (path.startsWith('/limited/')) {
    path = path.slice('/limited'.length);
    Object.assign(headers, {
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + LIMITED_RESET_S),
    });
  }
  const prefix = /^\/s\/(\d+)\/(\d+)(\/.*)$/.exec(path);
  if (prefix) {
    total = Number(prefix[1]);
    delay = Number(prefix[2]);
    path = prefix[3];
  }
  let status = 200;
  let body;
  if (path.startsWith('/v1/users/')) body = userBody;
  else if (path === '/v1/recognitions' && request.method === 'POST') {
    status = 201;
    body = createdBody;
  } else if (path === '/v1/recognitions') body = listBody(url.searchParams, total);
  else {
    status = 404;
    body = '{"error":{"code":"not_found","message":"No such route"}}';
  }
  const send = () => {
    response.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body) });
    response.end(body);
  };
  if (delay > 0) setTimeout(send, delay);
  else send();
}

/** Starts the server in a child process; resolves to its address and a `stop()`. */
export function startServer() {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    child.once('message', ({ port }) => {
      child.removeAllListeners('exit');
      resolve({
        url: `http://127.0.0.1:${port}`,
        stop: () =>
          new Promise((done) => {
            child.once('exit', done);
            child.kill();
          }),
      });
    });
  });
}

if (process.argv.includes('--serve')) {
  const server = createServer({ keepAliveTimeout: 60_000 }, handle);
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  // Never outlive the benchmark: the IPC channel closes when the parent exits, however it exits.
  process.on('disconnect', () => process.exit(0));
}
