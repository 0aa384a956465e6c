import { ApiPromise } from './api-promise.js';
import type { RawResponse, RequestOptions } from './request.js';

/** The `pagination` object of a list answer (contract §5). */
export interface Pagination {
  /** The page number of this page (1-based). */
  page: number;
  /** Pages in the whole list; 0 for an empty list. */
  total_pages: number;
  /** Cursor of the next page in cursor mode; null at the end. */
  next_cursor?: string | null | undefined;
}

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
export interface PageResponse<Item> {
  /** The records of the page; empty past the last page. */
  data: Item[];
  /** Where the page stands in the list. */
  pagination: Pagination;
}

/** Fetches one page of a list for the given parameters; made by the resource that owns the list. */
export type PageFetcher<Item, Params extends PageParams> = (
  params: Params,
  options: RequestOptions,
) => PagePromise<Item, Params>;

/** One page of a list: its records, its pagination, and the way to the next page. */
export class Page<Item, Params extends PageParams = PageParams> {
  /** The records of this page. */
  readonly data: Item[];
  /** Where this page stands in the list. */
  readonly pagination: Pagination;
  readonly #params: Params;
  readonly #fetchPage: PageFetcher<Item, Params>;
  readonly #options: RequestOptions;

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
  ) {
    this.data = body.data;
    this.pagination = body.pagination;
    this.#params = params;
    this.#fetchPage = fetchPage;
    this.#options = options;
  }

  /**
   * The parameters of the next page, or null at the end. The cursor is followed where the service
   * gives one, page numbers otherwise; filters carry over. A null cursor ends a cursor-mode list.
   */
  nextPageParams(): Params | null {
    if (this.data.length === 0) return null;
    const { page: _page, cursor: _cursor, ...filters } = this.#params;
    const { next_cursor: nextCursor, page, total_pages: totalPages } = this.pagination;
    if (typeof nextCursor === 'string' && nextCursor !== '') {
      return { ...filters, cursor: nextCursor } as Params;
    }
    const cursorMode = this.#params.page === undefined;
    if (cursorMode && nextCursor === null) return null;
    return page < totalPages ? ({ ...filters, page: page + 1 } as Params) : null;
  }

  /** Whether another page follows this one. */
  hasNextPage(): boolean {
    return this.nextPageParams() !== null;
  }

  /** Requests the next page. Throws if there is none: check {@link hasNextPage} first. */
  getNextPage(options: RequestOptions = this.#options): PagePromise<Item, Params> {
    const params = this.nextPageParams();
    if (params === null) throw new RangeError('This is the last page: check hasNextPage() first.');
    return this.#fetchPage(params, options);
  }

  /** The body as the service sent it, without the methods. */
  toJSON(): PageResponse<Item> {
    return { data: this.data, pagination: this.pagination };
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
   * Every record of every page, in order, for `for await`. Pages are fetched one ahead; breaking
   * out cancels the page fetched ahead.
   */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }
}

async function* iteratePages<Item, Params extends PageParams>(
  next: PromiseLike<Page<Item, Params>> | undefined,
  options: RequestOptions,
): AsyncGenerator<Page<Item, Params>, void, undefined> {
  // `next` is overwritten every turn, so no earlier page stays reachable from this loop.
  while (next) {
    const page = await next;
    const prefetch = page.hasNextPage() ? prefetchNext(page, options) : undefined;
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
