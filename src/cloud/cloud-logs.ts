/**
 * A project's cloud log over HTTP (WIRE.md §6): `GET {cloudHttp}/logs?projectid&limit&offset`,
 * newest first, read through the same {@link PagedList} as the REST lists, 100 rows a request.
 */
import { ApiError } from '../errors.js';
import { PagedList, type PageOptions, type RateLimitWatch, type WalkOptions } from '../http/paging.js';
import type { CloudLogEntry, CloudLogRow, CloudVerb } from '../records/records.js';
import { checkName, stripPrefix } from './cloud-values.js';

/** The logs endpoint's cap on `limit` (and its default): one request reads at most this many rows. */
export const LOGS_PAGE_SIZE = 100;

/** Which entries `cloud.logs()` reads. */
export interface CloudLogOptions extends PageOptions, WalkOptions {
  /** Only the entries of this variable (name with or without `☁ `); filtered on the client. */
  variable?: string;
}

/** Reads one raw page: at most {@link LOGS_PAGE_SIZE} rows from `offset`. */
type RawLogFetcher = (limit: number, offset: number, signal?: AbortSignal) => Promise<unknown>;

const VERBS: Record<CloudLogRow['verb'], CloudVerb> = {
  set_var: 'set',
  create_var: 'create',
  del_var: 'delete',
  rename_var: 'rename',
};

/**
 * Maps one wire row to an entry: verb `set_var` → `set` and so on, name without `☁ `,
 * value as a string. Throws {@link ApiError} for a row the client cannot read.
 */
function toLogEntry(row: unknown, url: string): CloudLogEntry {
  const record = row !== null && typeof row === 'object' ? (row as Record<string, unknown>) : undefined;
  const verb =
    record && typeof record.verb === 'string' ? VERBS[record.verb as CloudLogRow['verb']] : undefined;
  if (
    !record ||
    !verb ||
    typeof record.user !== 'string' ||
    typeof record.name !== 'string' ||
    (typeof record.value !== 'string' && typeof record.value !== 'number') ||
    typeof record.timestamp !== 'number'
  ) {
    throw new ApiError({
      status: 200,
      url,
      method: 'GET',
      body: row,
      reason: 'the logs endpoint answered a row the client cannot read',
    });
  }
  return {
    user: record.user,
    verb,
    name: stripPrefix(record.name),
    value: String(record.value),
    timestamp: record.timestamp,
  };
}

/** Reads a page and checks that the answer is an array of rows. */
async function readPage(
  fetchRaw: RawLogFetcher,
  url: string,
  limit: number,
  offset: number,
  signal?: AbortSignal,
): Promise<CloudLogEntry[]> {
  const answer = await fetchRaw(limit, offset, signal);
  if (!Array.isArray(answer)) {
    throw new ApiError({
      status: 200,
      url,
      method: 'GET',
      body: answer,
      reason: 'the logs endpoint did not answer an array',
    });
  }
  return answer.map((row) => toLogEntry(row, url));
}

/**
 * The log as a paged list. Without `variable` each page is one request. With `variable`, limit and
 * offset count matching entries: the raw log is scanned from the newest entry, one page at a time,
 * and the matches are kept for the life of the list so a walk never reads a page twice.
 */
export function cloudLogList(
  fetchRaw: RawLogFetcher,
  url: string,
  options: CloudLogOptions = {},
  watchRateLimits?: RateLimitWatch,
): PagedList<CloudLogEntry> {
  const { variable, limit, offset, ...walk } = options;
  const settings = { pageSize: LOGS_PAGE_SIZE, watchRateLimits };
  if (variable === undefined) {
    return new PagedList(
      (size, from, signal) => readPage(fetchRaw, url, size, from, signal),
      { limit, offset },
      walk,
      settings,
    );
  }
  const name = checkName(variable, 'variable');
  const matches: CloudLogEntry[] = [];
  let scanned = 0;
  let ended = false;
  let scanning: Promise<void> | null = null;
  const scanMore = async (signal?: AbortSignal) => {
    const page = await readPage(fetchRaw, url, LOGS_PAGE_SIZE, scanned, signal);
    scanned += page.length;
    if (page.length < LOGS_PAGE_SIZE) ended = true;
    for (const entry of page) if (entry.name === name) matches.push(entry);
  };
  return new PagedList(
    async (size, from, signal) => {
      // Page requests of one list may overlap: one scan at a time extends the shared matches.
      while (matches.length < from + size && !ended) {
        scanning ??= scanMore(signal).finally(() => {
          scanning = null;
        });
        await scanning;
      }
      return matches.slice(from, from + size);
    },
    { limit, offset },
    walk,
    settings,
  );
}
