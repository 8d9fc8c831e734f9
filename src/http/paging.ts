/**
 * Paged lists. The platform serves at most {@link MAX_PAGE_SIZE} rows per request and gives no
 * total, so a list ends at the first short page.
 *
 * A {@link PagedList} is both a promise and an async iterable (the shape openai-node made
 * familiar): `await list` reads the window `{ limit, offset }` (several requests when `limit`
 * exceeds 40), while `for await (const x of list)` walks every page from `offset` to the end,
 * keeping a few requests in flight ahead of the reader. They wait their turn in the session's
 * request budget, so only as many reach the wire as the budget allows, and those still waiting
 * when a walk ends are cancelled.
 */

import { assertFunction, assertInteger } from '../records/validate.js';
import type { ListWindow } from '../rows/list-window.js';
import { RecordList } from '../rows/record-list.js';
import type { RateLimitListener, RateLimitWait } from './request-budget.js';

/** The service's cap on `limit`. */
export const MAX_PAGE_SIZE = 40;
/** Rows read by `await list` when no limit is given: one full request. */
const DEFAULT_LIMIT = 40;
/** Requests kept in flight ahead of the reader in a walk. */
const DEFAULT_PREFETCH = 5;

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
  /** Set while the service makes the walk wait: `{ resumeInMs, message: 'rate-limited, resuming in 2.1 s' }`. */
  rateLimited?: RateLimitWait;
}

/** Subscribes to the waits a client's service imposes; returns the unsubscribe function. */
export type RateLimitWatch = (listener: RateLimitListener) => () => void;

/** How a list reads its pages. */
export interface ListSettings {
  /** The service's cap on one request (default 40; the cloud logs allow 100). */
  pageSize?: number;
  /** Whose list it is, when it is one user's own (its rows name no author). */
  owner?: string;
  /** Where the walk hears of rate-limit pauses, to report them through `onProgress`. */
  watchRateLimits?: RateLimitWatch;
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
function normalizePage(page: PageOptions = {}, defaultLimit = DEFAULT_LIMIT): Required<PageOptions> {
  if (page === null || typeof page !== 'object') throw new TypeError('page options must be an object');
  const limit = page.limit === undefined ? defaultLimit : assertInteger(page.limit, 'limit', 1);
  const offset = page.offset === undefined ? 0 : assertInteger(page.offset, 'offset', 0);
  return { limit, offset };
}

/** A list that can be awaited (one window) or iterated (all rows). */
export class PagedList<T> implements PromiseLike<RecordList<T>>, AsyncIterable<T> {
  readonly #fetch: PageFetcher<T>;
  readonly #limit: number | undefined;
  readonly #offset: number;
  readonly #walk: WalkOptions;
  readonly #pageSize: number;
  /** Rows of `await list` without a limit: one full request. */
  readonly #defaultLimit: number;
  /** Whose list it is, when it is one user's own (shown as the rows' author). */
  readonly #owner: string | undefined;
  readonly #watch: RateLimitWatch | undefined;
  readonly #settings: ListSettings;
  #window?: Promise<RecordList<T>>;

  constructor(
    fetchPage: PageFetcher<T>,
    page: PageOptions = {},
    walk: WalkOptions = {},
    settings: ListSettings = {},
  ) {
    const { limit, offset } = normalizePage(page);
    this.#pageSize =
      settings.pageSize === undefined ? MAX_PAGE_SIZE : assertInteger(settings.pageSize, 'pageSize', 1);
    // Stryker disable next-line ConditionalExpression: DEFAULT_LIMIT is MAX_PAGE_SIZE (both 40), what #pageSize is then
    this.#defaultLimit = settings.pageSize === undefined ? DEFAULT_LIMIT : this.#pageSize;
    this.#fetch = fetchPage;
    this.#limit = page.limit === undefined ? undefined : limit;
    this.#offset = offset;
    this.#walk = checkWalk(walk);
    this.#owner = settings.owner;
    this.#watch = settings.watchRateLimits;
    this.#settings = settings;
  }

  /** Whose list it is, when it is one user's own (its rows name no author). */
  get owner(): string | undefined {
    return this.#owner;
  }

  /**
   * Whether the list was made with an `onProgress` of its own (`followers(u, { onProgress })`): a
   * front end's own progress display then stays out of its walks.
   */
  get reportsProgress(): boolean {
    return this.#walk.onProgress !== undefined;
  }

  /**
   * The same list without its first `rows` rows: a walk of it starts that much further on (a
   * resumed load goes on from the first row it has not stored), and a limit shrinks to match.
   */
  skip(rows: number): PagedList<T> {
    assertInteger(rows, 'rows', 0);
    const limit = this.#limit === undefined ? undefined : this.#limit - rows;
    // Stryker disable next-line ConditionalExpression: `undefined <= 0` is false too
    if (limit !== undefined && limit <= 0) {
      // Nothing is left: a list that reads no page.
      // Stryker disable next-line ObjectLiteral: its one page is empty whatever size it asks for
      return new PagedList<T>(async () => [], { limit: 1 }, this.#walk, { pageSize: 1 });
    }
    return new PagedList(this.#fetch, { limit, offset: this.#offset + rows }, this.#walk, this.#settings);
  }

  /**
   * Reads the window `{ limit, offset }`: a walk that ends there, so its requests go out
   * together but never more than `prefetch` at once, and `signal` stops it.
   */
  // biome-ignore lint/suspicious/noThenProperty: awaitable on purpose, like openai-node's page promises
  then<R1 = RecordList<T>, R2 = never>(
    onfulfilled?: ((value: RecordList<T>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    this.#window ??= this.#collect(this.#walk, this.#offset + (this.#limit ?? this.#defaultLimit));
    return this.#window.then(onfulfilled, onrejected);
  }

  /** Every row from `offset` to the end (or to `limit` rows when a limit was given). */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.#pages(this.#walk, this.#end())) for (const row of page) yield row;
  }

  /** Collects the walk into an array, reporting progress. */
  all(options: WalkOptions = {}): Promise<RecordList<T>> {
    return this.#collect({ ...this.#walk, ...checkWalk(options) }, this.#end());
  }

  /** The walk, page by page. */
  pages(options: WalkOptions = {}): AsyncIterable<T[]> {
    const walk = { ...this.#walk, ...checkWalk(options) };
    return { [Symbol.asyncIterator]: () => this.#pages(walk, this.#end()) };
  }

  /** Where a walk stops: after `limit` rows when one was given, else at the list's end. */
  #end(): number {
    return this.#limit === undefined ? Number.POSITIVE_INFINITY : this.#offset + this.#limit;
  }

  async #collect(walk: WalkOptions, end: number): Promise<RecordList<T>> {
    const rows: T[] = [];
    for await (const page of this.#pages(walk, end)) rows.push(...page);
    // A window that came back full may not be the whole list: its display says so.
    const window: ListWindow = {
      offset: this.#offset,
      // (Never for a walk to the list's end: `end` is then Infinity. A limit is at least 1.)
      more: rows.length >= end - this.#offset,
      ...(this.#owner === undefined ? {} : { owner: this.#owner }),
    };
    return RecordList.fromWindow(rows, window);
  }

  async *#pages(walk: WalkOptions, end: number): AsyncGenerator<T[]> {
    const prefetch = walk.prefetch ?? DEFAULT_PREFETCH;
    const inFlight: { size: number; page: Promise<T[]> }[] = [];
    let next = this.#offset;
    let items = 0;
    let pages = 0;
    // Ends the requests of a walk that is over (the list ended, the reader stopped, one failed):
    // those still waiting for their turn in the budget never go out.
    const stop = new AbortController();
    const signal = walk.signal ? AbortSignal.any([walk.signal, stop.signal]) : stop.signal;
    const { onProgress } = walk;
    const unwatch =
      onProgress && this.#watch?.((rateLimited) => onProgress({ items, pages, done: false, rateLimited }));
    const fill = () => {
      while (inFlight.length < prefetch && next < end) {
        const size = Math.min(this.#pageSize, end - next);
        const page = this.#fetch(size, next, signal);
        page.catch(() => undefined); // a prefetched page past the end must not go unhandled
        inFlight.push({ size, page });
        next += size;
      }
    };
    try {
      walk.signal?.throwIfAborted();
      fill();
      while (inFlight.length > 0) {
        const head = inFlight.shift()!;
        const rows = await head.page;
        walk.signal?.throwIfAborted();
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
      unwatch?.();
      stop.abort(new DOMException('the walk is over', 'AbortError'));
    }
  }
}

/** Checks walk options when they are given, not midway through a walk. */
function checkWalk(walk: WalkOptions): WalkOptions {
  if (walk === null || typeof walk !== 'object') throw new TypeError('walk options must be an object');
  if (walk.onProgress !== undefined) assertFunction(walk.onProgress, 'onProgress');
  if (walk.prefetch !== undefined) assertInteger(walk.prefetch, 'prefetch', 1, 50);
  if (walk.signal !== undefined && !(walk.signal instanceof AbortSignal)) {
    throw new TypeError('signal must be an AbortSignal');
  }
  return walk;
}
