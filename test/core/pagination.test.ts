import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import {
  EmployeeRecognitionError,
  InternalServerError,
  InvalidResponseError,
  Page,
} from '../../src/index.js';
import {
  json,
  queryOf,
  records,
  TEST_API_KEY,
  TEST_BASE_URL,
  testClient,
  UUID,
  useMockServer,
} from '../resources/support.js';

const { server, requests } = useMockServer();
const client = testClient();
const RECOGNITIONS = `${TEST_BASE_URL}/v1/recognitions`;
const waitOptions = { timeout: 1000, interval: 1 };

const recognition = (index: number) => records.recognition({ message: `#${index}` });

/**
 * Serves `total` recognitions as the contract pages them: by page number when the request has
 * `page`, by cursor otherwise. `hold(page)` can delay an answer, e.g. until the request aborts.
 */
function serveRecognitions(
  total: number,
  hold?: (page: number, request: Request) => Promise<void>,
) {
  server.use(
    http.get(RECOGNITIONS, async ({ request }) => {
      const query = new URL(request.url).searchParams;
      const limit = Number(query.get('limit') ?? 20);
      const cursor = query.get('cursor');
      const pageMode = query.has('page');
      const offset = pageMode
        ? (Number(query.get('page')) - 1) * limit
        : Number(cursor?.slice(1) ?? 0);
      const page = Math.floor(offset / limit) + 1;
      await hold?.(page, request);
      const end = Math.min(offset + limit, total);
      const data = Array.from({ length: Math.max(end - offset, 0) }, (_, i) =>
        recognition(offset + i),
      );
      return json({
        data,
        pagination: {
          page,
          total_pages: Math.ceil(total / limit),
          // Page-mode answers carry a null cursor, which must not end a page-mode list.
          next_cursor: !pageMode && end < total ? `c${end}` : null,
        },
      });
    }),
  );
}

/** Resolves once `request` is aborted: a page that never comes unless the client gives up. */
function untilAborted(request: Request, aborted: number[], page: number): Promise<void> {
  return new Promise((resolve) =>
    request.signal.addEventListener('abort', () => {
      aborted.push(page);
      resolve();
    }),
  );
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

const messages = (items: { message: string }[]) => items.map((item) => item.message);

describe('iterating a list', () => {
  it('page mode: follows page numbers up to total_pages, yielding every record once, in order', async () => {
    serveRecognitions(5);
    const items = await collect(client.recognitions.list({ page: 1, limit: 2 }));
    expect(messages(items)).toEqual(['#0', '#1', '#2', '#3', '#4']);
    expect(requests.map(queryOf)).toEqual([
      { page: '1', limit: '2' },
      { page: '2', limit: '2' },
      { page: '3', limit: '2' },
    ]);
  });

  it('cursor mode: follows next_cursor until it is null, never sending page', async () => {
    serveRecognitions(5);
    const items = await collect(client.recognitions.list({ limit: 2 }));
    expect(messages(items)).toEqual(['#0', '#1', '#2', '#3', '#4']);
    expect(requests.map(queryOf)).toEqual([
      { limit: '2' },
      { limit: '2', cursor: 'c2' },
      { limit: '2', cursor: 'c4' },
    ]);
  });

  it('an empty list (total_pages 0) yields nothing after a single request', async () => {
    serveRecognitions(0);
    const list = client.recognitions.list({ page: 1 });
    expect(await collect(list)).toEqual([]);
    expect((await list).hasNextPage()).toBe(false);
    expect(requests).toHaveLength(1);
  });

  it('stops at an empty page even when total_pages promises more', async () => {
    server.use(
      http.get(RECOGNITIONS, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        const data = page === 1 ? [recognition(0)] : [];
        return json({ data, pagination: { page, total_pages: 9, next_cursor: null } });
      }),
    );
    const items = await collect(client.recognitions.list({ page: 1 }));
    expect(messages(items)).toEqual(['#0']);
    expect(requests).toHaveLength(2);
  });

  it('carries the filters to every page, a Date `from` as its ISO string, in both modes', async () => {
    serveRecognitions(6);
    const filters = {
      from: new Date('2026-11-01T00:00:00Z'),
      to: '2026-11-30',
      sender_id: UUID.alice,
      recipient_id: UUID.bob,
      limit: 2,
    };
    const sent = {
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-30',
      sender_id: UUID.alice,
      recipient_id: UUID.bob,
      limit: '2',
    };

    await collect(client.recognitions.list({ ...filters, page: 1 }));
    await collect(client.recognitions.list(filters));

    expect(requests.map(queryOf)).toEqual([
      { ...sent, page: '1' },
      { ...sent, page: '2' },
      { ...sent, page: '3' },
      sent,
      { ...sent, cursor: 'c2' },
      { ...sent, cursor: 'c4' },
    ]);
  });

  it('rejects the loop with the API error of a later page, after yielding the earlier records', async () => {
    server.use(
      http.get(RECOGNITIONS, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        return page === 1
          ? json({ data: [recognition(0)], pagination: { page: 1, total_pages: 2 } })
          : json({ error: { code: 'internal_error', message: 'Try again later.' } }, 500);
      }),
    );
    const seen: string[] = [];
    const loop = (async () => {
      for await (const item of client.recognitions.list({ page: 1 })) seen.push(item.message);
    })();
    await expect(loop).rejects.toBeInstanceOf(InternalServerError);
    expect(seen).toEqual(['#0']);
  });
});

describe('breaking out of the loop', () => {
  it('during the first page: only the first page and the one fetched ahead were requested, and that one is aborted', async () => {
    const aborted: number[] = [];
    serveRecognitions(20, (page, request) =>
      page === 2 ? untilAborted(request, aborted, page) : Promise.resolve(),
    );

    for await (const item of client.recognitions.list({ page: 1, limit: 2 })) {
      expect(item.message).toBe('#0');
      // A consumer slow enough for the page fetched ahead to reach the server.
      await vi.waitFor(() => expect(requests).toHaveLength(2), waitOptions);
      break;
    }

    await vi.waitFor(() => expect(aborted).toEqual([2]), waitOptions);
    expect(requests.map((request) => queryOf(request).page)).toEqual(['1', '2']);
  });

  it('on a later page: no request beyond the page fetched ahead, which is aborted', async () => {
    const aborted: number[] = [];
    serveRecognitions(20, (page, request) =>
      page === 3 ? untilAborted(request, aborted, page) : Promise.resolve(),
    );

    const seen: string[] = [];
    for await (const item of client.recognitions.list({ limit: 2 })) {
      seen.push(item.message);
      if (seen.length === 3) {
        await vi.waitFor(() => expect(requests).toHaveLength(3), waitOptions);
        break;
      }
    }

    await vi.waitFor(() => expect(aborted).toEqual([3]), waitOptions);
    expect(seen).toEqual(['#0', '#1', '#2']);
    expect(requests).toHaveLength(3);
  });
});

describe('prefetch', () => {
  it('fetches the next page while the consumer works on the current one, never more than one ahead', async () => {
    serveRecognitions(8);
    let consumed = 0;
    let mostAhead = 0;
    server.events.on('request:start', () => {
      mostAhead = Math.max(mostAhead, requests.length - consumed);
    });

    for await (const page of client.recognitions.list({ page: 1, limit: 2 }).pages()) {
      consumed += 1;
      if (page.hasNextPage()) {
        // The next page is requested while this one is still being worked on...
        await vi.waitFor(() => expect(requests).toHaveLength(consumed + 1), waitOptions);
      }
      // ...and a slow consumer does not cause a second page to be fetched ahead.
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(requests.length - consumed).toBeLessThanOrEqual(1);
    }

    expect(consumed).toBe(4);
    expect(requests).toHaveLength(4);
    expect(mostAhead).toBe(1);
  });

  it('a consumer that resumes before the page fetched ahead arrives still gets that page, unaborted', async () => {
    serveRecognitions(4, (page) =>
      page === 2 ? new Promise((resolve) => setTimeout(resolve, 5)) : Promise.resolve(),
    );
    const items = await collect(client.recognitions.list({ page: 1, limit: 2 }));
    expect(messages(items)).toEqual(['#0', '#1', '#2', '#3']);
    expect(requests).toHaveLength(2);
  });
});

describe('pages', () => {
  it('.pages() yields each Page with its records and pagination', async () => {
    serveRecognitions(5);
    const pages = await collect(client.recognitions.list({ page: 1, limit: 2 }).pages());
    expect(pages.every((page) => page instanceof Page)).toBe(true);
    expect(pages.map((page) => page.pagination.page)).toEqual([1, 2, 3]);
    expect(pages.map((page) => messages(page.data))).toEqual([['#0', '#1'], ['#2', '#3'], ['#4']]);
  });

  it('hasNextPage() and getNextPage() walk a page-mode list by hand to its last page', async () => {
    serveRecognitions(3);
    const first = await client.recognitions.list({ page: 1, limit: 2, sender_id: UUID.alice });
    expect(first.hasNextPage()).toBe(true);

    const last = await first.getNextPage();

    expect(messages(last.data)).toEqual(['#2']);
    expect(last.hasNextPage()).toBe(false);
    expect(() => last.getNextPage()).toThrow(EmployeeRecognitionError);
    expect(queryOf(requests[1])).toEqual({ page: '2', limit: '2', sender_id: UUID.alice });
  });

  it('getNextPage() follows the cursor in cursor mode', async () => {
    serveRecognitions(3);
    const first = await client.recognitions.list({ limit: 2 });
    const last = await first.getNextPage();
    expect(messages(last.data)).toEqual(['#2']);
    expect(last.hasNextPage()).toBe(false);
    expect(queryOf(requests[1])).toEqual({ limit: '2', cursor: 'c2' });
  });
});

describe('toArray', () => {
  it('collects at most `limit` records, fetching no page past the one holding the last', async () => {
    serveRecognitions(100);
    const records = await client.recognitions.list({ limit: 20 }).toArray({ limit: 30 });
    expect(records.map((r) => r.message)).toEqual(Array.from({ length: 30 }, (_, i) => `#${i}`));
    expect(requests).toHaveLength(2);
  });

  it('returns every record of a list shorter than `limit`', async () => {
    serveRecognitions(7);
    const records = await client.recognitions.list({ limit: 5 }).toArray({ limit: 100 });
    expect(records).toHaveLength(7);
  });

  it.each([0, 10_001, 1.5, Number.NaN])('refuses limit %s before sending', async (limit) => {
    serveRecognitions(5);
    await expect(client.recognitions.list().toArray({ limit })).rejects.toMatchObject({
      name: 'ConfigurationError',
      option: 'limit',
    });
  });
});

describe('a resolved Page', () => {
  it('iterates every record from its page on', async () => {
    serveRecognitions(12);
    const page = await client.recognitions.list({ limit: 5 });
    const messages: string[] = [];
    for await (const r of page) messages.push(r.message);
    expect(messages).toHaveLength(12);
  });
});

describe('a list that does not advance', () => {
  it('getNextPage() refuses a repeated cursor, as iteration does: a hasNextPage() loop ends', async () => {
    server.use(
      http.get(RECOGNITIONS, () =>
        json({
          data: [recognition(1)],
          pagination: { page: 1, total_pages: 9, next_cursor: 'same' },
        }),
      ),
    );
    let page = await client.recognitions.list();
    const error = await (async () => {
      for (let turn = 0; turn < 100 && page.hasNextPage(); turn++) page = await page.getNextPage();
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ issues: [{ path: 'pagination.next_cursor' }] });
    expect(requests).toHaveLength(2);
    // Asking the same page again (a retry after a failure) is no repeat.
    const first = await client.recognitions.list();
    await first.getNextPage();
    await expect(first.getNextPage()).resolves.toBeInstanceOf(Page);
  });

  it("blames the service, naming the field, for page numbers that cannot lead on, never the caller's page", async () => {
    for (const pagination of [
      { page: -1, total_pages: 0 },
      { page: 0, total_pages: 3 },
    ]) {
      server.use(http.get(RECOGNITIONS, () => json({ data: [recognition(1)], pagination })));
      const seen: unknown[] = [];
      const error = await (async () => {
        for await (const r of client.recognitions.list({ page: 1 })) seen.push(r);
      })().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(error).toMatchObject({ issues: [{ path: 'pagination.page' }] });
      expect(seen).toHaveLength(1);
    }
    expect(requests).toHaveLength(2);
  });

  it('ends with InvalidResponseError when the service repeats a cursor', async () => {
    server.use(
      http.get(RECOGNITIONS, () =>
        json({
          data: [recognition(1)],
          pagination: { page: 1, total_pages: 9, next_cursor: 'same' },
        }),
      ),
    );
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const r of client.recognitions.list()) seen.push(r);
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'InvalidResponseError' });
    expect(seen).toHaveLength(2);
  });

  it('ends with InvalidResponseError when the service ignores `page`', async () => {
    server.use(
      http.get(RECOGNITIONS, () =>
        json({
          data: [recognition(1)],
          pagination: { page: 1, total_pages: 5, next_cursor: null },
        }),
      ),
    );
    const error = await (async () => {
      for await (const _ of client.recognitions.list({ page: 1 })) void _;
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'InvalidResponseError' });
  });
});

describe('a list paged by its Link header (RFC 8288)', () => {
  /**
   * Serves `total` recognitions by an `after` offset that only the `Link: rel="next"` header
   * names; the body has no cursor, and a `page` is ignored, so only a client that follows the
   * link reads the whole list. `link(after)` writes the header's target.
   */
  function serveByLink(total: number, link = (after: number) => `/v1/recognitions?after=${after}`) {
    server.use(
      http.get(RECOGNITIONS, ({ request }) => {
        const after = Number(new URL(request.url).searchParams.get('after') ?? 0);
        const end = Math.min(after + 5, total);
        const data = Array.from({ length: end - after }, (_, i) => recognition(after + i));
        const headers = new Headers({ 'content-type': 'application/json' });
        if (end < total) {
          headers.set('link', `<${link(end)}>; rel="prev first", <${link(end)}>; rel="next"`);
        }
        return new Response(JSON.stringify({ data, pagination: { page: 1, total_pages: 1 } }), {
          headers,
        });
      }),
    );
  }

  it('follows rel="next" on the same origin, sending its query as given, with the credential', async () => {
    serveByLink(12);
    const messages: string[] = [];
    for await (const r of client.recognitions.list({ limit: 5 })) messages.push(r.message);
    expect(messages).toEqual(Array.from({ length: 12 }, (_, i) => `#${i}`));
    expect(requests.map(queryOf)).toEqual([{ limit: '5' }, { after: '5' }, { after: '10' }]);
    expect(new Set(requests.map((r) => r.headers.get('authorization')))).toEqual(
      new Set([`Bearer ${TEST_API_KEY}`]),
    );
  });

  it('hasNextPage() and getNextPage() follow the link by hand; an absolute same-origin link too', async () => {
    serveByLink(7, (after) => `${TEST_BASE_URL}/v1/recognitions?after=${after}`);
    const first = await client.recognitions.list();
    expect(first.hasNextPage()).toBe(true);
    const second = await first.getNextPage();
    expect(second.data.map((r) => r.message)).toEqual(['#5', '#6']);
    expect(second.hasNextPage()).toBe(false);
  });

  it('never sends the credential to another origin: such a link is not followed', async () => {
    const elsewhere: Request[] = [];
    server.use(
      http.get('http://elsewhere.test/*', ({ request }) => {
        elsewhere.push(request);
        return json({ data: [], pagination: { page: 1, total_pages: 1 } });
      }),
    );
    for (const target of [
      'http://elsewhere.test/v1/recognitions?after=5',
      '//elsewhere.test/v1/recognitions?after=5',
      'https://api.test/v1/recognitions?after=5',
      'http://user:pass@elsewhere.test/v1/recognitions',
      'javascript:alert(1)',
    ]) {
      serveByLink(12, () => target);
      const all = await client.recognitions.list().toArray({ limit: 100 });
      expect(all).toHaveLength(5);
    }
    expect(elsewhere).toHaveLength(0);
  });

  it('does not follow a link that echoes an API key or webhook secret: URLs show in errors and traces', async () => {
    for (const secret of [TEST_API_KEY, 'whsec_abc']) {
      serveByLink(12, (after) => `/v1/recognitions?after=${after}&echo=${secret}`);
      const all = await client.recognitions.list().toArray({ limit: 100 });
      expect(all).toHaveLength(5);
    }
    expect(requests.some((request) => request.url.search.includes('echo'))).toBe(false);
  });

  it("does not follow a link that echoes the call's own credential, an OAuth token of no known shape", async () => {
    const token = 'opaque.token-9f8e7d6c5b4a';
    const oauthClient = testClient({ apiKey: async () => token });
    serveByLink(12, (after) => `/v1/recognitions?after=${after}&access=${token}`);
    const all = await oauthClient.recognitions.list().toArray({ limit: 100 });
    expect(all).toHaveLength(5);
    expect(requests.some((request) => request.url.search.includes(token))).toBe(false);
  });

  it('follows the link over a cursor in the body: the service named the page', async () => {
    server.use(
      http.get(RECOGNITIONS, ({ request }) => {
        const after = new URL(request.url).searchParams.get('after');
        const body = {
          data: [recognition(after ? 2 : 1)],
          pagination: { page: 1, total_pages: 2, next_cursor: after ? null : 'c2' },
        };
        return new Response(JSON.stringify(body), {
          headers: {
            'content-type': 'application/json',
            ...(!after && { link: '</v1/recognitions?after=1>; rel="next"' }),
          },
        });
      }),
    );
    const all = await client.recognitions.list().toArray({ limit: 10 });
    expect(all.map((r) => r.message)).toEqual(['#1', '#2']);
    expect(requests.map(queryOf)).toEqual([{}, { after: '1' }]);
  });

  it('ends with InvalidResponseError when the link leads to a page seen before', async () => {
    serveByLink(12, () => '/v1/recognitions?after=5&same=1');
    const error = await client.recognitions
      .list()
      .toArray({ limit: 100 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'InvalidResponseError',
      issues: [{ path: 'link', message: 'repeats an earlier page' }],
    });
    expect(requests).toHaveLength(2);
  });
});
