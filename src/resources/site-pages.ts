/**
 * Lists the site serves by page number (`?page=N`: a class's students, an educator's classes,
 * "My Stuff"): read page after page until an empty page, a 404 past the first page (Django's
 * paginator) or a page that repeats the one before, within a bound on the pages read.
 */
import { ApiError } from '../errors.js';
import { assertInteger, assertObject } from '../records/validate.js';
import { RecordList } from '../rows/record-list.js';

/** Options of a walk over numbered pages. */
export interface SitePageOptions {
  /** Most pages read (default 50, at most 1,000); a list longer than that is cut and says so. */
  maxPages?: number;
  /** Called after every page with the rows so far. */
  onProgress?: (progress: { items: number; pages: number }) => void;
  signal?: AbortSignal;
}

const DEFAULT_MAX_PAGES = 50;

/** Checks the options of a page walk; answers the page bound. */
export function checkSitePageOptions(options: SitePageOptions): number {
  assertObject(options, 'options');
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
    throw new TypeError('onProgress must be a function');
  }
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new TypeError('signal must be an AbortSignal');
  }
  return options.maxPages === undefined
    ? DEFAULT_MAX_PAGES
    : assertInteger(options.maxPages, 'maxPages', 1, 1_000);
}

/**
 * Reads pages 1, 2, … with `readPage` (each waits its turn in the request budget) and answers
 * every row. `more` on the answer is true when `maxPages` cut the list.
 */
export async function readSitePages<T>(
  readPage: (page: number, signal?: AbortSignal) => Promise<T[]>,
  options: SitePageOptions = {},
): Promise<RecordList<T>> {
  const maxPages = checkSitePageOptions(options);
  const rows: T[] = [];
  let previous: string | undefined;
  for (let page = 1; page <= maxPages; page++) {
    options.signal?.throwIfAborted();
    let items: T[];
    try {
      items = await readPage(page, options.signal);
    } catch (error) {
      if (page > 1 && error instanceof ApiError && error.status === 404) break;
      throw error;
    }
    // A site that answers every page past the end with the last one must not loop.
    const signature = JSON.stringify(items);
    if (items.length === 0 || signature === previous) break;
    previous = signature;
    rows.push(...items);
    options.onProgress?.({ items: rows.length, pages: page });
    if (page === maxPages) return RecordList.fromWindow(rows, { offset: 0, more: true });
  }
  return RecordList.fromWindow(rows, { offset: 0, more: false });
}
