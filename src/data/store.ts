/**
 * `Store`: an embedded DuckDB database (a file, or memory) that platform data is loaded into,
 * queried with SQL, exported as Parquet, and that records cloud activity. Several processes use
 * one file at once: each holds it only while an operation runs (see `shared-file.ts`).
 *
 * ```ts
 * const store = await openStore('scratch.duckdb');
 * await store.load('projects', session.studios.projects(studioId));
 * const top = await store.sql`select title, "stats.views" from projects order by 2 desc limit ${10}`;
 * ```
 */
import { resolve } from 'node:path';
import { inspect } from 'node:util';
import type { Cloud } from '../cloud/cloud.js';
import { assertInteger, assertSeconds, describe } from '../records/validate.js';
import { RecordList } from '../rows/record-list.js';
import type { SavedFile } from '../rows/saved-file.js';
import { CloudRecorder, type RecordCloudOptions } from './cloud-recorder.js';
import { loadDuckDB } from './duckdb-module.js';
import { type ExportOptions, exportTo, type FileFormat, type ImportResult, importFrom } from './file-copy.js';
import type { LoadOptions, LoadResult } from './load.js';
import type { LoadSource } from './load-sources.js';
import { plainRow, toParameters } from './query-values.js';
import { assertKeepablePath, SharedFile } from './shared-file.js';
import { quoteName } from './sql-names.js';
import { statementOf } from './sql-template.js';
import { MOVES_TABLE, stagedLoad, sweepStaging } from './staged-load.js';
import { WALKS_TABLE } from './walk-progress.js';

/** A row of a query's answer. */
export type QueryRow = Record<string, unknown>;

/**
 * `T`, never inferred from where the answer goes (`plot(await sql`…`)` must not make `T` the
 * union of what `plot` takes). Spelled so that TypeScript 5.0 (tslab's) knows it too.
 */
type Named<T> = [T][T extends unknown ? 0 : never];

/** Options of {@link Store.query}. */
export interface QueryOptions {
  /** Most rows answered (default 1,000,000); a query answering more fails: aggregate, LIMIT or export it. */
  maxRows?: number;
}

/** The default most rows a query answers in memory. */
export const DEFAULT_MAX_ROWS = 1_000_000;

/** Options of a {@link Store}. */
export interface StoreOptions {
  /**
   * Seconds an operation waits for the file while other processes use it (default 30); past it,
   * it fails with a `StoreBusyError` naming the holder.
   */
  wait?: number;
}

/** The default seconds an operation waits for a file that other processes use. */
export const DEFAULT_WAIT = 30;

/** A table of the store, as {@link Store.tables} lists it. */
export interface TableInfo {
  name: string;
  rows: number;
  columns: number;
}

/** A DuckDB store (see the file's comment). Opened on first use; {@link openStore} opens it at once. */
export class Store {
  /** The database file (an absolute path), or `:memory:`. */
  readonly path: string;
  /** Seconds an operation waits for the file. */
  readonly wait: number;
  #opening: Promise<SharedFile> | undefined;
  #file: SharedFile | undefined;
  #closed = false;
  #closing: Promise<number> | undefined;
  readonly #recorders = new Set<CloudRecorder>();

  /**
   * The tagged template: ``store.sql`select … where name = ${name}` `` answers the rows as
   * {@link Store.query} does; the values become parameters, never text in the SQL.
   */
  readonly sql = <T = QueryRow>(
    strings: TemplateStringsArray,
    ...values: unknown[]
  ): Promise<RecordList<Named<T>>> => {
    const { text, params } = statementOf(strings, values);
    return this.query<T>(text, params);
  };

  /**
   * A store of `path` (default `:memory:`), opened on first use. A relative path is resolved now,
   * against the current folder: {@link Store.path} is absolute.
   */
  constructor(path = ':memory:', options: StoreOptions = {}) {
    if (typeof path !== 'string' || path === '')
      throw new TypeError(`path must be a file name or ":memory:", got ${describe(path)}`);
    if (options === null || typeof options !== 'object')
      throw new TypeError('store options must be an object');
    if (path !== ':memory:') {
      // Resolved once: a later chdir must not send the store to another file.
      path = resolve(path);
      // Refused now; a link to such a path is refused when the store opens.
      assertKeepablePath(path);
    }
    this.path = path;
    this.wait = assertSeconds(options.wait ?? DEFAULT_WAIT, 'wait');
  }

  /** Opens the database now (it opens on first use otherwise). */
  async open(): Promise<this> {
    const file = await this.#context();
    // Opened once now, so a file that cannot be opened (not a database, no folder) fails here.
    await file.use(async () => undefined);
    // Staging files of loads killed without `resume` go now, not at the next load (which may never come).
    await sweepStaging(file);
    return this;
  }

  /** Whether the store is open (its file is held only while an operation runs). */
  get isOpen(): boolean {
    return this.#file !== undefined && !this.#closed;
  }

  /**
   * Streams records into `table` (created when missing): a paged list page by page, a record
   * list, an array or any (async) iterable. Columns are the records' flat keys (`author.username`),
   * lists stay lists; types are inferred and widened when needed. With a key (default `id` when
   * the records have one) a reload updates rows instead of adding them; with `resume` a killed
   * walk goes on from where it stopped. The records are staged in a file of their own and move
   * into the table at the end, in one transaction. Answers how many records and pages were stored.
   */
  async load<T>(table: string, source: LoadSource<T>, options: LoadOptions = {}): Promise<LoadResult> {
    return stagedLoad(await this.#context(), table, source as LoadSource, options);
  }

  /**
   * Runs `sql` with parameters (`$1`… for a list, `$name` for an object) and answers the rows as
   * a record list of plain objects: BIGINT as a number when it is safe, else as text; timestamps
   * as `Date`. A table in the REPL and notebooks, a chart with `plot()`, `toCSV()` and `save()`.
   * `T` names the rows' shape for TypeScript (`query<{ n: number }>(…)`); it is not checked.
   * @throws RangeError when the answer has more than `maxRows` rows
   */
  async query<T = QueryRow>(
    sql: string,
    params: readonly unknown[] | Record<string, unknown> = [],
    options: QueryOptions = {},
  ): Promise<RecordList<Named<T>>> {
    if (typeof sql !== 'string' || sql.trim() === '') throw new TypeError('query() needs a SQL statement');
    const maxRows =
      options.maxRows === undefined ? DEFAULT_MAX_ROWS : assertInteger(options.maxRows, 'maxRows', 1);
    const file = await this.#context();
    const values = toParameters(file.duck, params);
    const rows = await file.use(async (connection) => {
      const reader = await connection.streamAndReadUntil(sql, maxRows + 1, values);
      if (reader.currentRowCount > maxRows) {
        throw new RangeError(
          `the query answers more than ${maxRows} rows: aggregate it, add a LIMIT, raise maxRows, or export() it to a file`,
        );
      }
      // Not getRowObjectsJS: it assigns row[name], and a column named __proto__ vanished.
      const names = reader.columnNames();
      return reader
        .getRowsJS()
        .map((values) => Object.fromEntries(names.map((name, i) => [name, values[i]])) as QueryRow);
    });
    for (const row of rows) plainRow(row);
    // The rows' shape is the caller's to name (`sql<{ n: number }>`…``): SQL says it, not TypeScript.
    return RecordList.fromWindow(rows as unknown as Named<T>[]);
  }

  /** The tables of the store with their row and column counts (the store's own bookkeeping left out). */
  async tables(): Promise<RecordList<TableInfo>> {
    const file = await this.#context();
    const infos = await file.use(async (connection) => {
      const tables = await connection.runAndReadAll(
        `SELECT table_name, column_count FROM duckdb_tables()
         WHERE schema_name = current_schema() AND NOT temporary AND table_name NOT IN ($1, $2) ORDER BY table_name`,
        [WALKS_TABLE, MOVES_TABLE],
      );
      const found: TableInfo[] = [];
      for (const [name, columns] of tables.getRowsJS() as [string, bigint][]) {
        // An exact count (DuckDB's estimate counts deleted rows too): cheap, from the table's metadata.
        const count = await connection.runAndReadAll(`SELECT count(*) FROM ${quoteName(name)}`);
        found.push({ name, rows: Number(count.getRowsJS()[0]![0]), columns: Number(columns) });
      }
      return found;
    });
    return RecordList.fromWindow(infos);
  }

  /**
   * Writes the table `table` to `file`: `.parquet`, `.csv`, `.json` (an array) or `.jsonl`, whole
   * or not at all. With `partitionBy`, `file` is a folder of Hive partitions. `table` is always a
   * name, never SQL: the rows of a query go out with {@link Store.exportQuery}.
   */
  async export(table: string, file: string, options: ExportOptions = {}): Promise<SavedFile> {
    return exportTo(await this.#context(), { table }, file, options);
  }

  /**
   * Writes the rows of the query `sql` (with parameters, as {@link Store.query} takes them) to
   * `file`, as {@link Store.export} writes a table.
   */
  async exportQuery(
    sql: string,
    file: string,
    options: ExportOptions & { params?: readonly unknown[] | Record<string, unknown> } = {},
  ): Promise<SavedFile> {
    if (options === null || typeof options !== 'object')
      throw new TypeError('export options must be an object');
    const { params = [], ...rest } = options;
    return exportTo(await this.#context(), { sql, params }, file, rest);
  }

  /**
   * Reads a `.parquet`, `.csv`, `.json` or `.jsonl` file (or a partitioned folder) into `table`:
   * created when missing, else the rows are added by column name.
   */
  async import(file: string, table: string, options: { format?: FileFormat } = {}): Promise<ImportResult> {
    return importFrom(await this.#context(), file, table, options);
  }

  /**
   * Records a project's cloud activity into `table` (default `cloud_activity`): live `set`
   * events and, where the host has a log, its entries, merged without duplicates. A restart goes
   * on from the last stored log entry. Answers the running recorder (`stop()`, live counts).
   *
   * A cloud that is not connected yet (`store.recordCloud(session.cloud(id))`) is the recorder's:
   * it connects it and its `stop()` (or this store's `close()`) disconnects it, once no other
   * recorder (of this store or another) records from it. A cloud already connected stays
   * connected after `stop()`; its owner disconnects it.
   */
  async recordCloud(cloud: Cloud, options: RecordCloudOptions = {}): Promise<CloudRecorder> {
    const recorder = new CloudRecorder(await this.#context(), cloud, options);
    this.#recorders.add(recorder);
    await recorder.start();
    return recorder;
  }

  /** The recorders started on this store that have not been closed with it. */
  get recorders(): readonly CloudRecorder[] {
    return [...this.#recorders];
  }

  /**
   * Stops running recorders (each stores what it received first), waits for queued work and
   * closes the store. Answers how many received sets the recorders did not store (0: all of it):
   * those a last write could not store, and those dropped while the file stayed busy (each
   * recorder's `pending` and `dropped` tell them apart).
   */
  close(): Promise<number> {
    // A second call (at once, or later) answers when the first has closed the store.
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<number> {
    await Promise.all([...this.#recorders].map((recorder) => recorder.stop()));
    const unstored = [...this.#recorders].reduce(
      (sum, recorder) => sum + recorder.pending + recorder.dropped,
      0,
    );
    this.#recorders.clear();
    this.#closed = true;
    const opening = this.#opening;
    if (!opening) return unstored;
    const file = await opening.catch(() => undefined);
    await file?.close();
    return unstored;
  }

  [inspect.custom](): string {
    const state = this.#closed ? 'closed' : this.#file ? 'open' : 'opens on first use';
    return `Store { path: ${JSON.stringify(this.path)}, ${state} }`;
  }

  #context(): Promise<SharedFile> {
    if (this.#closed) return Promise.reject(new Error(`the store ${this.path} is closed`));
    this.#opening ??= this.#connect().catch((error: unknown) => {
      this.#opening = undefined;
      throw error;
    });
    return this.#opening;
  }

  async #connect(): Promise<SharedFile> {
    // Joins this process's open of the file; nothing waits here: each call waits its own wait.
    const file = await SharedFile.open(await loadDuckDB(), this.path, this.wait * 1000);
    this.#file = file;
    return file;
  }
}

/**
 * Opens a DuckDB store: the file `path` (created when missing), or an in-memory database when no
 * path is given. Needs `@duckdb/node-api` installed beside scratchlab.
 * @throws MissingDuckDBError naming the install command when it is not
 */
export async function openStore(path = ':memory:', options: StoreOptions = {}): Promise<Store> {
  return new Store(path, options).open();
}
