/**
 * `Store`: an embedded DuckDB database (a file, or memory) that platform data is loaded into,
 * queried with SQL, exported as Parquet, and that records cloud activity.
 *
 * ```ts
 * const store = await openStore('scratch.duckdb');
 * await store.load('projects', session.studios.projects(studioId));
 * const top = await store.sql`select title, "stats.views" from projects order by 2 desc limit ${10}`;
 * ```
 */
import { inspect } from 'node:util';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { Cloud } from '../cloud/cloud.js';
import { assertInteger, describe } from '../records/validate.js';
import { RecordList } from '../rows/record-list.js';
import type { SavedFile } from '../rows/saved-file.js';
import { CloudRecorder, type RecordCloudOptions } from './cloud-recorder.js';
import { type DuckDB, loadDuckDB } from './duckdb-module.js';
import { type ExportOptions, exportTo, type FileFormat, type ImportResult, importFrom } from './file-copy.js';
import { type LoadOptions, type LoadResult, loadInto } from './load.js';
import type { LoadSource } from './load-sources.js';
import { plainRow, toParameters } from './query-values.js';
import { Serial } from './serial.js';
import { quoteName } from './sql-names.js';
import { statementOf } from './sql-template.js';
import type { StoreContext } from './store-context.js';
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

/** A table of the store, as {@link Store.tables} lists it. */
export interface TableInfo {
  name: string;
  rows: number;
  columns: number;
}

/** A DuckDB store (see the file's comment). Opened on first use; {@link openStore} opens it at once. */
export class Store {
  /** The database file, or `:memory:`. */
  readonly path: string;
  readonly #serial = new Serial();
  #opening: Promise<StoreContext> | undefined;
  #instance: DuckDBInstance | undefined;
  #connection: DuckDBConnection | undefined;
  #closed = false;
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

  /** A store of `path` (default `:memory:`), opened on first use. */
  constructor(path = ':memory:') {
    if (typeof path !== 'string' || path === '')
      throw new TypeError(`path must be a file name or ":memory:", got ${describe(path)}`);
    this.path = path;
  }

  /** Opens the database now (it opens on first use otherwise). */
  async open(): Promise<this> {
    await this.#context();
    return this;
  }

  /** Whether the database is open. */
  get isOpen(): boolean {
    return this.#connection !== undefined && !this.#closed;
  }

  /**
   * Streams records into `table` (created when missing): a paged list page by page, a record
   * list, an array or any (async) iterable. Columns are the records' flat keys (`author.username`),
   * lists stay lists; types are inferred and widened when needed. With a key (default `id` when
   * the records have one) a reload updates rows instead of adding them; with `resume` a killed
   * walk goes on from where it stopped. Answers how many records and pages were stored.
   */
  async load<T>(table: string, source: LoadSource<T>, options: LoadOptions = {}): Promise<LoadResult> {
    return loadInto(await this.#context(), table, source as LoadSource, options);
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
    const context = await this.#context();
    const values = toParameters(context.duck, params);
    const rows = await context.serial.run(async () => {
      const reader = await context.connection.streamAndReadUntil(sql, maxRows + 1, values);
      if (reader.currentRowCount > maxRows) {
        throw new RangeError(
          `the query answers more than ${maxRows} rows: aggregate it, add a LIMIT, raise maxRows, or export() it to a file`,
        );
      }
      return reader.getRowObjectsJS() as QueryRow[];
    });
    for (const row of rows) plainRow(row);
    // The rows' shape is the caller's to name (`sql<{ n: number }>`…``): SQL says it, not TypeScript.
    return RecordList.fromWindow(rows as unknown as Named<T>[]);
  }

  /** The tables of the store with their row and column counts (the store's own bookkeeping left out). */
  async tables(): Promise<RecordList<TableInfo>> {
    const tables = await this.query(
      `SELECT table_name AS name, column_count AS columns FROM duckdb_tables()
       WHERE schema_name = current_schema() AND NOT temporary AND table_name <> $1 ORDER BY table_name`,
      [WALKS_TABLE],
    );
    const infos: TableInfo[] = [];
    for (const { name, columns } of tables as unknown as { name: string; columns: number }[]) {
      // An exact count (DuckDB's estimate counts deleted rows too): cheap, from the table's metadata.
      const [{ rows }] = (await this.query(`SELECT count(*) AS rows FROM ${quoteName(name)}`)) as unknown as [
        { rows: number },
      ];
      infos.push({ name, rows, columns });
    }
    return RecordList.fromWindow(infos);
  }

  /**
   * Writes a table, or the rows of a SELECT, to `file`: `.parquet`, `.csv`, `.json` (an array) or
   * `.jsonl`, whole or not at all. With `partitionBy`, `file` is a folder of Hive partitions.
   */
  async export(tableOrSelect: string, file: string, options: ExportOptions = {}): Promise<SavedFile> {
    return exportTo(await this.#context(), tableOrSelect, file, options);
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
   */
  async recordCloud(cloud: Cloud, options: RecordCloudOptions = {}): Promise<CloudRecorder> {
    const recorder = new CloudRecorder(await this.#context(), cloud, options);
    this.#recorders.add(recorder);
    recorder.once('stopped', () => this.#recorders.delete(recorder));
    await recorder.start();
    return recorder;
  }

  /** Stops running recorders and closes the database (everything stored is on disk). */
  async close(): Promise<void> {
    if (this.#closed) return;
    await Promise.all([...this.#recorders].map((recorder) => recorder.stop()));
    this.#closed = true;
    const opening = this.#opening;
    if (!opening) return;
    await opening.catch(() => undefined);
    await this.#serial.run(async () => {
      this.#connection?.closeSync();
      this.#instance?.closeSync();
    });
  }

  [inspect.custom](): string {
    const state = this.#closed ? 'closed' : this.#connection ? 'open' : 'opens on first use';
    return `Store { path: ${JSON.stringify(this.path)}, ${state} }`;
  }

  #context(): Promise<StoreContext> {
    if (this.#closed) return Promise.reject(new Error(`the store ${this.path} is closed`));
    this.#opening ??= this.#connect().catch((error: unknown) => {
      this.#opening = undefined;
      throw error;
    });
    return this.#opening;
  }

  async #connect(): Promise<StoreContext> {
    const duck: DuckDB = await loadDuckDB();
    try {
      this.#instance = await duck.DuckDBInstance.create(this.path);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/lock/i.test(message)) {
        throw new Error(
          `${this.path} is open in another process (DuckDB lets one process write a file): stop it, or use another file`,
          { cause: error },
        );
      }
      throw error;
    }
    const instance = this.#instance;
    this.#connection = await instance.connect();
    return { duck, connection: this.#connection, serial: this.#serial, connect: () => instance.connect() };
  }
}

/**
 * Opens a DuckDB store: the file `path` (created when missing), or an in-memory database when no
 * path is given. Needs `@duckdb/node-api` installed beside scratchlab.
 * @throws MissingDuckDBError naming the install command when it is not
 */
export async function openStore(path = ':memory:'): Promise<Store> {
  return new Store(path).open();
}
