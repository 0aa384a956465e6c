/**
 * Pagination always ends. A server that repeats a cursor, cycles through cursors, or ignores
 * `page` ends a `for await` loop with an InvalidResponseError after the first repeat, instead of
 * fetching forever.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Client, InvalidResponseError, type User } from '@employee-recognition/sdk';
import {
  checkNoLeaks,
  closeAllServers,
  json,
  startHostileServer,
  USER,
} from '../../support/hostile-server.js';

const API_KEY = `rk_test_${'Pag1nationEnds'.repeat(2)}`;

checkNoLeaks();
afterEach(closeAllServers);

/** A page of one user whose pagination the test writes. */
function page(index: number, pagination: Record<string, unknown>) {
  const id = `${String(index).padStart(8, '0')}-4b5a-4c6d-8e7f-9a0b1c2d3e4f`;
  return { data: [{ ...USER, id }], pagination };
}

/** Iterates the whole list: what was read, and the error it ended with, if any. */
async function readAll(url: string, params: Record<string, unknown> = {}) {
  const client = new Client({ apiKey: API_KEY, baseUrl: url, maxRetries: 0 });
  const seen: User[] = [];
  try {
    for await (const user of client.users.list(params)) seen.push(user);
    return { seen, error: undefined };
  } catch (error) {
    return { seen, error };
  }
}

describe('a list that does not advance ends with InvalidResponseError after the first repeat', () => {
  it('the same next_cursor on every page', async () => {
    const server = await startHostileServer((request, response, index) =>
      json(response, 200, page(index, { page: 1, total_pages: 9, next_cursor: 'again' })),
    );
    const { error, seen } = await readAll(server.url);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(server.requests.length).toBeLessThanOrEqual(3);
    expect(seen.length).toBeLessThanOrEqual(2);
  });

  it('cursors that cycle: a, b, a', async () => {
    const server = await startHostileServer((_request, response, index) =>
      json(
        response,
        200,
        page(index, { page: 1, total_pages: 9, next_cursor: ['a', 'b'][index % 2] }),
      ),
    );
    const { error } = await readAll(server.url);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(server.requests.length).toBeLessThanOrEqual(4);
  });

  it('a server that ignores `page`: always page 1 of 5', async () => {
    const server = await startHostileServer((_request, response, index) =>
      json(response, 200, page(index, { page: 1, total_pages: 5, next_cursor: null })),
    );
    const { error } = await readAll(server.url, { page: 1 });
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(server.requests.length).toBeLessThanOrEqual(3);
    expect(server.requests[1]?.url).toContain('page=2');
  });

  it('a page number that goes backwards', async () => {
    const server = await startHostileServer((request, response, index) => {
      const asked = Number(new URL(request.url, 'http://x').searchParams.get('page') ?? 1);
      json(
        response,
        200,
        page(index, { page: Math.max(1, asked - 1), total_pages: 50, next_cursor: null }),
      );
    });
    const { error } = await readAll(server.url, { page: 1 });
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(server.requests.length).toBeLessThanOrEqual(3);
  });

  it('total_pages of 1e308 with real progress still reads every page it is given, then ends', async () => {
    const server = await startHostileServer((request, response, index) => {
      const asked = Number(new URL(request.url, 'http://x').searchParams.get('page') ?? 1);
      // Three real pages, then an empty one: the end, whatever total_pages claims.
      const body = page(index, { page: asked, total_pages: 1e308, next_cursor: null });
      json(response, 200, asked > 3 ? { ...body, data: [] } : body);
    });
    const { error, seen } = await readAll(server.url, { page: 1 });
    // Either the loop ends normally after the empty page, or it refuses the absurd total; never more.
    expect(server.requests.length).toBeLessThanOrEqual(4);
    if (!(error instanceof InvalidResponseError)) expect(seen).toHaveLength(3);
  });
});
