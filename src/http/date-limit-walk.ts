/**
 * Paging by date, as the web client pages a studio's activity (WIRE.md §11.2): each request asks
 * for the rows at or before `dateLimit`, the oldest date seen so far, so consecutive pages overlap
 * and repeated ids are dropped. The walk is a {@link PageFetcher}, so it plugs into a
 * {@link PagedList}: `await` reads a window, `for await` walks on, both counting unique rows.
 */
import { MAX_PAGE_SIZE, type PageFetcher } from './paging.js';

/** Reads up to `limit` rows at or before `dateLimit` (all the newest when `undefined`), newest first. */
type DatePageReader<T> = (limit: number, dateLimit: string | undefined, signal?: AbortSignal) => Promise<T[]>;

/** What the walk reads of a row. */
interface DatedRow {
  id: string | number;
  datetime_created: string;
}

interface WalkState<T> {
  /** Rows read but not yet handed out. */
  buffer: T[];
  /** Unique rows handed out so far (the offset the next page starts at). */
  delivered: number;
  /** `dateLimit` of the next request. */
  cursor: string | undefined;
  /** Ids of the last two requests' rows: the only ones a next page can repeat. */
  recent: Set<string | number>[];
  done: boolean;
}

/**
 * A page fetcher that walks by `dateLimit` from `start` (the newest rows when left out). Pages
 * are read one after another (each needs the one before); asking for an offset the walk has
 * passed starts it over, one it has not reached reads on to it.
 */
export function dateLimitFetcher<T extends DatedRow>(
  read: DatePageReader<T>,
  start?: string,
): PageFetcher<T> {
  let state: WalkState<T> = fresh(start);
  let queue: Promise<unknown> = Promise.resolve();

  const readMore = async (wanted: number, signal?: AbortSignal) => {
    // One more than wanted after the first request: the boundary row comes again.
    const overlap = state.recent.length > 0 ? 1 : 0;
    const limit = Math.min(MAX_PAGE_SIZE, Math.max(1, wanted + overlap));
    const rows = await read(limit, state.cursor, signal);
    const seen = (id: string | number) => state.recent.some((ids) => ids.has(id));
    const unique = rows.filter((row) => !seen(row.id));
    state.recent = [new Set(rows.map((row) => row.id)), state.recent[0] ?? new Set()];
    state.buffer.push(...unique);
    const oldest = rows[rows.length - 1];
    if (rows.length < limit || !oldest) {
      state.done = true;
    } else if (unique.length === 0) {
      // A whole page of one instant: step past it (rows beyond a page at one instant cannot be read).
      state.cursor = new Date(Date.parse(oldest.datetime_created) - 1).toISOString();
    } else {
      state.cursor = oldest.datetime_created;
    }
  };

  const take = async (size: number, signal?: AbortSignal): Promise<T[]> => {
    while (state.buffer.length < size && !state.done) await readMore(size - state.buffer.length, signal);
    const rows = state.buffer.splice(0, size);
    state.delivered += rows.length;
    return rows;
  };

  return (limit, offset, signal) => {
    const page = queue.then(async () => {
      if (offset < state.delivered) state = fresh(start);
      while (state.delivered < offset) {
        const skipped = await take(Math.min(MAX_PAGE_SIZE, offset - state.delivered), signal);
        if (skipped.length === 0) return [];
      }
      return take(limit, signal);
    });
    // The next page waits for this one, whether it worked or not.
    queue = page.catch(() => undefined);
    return page;
  };
}

function fresh<T>(start: string | undefined): WalkState<T> {
  return { buffer: [], delivered: 0, cursor: start, recent: [], done: false };
}
