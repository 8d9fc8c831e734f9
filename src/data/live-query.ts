/**
 * `LiveQuery`: a query of the store asked again every `every` seconds (default 2), for a chart that
 * moves as rows arrive from any process (a `scratchlab record` in a terminal, another notebook).
 * One query at a time; the front end hears only of answers that changed. Either a SQL query with
 * parameters, or a stored table with a time window (rows per time bucket over the last `window`
 * seconds, the window moving with the clock).
 */
import { createHash } from 'node:crypto';
import {
  assertFunction,
  assertInteger,
  assertSeconds,
  describe,
  MAX_TIMER_SECONDS,
} from '../records/validate.js';
import { RecordList } from '../rows/record-list.js';
import { checkTableName, quoteName } from './sql-names.js';
import type { QueryRow, Store } from './store.js';

/** What a live query asks: `sql` (with `params`), or `table` with a time window. */
export interface LiveQueryOptions {
  /** The query (its answer is drawn as `plot()` draws rows: a time column and numbers make lines). */
  sql?: string;
  /** Parameters of `sql` (`$1`… for a list, `$name` for an object). */
  params?: readonly unknown[] | Record<string, unknown>;
  /** A stored table instead of `sql`: its rows per time bucket over the last `window` seconds. */
  table?: string;
  /** The table's time column (default `timestamp`). */
  time?: string;
  /** Seconds of history of `table` (default 6 hours), in about 120 buckets. */
  window?: number;
  /** Seconds between two queries (default 2, at least 0.2). */
  every?: number;
  /** Most rows an answer may have (default 100,000). */
  maxRows?: number;
}

/** The default seconds between two queries of a live query. */
export const DEFAULT_EVERY = 2;
const DEFAULT_WINDOW = 6 * 3600;
/** The longest window: a hundred years (a longer one makes no time the database can hold). */
const MAX_WINDOW = 100 * 365 * 86_400;
const DEFAULT_LIVE_ROWS = 100_000;

/** Whether `value` asks for a live query (`{ sql }` or `{ table }`) rather than naming a cloud. */
export function isLiveQuery(value: unknown): value is LiveQueryOptions {
  return (
    value !== null &&
    typeof value === 'object' &&
    ('sql' in value || 'table' in value) &&
    typeof (value as { on?: unknown }).on !== 'function'
  );
}

/** A query asked again and again (see the file's comment). */
export class LiveQuery {
  /** Seconds between two queries. */
  readonly every: number;
  /** What is drawn, in a few words (`cloud_activity, last 6 h` or the query's start). */
  readonly label: string;
  readonly #store: Store;
  readonly #statement: () => { sql: string; params: readonly unknown[] | Record<string, unknown> };
  readonly #maxRows: number;
  readonly #onRows: () => void;
  #rows: RecordList<QueryRow> = RecordList.fromWindow([]);
  #fingerprint = '';
  #error: string | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #running = false;
  #asking: Promise<void> | null = null;

  /** Checks the options; nothing is asked before {@link LiveQuery.start}. */
  constructor(store: Store, options: LiveQueryOptions, onRows: () => void) {
    if (!isLiveQuery(options))
      throw new TypeError('a live query needs { sql: "select …" } or { table: "name" }');
    assertFunction(onRows, 'onRows');
    this.#store = store;
    this.#onRows = onRows;
    this.every = assertSeconds(options.every ?? DEFAULT_EVERY, 'every', 0, MAX_TIMER_SECONDS);
    if (this.every < 0.2) throw new RangeError(`every must be at least 0.2 seconds, got ${this.every}`);
    this.#maxRows =
      options.maxRows === undefined
        ? DEFAULT_LIVE_ROWS
        : assertInteger(options.maxRows, 'maxRows', 1, 1_000_000);
    if (options.sql !== undefined) {
      if (typeof options.sql !== 'string' || options.sql.trim() === '')
        throw new TypeError(`sql must be a SQL query, got ${describe(options.sql)}`);
      if (options.table !== undefined) throw new TypeError('a live query takes sql or table, not both');
      const { sql } = options;
      const params = options.params ?? [];
      this.#statement = () => ({ sql, params });
      const flat = sql.replace(/\s+/g, ' ').trim();
      this.label = flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
    } else {
      const table = checkTableName(options.table);
      const time = quoteName(options.time ?? 'timestamp');
      const window = assertSeconds(options.window ?? DEFAULT_WINDOW, 'window', 0, MAX_WINDOW);
      if (window === 0) throw new RangeError('window must be a number of seconds above 0');
      const bucket = Math.max(1, Math.round(window / 120));
      // The cut-off is a parameter computed at each query: the window moves with the clock.
      const sql = `SELECT time_bucket(INTERVAL ${bucket} SECOND, ${time}) AS "time", count(*) AS "rows"
        FROM ${quoteName(table)} WHERE ${time} >= $1 GROUP BY 1 ORDER BY 1`;
      this.#statement = () => ({ sql, params: [new Date(Date.now() - window * 1000)] });
      this.label = `${table}, last ${window >= 3600 ? `${+(window / 3600).toFixed(1)} h` : `${window} s`}`;
    }
  }

  /** The latest answer. */
  get rows(): RecordList<QueryRow> {
    return this.#rows;
  }

  /** Why the latest query failed (the last answer stays), or null. */
  get error(): string | null {
    return this.#error;
  }

  /** Whether it is still asking. */
  get running(): boolean {
    return this.#running;
  }

  /**
   * Asks the first time, then every `every` s. Rejects when the first query fails (a wrong query
   * is told at once), except for a table not made yet: a recorder in another process may be
   * about to make it, so that is shown as the query's `error` until it is there.
   */
  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    const { sql, params } = this.#statement();
    try {
      this.#take(await this.#store.query(sql, params, { maxRows: this.#maxRows }));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!/Table with name .* does not exist/.test(message)) {
        this.#running = false;
        throw error;
      }
      this.#error = message;
      this.#onRows();
    }
    this.#next();
  }

  /** Stops asking; waits for a query under way. The last answer stays. */
  async stop(): Promise<void> {
    this.#running = false;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#asking;
  }

  #next(): void {
    if (!this.#running) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#asking = this.#ask().finally(() => {
        this.#asking = null;
        this.#next();
      });
    }, this.every * 1000);
  }

  async #ask(): Promise<void> {
    const { sql, params } = this.#statement();
    try {
      const rows = await this.#store.query(sql, params, { maxRows: this.#maxRows });
      const hadError = this.#error !== null;
      this.#error = null;
      if (!this.#take(rows) && hadError) this.#onRows();
    } catch (error) {
      // Kept on screen beside the last answer; the next query may well work (a table not made yet).
      this.#error = error instanceof Error ? error.message : String(error);
      this.#onRows();
    }
  }

  /** Keeps `rows`; tells the front end when they differ from the last answer. */
  #take(rows: RecordList<QueryRow>): boolean {
    const fingerprint = createHash('sha1')
      .update(
        JSON.stringify(rows, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value)),
      )
      .digest('hex');
    if (fingerprint === this.#fingerprint) return false;
    this.#fingerprint = fingerprint;
    this.#rows = rows;
    if (this.#running) this.#onRows();
    return true;
  }
}
