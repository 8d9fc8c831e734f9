/**
 * What `store.load()` reads, as batches: a {@link PagedList} page by page (a resumed walk starts
 * at the first row not yet stored, without reading the pages before it), an array (a record
 * list too) in slices, any other (async) iterable in chunks.
 */
import { PagedList } from '../http/paging.js';
import { kListWindow, type ListWindow } from '../rows/list-window.js';

/** Records of a batch, and whose list they come from (it names the author of a user's own rows). */
interface SourceBatch {
  records: readonly unknown[];
  owner?: string;
}

/** What `load` accepts. */
export type LoadSource<T = unknown> = PagedList<T> | readonly T[] | Iterable<T> | AsyncIterable<T>;

/** Records per batch of a source that has no pages of its own. */
export const DEFAULT_BATCH_SIZE = 5000;

function isAsyncIterable(value: object): value is AsyncIterable<unknown> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';
}

function isIterable(value: object): value is Iterable<unknown> {
  return typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
}

/** Checks `source` before anything is written. */
export function checkSource(source: unknown): asserts source is LoadSource {
  if (
    source === null ||
    typeof source !== 'object' ||
    !(source instanceof PagedList || isAsyncIterable(source) || isIterable(source))
  ) {
    throw new TypeError(
      'load() takes a paged list (e.g. session.studios.projects(id)), a record list, an array or an iterable of records',
    );
  }
}

/** The batches of `source`, without its first `skip` records. */
export async function* batchesOf(
  source: LoadSource,
  skip: number,
  batchSize: number,
  signal?: AbortSignal,
): AsyncGenerator<SourceBatch> {
  if (source instanceof PagedList) {
    const owner = source.owner;
    for await (const page of source.skip(skip).pages({ signal })) yield { records: page, owner };
    return;
  }
  if (Array.isArray(source)) {
    const owner = (source as { [kListWindow]?: ListWindow })[kListWindow]?.owner;
    for (let start = skip; start < source.length; start += batchSize) {
      signal?.throwIfAborted();
      yield { records: source.slice(start, start + batchSize), owner };
    }
    return;
  }
  // Any other iterable can only be read from its start: the records already stored are passed over.
  // A sync iterable is read synchronously: `for await` would cost a promise per record.
  const records: Iterable<unknown> | AsyncIterable<unknown> = source;
  let passed = 0;
  let batch: unknown[] = [];
  const take = (record: unknown): boolean => {
    if (passed < skip) {
      passed++;
      return false;
    }
    batch.push(record);
    return batch.length >= batchSize;
  };
  if (isIterable(records)) {
    for (const record of records) {
      if (!take(record)) continue;
      signal?.throwIfAborted();
      yield { records: batch };
      batch = [];
    }
  } else {
    for await (const record of records) {
      if (!take(record)) continue;
      signal?.throwIfAborted();
      yield { records: batch };
      batch = [];
    }
  }
  if (batch.length > 0) yield { records: batch };
}
