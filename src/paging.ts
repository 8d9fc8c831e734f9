/**
 * Paged lists. The platform serves at most {@link MAX_PAGE_SIZE} rows per request and gives no
 * total, so a list ends at the first short page.
 *
 * A {@link PagedList} is both a promise and an async iterable (the shape openai-node made
 * familiar): `await list` reads the window `{ limit, offset }` (several requests when `limit`
 * exceeds 40), while `for await (const x of list)` walks every page from `offset` to the end,
 * keeping a few requests in flight ahead of the reader.
 */
import { assertInteger } from './validate.js';

/** The service's cap on `limit`. */
export const MAX_PAGE_SIZE = 40;
/** Rows read by `await list` when no limit is given: one full request. */
export const DEFAULT_LIMIT = 40;
/** Requests kept in flight ahead of the reader in a walk. */
export const DEFAULT_PREFETCH = 5;

/** Which rows of a list to read. */
export interface PageOptions {
  /** How many rows. Any positive number; above 40 it takes several requests. */
  limit?: number;
  /** How many rows to skip (default 0). */
  offset?: number;
}

/** How far a walk has come. */
export interface PageProgress {
  /** Rows delivered so far. */
  items: number;
  /** Pages received so far. */
  pages: number;
  /** True on the last report. */
  done: boolean;
}

/** Options of a walk over all pages. */
export interface WalkOptions {
  /** Called after every page with the running totals. */
  onProgress?: (progress: PageProgress) => void;
  /** Requests kept in flight ahead of the reader (default 5). */
  prefetch?: number;
  signal?: AbortSignal;
}

/** Reads `limit` (≤ the page size, 40 by default) rows at `offset`. */
export type PageFetcher<T> = (limit: number, offset: number, signal?: AbortSignal) => Promise<T[]>;

/** Checks `{ limit, offset }` and fills in defaults. */
export function normalizePage(page: PageOptions = {}, defaultLimit = DEFAULT_LIMIT): Required<PageOptions> {
  if (page === null || typeof page !== 'object') throw new TypeError('page options must be an object');
  const limit = page.limit === undefined ? defaultLimit : assertInteger(page.limit, 'limit', 1);
  const offset = page.offset === undefined ? 0 : assertInteger(page.offset, 'offset', 0);
  return { limit, offset };
}

/** A list that can be awaited (one window) or iterated (all rows). */
export class PagedList<T> implements PromiseLike<T[]>, AsyncIterable<T> {
  readonly #fetch: PageFetcher<T>;
  readonly #limit: number | undefined;
  readonly #offset: number;
  readonly #walk: WalkOptions;
  readonly #pageSize: number;
  /** Rows of `await list` without a limit: one full request. */
  readonly #defaultLimit: number;
  #window?: Promise<T[]>;

  /** `settings.pageSize`: the service's cap on one request (default 40; the cloud logs allow 100). */
  constructor(
    fetchPage: PageFetcher<T>,
    page: PageOptions = {},
    walk: WalkOptions = {},
    settings: { pageSize?: number } = {},
  ) {
    const { offset } = normalizePage(page);
    this.#pageSize =
      settings.pageSize === undefined ? MAX_PAGE_SIZE : assertInteger(settings.pageSize, 'pageSize', 1);
    this.#defaultLimit = settings.pageSize === undefined ? DEFAULT_LIMIT : this.#pageSize;
    this.#fetch = fetchPage;
    this.#limit = page.limit === undefined ? undefined : normalizePage(page).limit;
    this.#offset = offset;
    this.#walk = walk;
  }

  /** Reads the window `{ limit, offset }`: its requests go out together. */
  // biome-ignore lint/suspicious/noThenProperty: awaitable on purpose, like openai-node's page promises
  then<R1 = T[], R2 = never>(
    onfulfilled?: ((value: T[]) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    this.#window ??= this.#readWindow(this.#limit ?? this.#defaultLimit);
    return this.#window.then(onfulfilled, onrejected);
  }

  /** Every row from `offset` to the end (or to `limit` rows when a limit was given). */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    return this.#items(this.#walk);
  }

  /** Collects the walk into an array, reporting progress. */
  async all(options: WalkOptions = {}): Promise<T[]> {
    const rows: T[] = [];
    for await (const page of this.pages(options)) rows.push(...page);
    return rows;
  }

  /** The walk, page by page. */
  pages(options: WalkOptions = {}): AsyncIterable<T[]> {
    const walk = { ...this.#walk, ...options };
    return { [Symbol.asyncIterator]: () => this.#pages(walk) };
  }

  async #readWindow(limit: number): Promise<T[]> {
    const requests: Promise<T[]>[] = [];
    for (let start = 0; start < limit; start += this.#pageSize) {
      requests.push(this.#fetch(Math.min(this.#pageSize, limit - start), this.#offset + start));
    }
    const pages = await Promise.all(requests);
    const rows: T[] = [];
    for (const [index, page] of pages.entries()) {
      rows.push(...page);
      const asked = Math.min(this.#pageSize, limit - index * this.#pageSize);
      if (page.length < asked) break; // the list ended; later pages are empty or shifted
    }
    return rows;
  }

  async *#items(walk: WalkOptions): AsyncGenerator<T> {
    for await (const page of this.#pages(walk)) for (const row of page) yield row;
  }

  async *#pages(walk: WalkOptions): AsyncGenerator<T[]> {
    const prefetch =
      walk.prefetch === undefined ? DEFAULT_PREFETCH : assertInteger(walk.prefetch, 'prefetch', 1, 50);
    const end = this.#limit === undefined ? Number.POSITIVE_INFINITY : this.#offset + this.#limit;
    const inFlight: { size: number; page: Promise<T[]> }[] = [];
    let next = this.#offset;
    let items = 0;
    let pages = 0;
    const fill = () => {
      while (inFlight.length < prefetch && next < end) {
        const size = Math.min(this.#pageSize, end - next);
        const page = this.#fetch(size, next, walk.signal);
        page.catch(() => undefined); // a prefetched page past the end must not go unhandled
        inFlight.push({ size, page });
        next += size;
      }
    };
    try {
      fill();
      while (inFlight.length > 0) {
        const head = inFlight.shift()!;
        const rows = await head.page;
        pages++;
        items += rows.length;
        const last = rows.length < head.size || (inFlight.length === 0 && next >= end);
        walk.onProgress?.({ items, pages, done: last });
        if (rows.length > 0) yield rows;
        if (rows.length < head.size) return;
        fill();
      }
    } finally {
      inFlight.length = 0;
    }
  }
}
