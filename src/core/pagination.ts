import type { PageBody, Pagination } from '../internal/wire.js';
import { ApiPromise } from './api-promise.js';
import { checkInteger, type RequestOptions } from './config.js';
import { EmployeeRecognitionError, InvalidResponseError } from './errors.js';
import type { RawResponse } from '../internal/exchange.js';

export type { Pagination } from '../internal/wire.js';

/** Paging parameters every paginated list accepts. */
export interface PageParams {
  /** Page number, from 1 (the default). Asking for a page switches the list to page mode. */
  page?: number | undefined;
  /** Records per page, 1–100; the service's default is 20. */
  limit?: number | undefined;
  /** The opaque `next_cursor` of an earlier page, to continue from there. */
  cursor?: string | undefined;
}

/** The body of a list answer (contract §5): one page of records and where it stands. */
export type PageResponse<Item> = PageBody<Item>;

/** `toArray` collects at most this many records: larger exports should stream with `for await`. */
const TO_ARRAY_MAX = 10_000;

/**
 * Fetches one page of a list for the given parameters, or the page at `link` (a path and query
 * below the base URL, from an answer's `Link` header); made by the resource that owns the list.
 */
export type PageFetcher<Item, Params extends PageParams> = (
  params: Params,
  options: RequestOptions,
  link?: string,
  /** The list's pages, cursors and links so far, handed to the page fetched. */
  seen?: Set<string>,
) => PagePromise<Item, Params>;

/** One page of a list: its records, its pagination, and the way to the next page. */
export class Page<Item, Params extends PageParams = PageParams> {
  /** The records of this page. */
  declare readonly data: Item[];
  /** Where this page stands in the list. */
  declare readonly pagination: Pagination;
  readonly #params: Params;
  readonly #fetchPage: PageFetcher<Item, Params>;
  readonly #options: RequestOptions;
  readonly #link: string | undefined;
  /** The pages, cursors and links this list has led to, shared by its pages ({@link stalledList}). */
  readonly #seen: Set<string>;
  /** Whether this page's way on is among {@link Page.#seen} already. */
  #noted = false;

  /**
   * Made by the list methods; customers never construct one.
   *
   * @internal
   */
  constructor(
    body: PageResponse<Item>,
    params: Params,
    fetchPage: PageFetcher<Item, Params>,
    options: RequestOptions,
    link?: string,
    seen = new Set<string>(),
  ) {
    this.data = body.data;
    this.pagination = body.pagination;
    this.#params = params;
    this.#fetchPage = fetchPage;
    this.#options = options;
    this.#link = link;
    this.#seen = seen;
  }

  /**
   * The next page's path and query below the base URL when the answer's `Link` header names it
   * (RFC 8288 `rel="next"`, on the client's origin) and this page is not empty: then
   * {@link getNextPage} and iteration follow it. Undefined otherwise.
   *
   * @internal
   */
  nextPageLink(): string | undefined {
    return this.data.length ? this.#link : undefined;
  }

  /**
   * The parameters of the next page, or null at the end. The cursor is followed where the service
   * gives one, page numbers otherwise; filters carry over. A null cursor ends a cursor-mode list.
   * Where the answer's `Link` header names the next page instead (RFC 8288), {@link getNextPage}
   * and iteration follow that link; this method still gives what the body says.
   *
   * @throws {InvalidResponseError} when the page number the service sent cannot lead on (below
   * 1): the service's mistake, named, never a request for a page 0.
   */
  nextPageParams(): Params | null {
    if (this.data.length === 0) return null;
    const { page: _page, cursor: _cursor, ...filters } = this.#params;
    const { next_cursor: nextCursor, page, total_pages: totalPages } = this.pagination;
    if (typeof nextCursor === 'string' && nextCursor !== '') {
      return { ...filters, cursor: nextCursor } as Params;
    }
    const cursorMode = this.#params.page == null;
    if (cursorMode && nextCursor === null) return null;
    if (!(page < totalPages)) return null;
    // An integer, as the envelope's check made sure; a page below 1 has no next.
    if (!(page >= 1)) {
      throw pagingError('pagination.page', `is ${page}: no next page follows it`);
    }
    return { ...filters, page: page + 1 } as Params;
  }

  /** Whether another page follows this one. */
  hasNextPage(): boolean {
    return !!this.nextPageLink() || this.nextPageParams() !== null;
  }

  /**
   * Requests the next page. Throws if there is none: check {@link hasNextPage} first. A list that
   * leads to a page, cursor or link it led to before throws InvalidResponseError, as iteration
   * does: no answer can make a `hasNextPage()` loop endless.
   */
  getNextPage(options: RequestOptions = this.#options): PagePromise<Item, Params> {
    const link = this.nextPageLink();
    const params = link ? this.#params : this.nextPageParams();
    if (params === null) {
      throw new EmployeeRecognitionError('This is the last page: check hasNextPage() first.');
    }
    if (!this.#noted) {
      const stalled = stalledList(link ?? params, this.#seen);
      if (stalled) throw stalled;
      this.#noted = true;
    }
    return this.#fetchPage(params, options, link, this.#seen);
  }

  /** The body as the service sent it, without the methods. */
  toJSON(): PageResponse<Item> {
    return { data: this.data, pagination: this.pagination };
  }

  /** Every record from this page on, for `for await (const r of await client.users.list())`. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of iteratePages(this, this.#options)) yield* page.data;
  }
}

/**
 * What a `list()` returns: await it for the first page, or iterate it with `for await` for every
 * record of every page. While the caller works on one page the next is already on its way (one
 * page ahead, no more), so memory stays at a page or two however long the list is.
 */
export class PagePromise<Item, Params extends PageParams = PageParams>
  extends ApiPromise<Page<Item, Params>>
  implements AsyncIterable<Item>
{
  readonly #options: RequestOptions;

  /**
   * Made by the list methods; customers never construct one.
   *
   * @internal
   */
  constructor(
    raw: Promise<RawResponse>,
    parse: (raw: RawResponse) => Page<Item, Params>,
    options: RequestOptions,
  ) {
    super(raw, parse);
    this.#options = options;
  }

  /** Every page in turn, starting with this one. Breaking out cancels the page fetched ahead. */
  pages(): AsyncGenerator<Page<Item, Params>, void, undefined> {
    // The loop must not hold this promise, or the first page would stay in memory to the end.
    return iteratePages(this.then(), this.#options);
  }

  /**
   * The first `limit` records of the list (1 to 10,000), in order. Fetches no page past the one
   * holding the last record it keeps; for larger exports iterate with `for await`.
   */
  async toArray({ limit }: { limit: number }): Promise<Item[]> {
    checkInteger('limit', limit, 1, TO_ARRAY_MAX);
    const items: Item[] = [];
    const needsMore = (page: Page<Item, Params>) => items.length + page.data.length < limit;
    for await (const page of iteratePages(this.then(), this.#options, needsMore)) {
      items.push(...page.data.slice(0, limit - items.length));
      if (items.length >= limit) break;
    }
    return items;
  }

  /**
   * Every record of every page, in order, for `for await`. Pages are fetched one ahead; breaking
   * out cancels the page fetched ahead.
   */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }
}

/**
 * Pages from `next` on, each fetched while the caller works on the one before, as long as
 * `wantsNext` says the caller will want it. A list that does not advance (a cursor, page number
 * or next link seen before, as from a server that ignores `page`) or whose page numbers cannot
 * lead on ends with InvalidResponseError after the page that says so (`getNextPage` judges):
 * no answer can make the loop endless.
 */
async function* iteratePages<Item, Params extends PageParams>(
  next: PromiseLike<Page<Item, Params>> | Page<Item, Params> | undefined,
  options: RequestOptions,
  wantsNext: (page: Page<Item, Params>) => boolean = () => true,
): AsyncGenerator<Page<Item, Params>, void, undefined> {
  // `next` is overwritten every turn, so no earlier page stays reachable from this loop.
  while (next) {
    const page = await next;
    let prefetch: ReturnType<typeof prefetchNext<Item, Params>> | undefined;
    try {
      if (page.hasNextPage() && wantsNext(page)) prefetch = prefetchNext(page, options);
    } catch (error) {
      yield page;
      throw error;
    }
    next = prefetch?.page;
    let resumed = false;
    try {
      yield page;
      resumed = true;
    } finally {
      // Only a break or throw in the caller's loop leaves the yield without resuming: then drop
      // the page fetched ahead. A caller that resumes before it arrives still waits for it.
      if (!resumed && prefetch && !prefetch.settled) prefetch.abort();
    }
  }
}

/** The error for a next page seen before, or undefined when the list advances (and is noted). */
function stalledList(
  following: PageParams | string,
  seen: Set<string>,
): InvalidResponseError | undefined {
  const [field, value] =
    typeof following === 'string'
      ? ['link', following]
      : following.cursor === undefined
        ? ['pagination.page', `page ${following.page}`]
        : ['pagination.next_cursor', `cursor ${following.cursor}`];
  if (!seen.has(value)) {
    seen.add(value);
    return undefined;
  }
  return pagingError(field, 'repeats an earlier page');
}

/**
 * The service's paging, wrong at `path`: its mistake, not the caller's. The message quotes no
 * cursor or link: a service may have echoed the credential into one.
 */
function pagingError(path: string, problem: string): InvalidResponseError {
  return new InvalidResponseError({
    message: `The list cannot go on: ${path} ${problem}.`,
    status: 200,
    requestId: undefined,
    issues: [{ path, message: problem }],
  });
}

/** Starts fetching the page after `page`, cancellable on its own or by the caller's signal. */
function prefetchNext<Item, Params extends PageParams>(
  page: Page<Item, Params>,
  options: RequestOptions,
) {
  const controller = new AbortController();
  const { signal } = options;
  const state = {
    settled: false,
    abort: () => controller.abort(),
    page: page.getNextPage({
      ...options,
      signal: signal ? AbortSignal.any([signal, controller.signal]) : controller.signal,
    }),
  };
  // Awaited on the next turn of the loop; until then a failure must not count as unhandled.
  const settle = () => {
    state.settled = true;
  };
  state.page.then(settle, settle);
  return state;
}
