/**
 * Lists the site serves as numbered pages (`?page=1`, `?page=2`, … of a fixed size, as the
 * forums do) read through a {@link PagedList}, whose walks ask for `{ limit, offset }` windows.
 */
import type { PageFetcher } from './paging.js';

/** Reads page `page` (from 1): its rows, `[]` past the last page. */
export type NumberedPageReader<T> = (page: number, signal?: AbortSignal) => Promise<T[]>;

/** Pages kept while a walk reads a window that straddles two of them. */
const CACHED_PAGES = 8;

/**
 * A {@link PageFetcher} over numbered pages of `pageSize` rows: a window is cut out of the pages
 * it covers. A page read for one window is kept for the next (windows that start mid-page share
 * one), and a page shorter than `pageSize` ends the list.
 */
export function numberedPages<T>(pageSize: number, read: NumberedPageReader<T>): PageFetcher<T> {
  // One cache per walk (each walk has its own signal): a page a finished walk aborted is never
  // handed to the next one.
  const caches = new WeakMap<object, Map<number, Promise<T[]>>>();
  const noSignal = {};
  const pageOf = (page: number, signal?: AbortSignal): Promise<T[]> => {
    const key = signal ?? noSignal;
    const cache = caches.get(key) ?? new Map<number, Promise<T[]>>();
    caches.set(key, cache);
    let rows = cache.get(page);
    if (!rows) {
      rows = read(page, signal);
      // A failed read is not kept: the next window asks again.
      rows.catch(() => cache.delete(page));
      cache.set(page, rows);
      if (cache.size > CACHED_PAGES) cache.delete(cache.keys().next().value!);
    }
    return rows;
  };
  return async (limit, offset, signal) => {
    const first = Math.floor(offset / pageSize) + 1;
    const last = Math.floor((offset + limit - 1) / pageSize) + 1;
    const rows: T[] = [];
    for (let page = first; page <= last; page++) {
      const pageRows = await pageOf(page, signal);
      rows.push(...pageRows);
      if (pageRows.length < pageSize) break;
    }
    const skip = offset - (first - 1) * pageSize;
    return rows.slice(skip, skip + limit);
  };
}
