/**
 * `store.load()`: records streamed into a table through DuckDB's appender, a batch (a page of a
 * paged list, or a slice of an array or iterable) at a time, so memory holds one batch whatever
 * the size of the walk. A load has a connection of its own: queries go on while it runs, and see
 * its rows once committed. Without `resume` the whole load is one transaction (all or nothing);
 * with it, each batch is.
 *
 * - Columns are the records' flat keys (`author.username`), lists stay lists; types come from the
 *   first batch and are widened when a later value does not fit (see `column-types.ts`).
 * - With a key (default `id` when the records have one) a batch replaces the rows that have the
 *   same keys: it is appended to a staging table, then moved over in the batch's transaction.
 * - With `resume`, each transaction also stores how many records the walk has stored, so a walk
 *   that was killed goes on from the next record (see `walk-progress.ts`).
 */
import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import { assertFunction, assertInteger, describe } from '../records/validate.js';
import { type FlatRecord, toFlatRecord } from '../rows/flat-rows.js';
import type { DuckDB } from './duckdb-module.js';
import { batchesOf, checkSource, DEFAULT_BATCH_SIZE, type LoadSource } from './load-sources.js';
import { checkTableName, quoteName } from './sql-names.js';
import type { StoreContext } from './store-context.js';
import { applyChange, type Column, isEmptyChange, planChange, readColumns } from './table-schema.js';
import { type ValueWriter, writerFor } from './value-writers.js';
import { ensureWalksTable, forgetWalk, readWalk, saveWalk } from './walk-progress.js';

/** How far a load has come. */
export interface LoadProgress {
  /** Records stored by this call so far. */
  rows: number;
  /** Pages (batches) stored by this call so far. */
  pages: number;
  /** True on the last report. */
  done: boolean;
}

/** Options of `store.load()`. */
export interface LoadOptions {
  /**
   * The column that identifies a record (a flat name, e.g. `id` or `author.id`): a row whose key
   * is already in the table replaces it. Default `id` when the records have one; `false` appends.
   */
  key?: string | false;
  /**
   * Go on from where a killed load of the same walk stopped. `true` names the walk after the
   * table; a text names one of several walks into one table (e.g. `followers of alice`).
   */
  resume?: boolean | string;
  /** Called after every stored batch. */
  onProgress?: (progress: LoadProgress) => void;
  /** Records per batch of an array or iterable (default 5000; a paged list's batch is its page). */
  batchSize?: number;
  signal?: AbortSignal;
}

/** What a load did. */
export interface LoadResult {
  /** Records stored by this call. */
  rows: number;
  /** Pages (batches) stored by this call. */
  pages: number;
  /** Records of the walk stored before this call (a resumed load), else 0. */
  resumedFrom: number;
}

interface Checked {
  key: string | false | undefined;
  walk: string | null;
  onProgress?: (progress: LoadProgress) => void;
  batchSize: number;
  signal?: AbortSignal;
}

function checkOptions(table: string, options: LoadOptions): Checked {
  if (options === null || typeof options !== 'object') throw new TypeError('load options must be an object');
  const { key, resume, onProgress, batchSize, signal } = options;
  if (key !== undefined && key !== false && (typeof key !== 'string' || key === '')) {
    throw new TypeError(`key must be a column name or false, got ${describe(key)}`);
  }
  if (resume !== undefined && typeof resume !== 'boolean' && (typeof resume !== 'string' || resume === '')) {
    throw new TypeError(`resume must be true, false or the name of a walk, got ${describe(resume)}`);
  }
  if (onProgress !== undefined) assertFunction(onProgress, 'onProgress');
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw new TypeError('signal must be an AbortSignal');
  return {
    key,
    walk: resume === true ? table : typeof resume === 'string' ? resume : null,
    onProgress,
    batchSize:
      batchSize === undefined ? DEFAULT_BATCH_SIZE : assertInteger(batchSize, 'batchSize', 1, 1_000_000),
    signal,
  };
}

/** The later of two rows with the same key wins, in the order they came. */
function lastByKey(rows: FlatRecord[], key: string): FlatRecord[] {
  const byKey = new Map<unknown, FlatRecord>();
  for (const row of rows) {
    const value = row[key];
    if (value === null || value === undefined) {
      throw new TypeError(
        `a record has no "${key}", the key of this load: pass another key, or key: false to append`,
      );
    }
    byKey.set(value instanceof Date ? value.getTime() : value, row);
  }
  return byKey.size === rows.length ? rows : [...byKey.values()];
}

/** The least and greatest key of a table or a batch (numbers or texts, compared as such). */
interface KeyRange {
  min: number | string;
  max: number | string;
}

/** A key as a number or text to compare, or null for a key of another kind. */
function comparable(value: unknown): number | string | null {
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.getTime();
  return null;
}

/** The key range of a batch; null when its keys are not all numbers or all texts. */
function rangeOf(rows: readonly FlatRecord[], key: string): KeyRange | null {
  let min: number | string | null = null;
  let max: number | string | null = null;
  for (const row of rows) {
    const value = comparable(row[key]);
    if (value === null || (min !== null && typeof value !== typeof min)) return null;
    if (min === null || value < min) min = value;
    if (max === null || value > max) max = value;
  }
  return min === null || max === null ? null : { min, max };
}

/** One table's load: its columns, writers and appender, kept across batches until the table changes. */
/** What a table's load works with: DuckDB and the load's own connection. */
interface LoadConnection {
  duck: DuckDB;
  connection: DuckDBConnection;
}

class TableLoader {
  readonly #context: LoadConnection;
  /** The whole load is one transaction (opened by the caller); else each batch is its own. */
  readonly #oneTransaction: boolean;
  readonly #table: string;
  #columns: Column[] | null = null;
  #writers: ValueWriter[] = [];
  /** Open appenders by table (the table itself, its staging table). */
  readonly #appenders = new Map<string, DuckDBAppender>();
  #staging: string | null = null;
  /**
   * The least and greatest key in the table, while known: a batch whose keys all lie outside
   * them replaces nothing and is appended straight into the table (a fresh crawl in key order
   * never pays for the lookup of existing keys).
   */
  #keyRange: KeyRange | null | 'unknown' = null;
  static #stagings = 0;

  constructor(context: LoadConnection, table: string, oneTransaction: boolean) {
    this.#context = context;
    this.#table = table;
    this.#oneTransaction = oneTransaction;
  }

  async start(): Promise<void> {
    this.#columns = await readColumns(this.#context.connection, this.#table);
    this.#writers = (this.#columns ?? []).map((column) => writerFor(this.#context.duck, column.type));
  }

  /** Reads the key range of the table (once, when the load's key is known). */
  async #readKeyRange(key: string): Promise<void> {
    if (this.#keyRange !== null || this.#columns === null) return;
    if (!this.hasColumn(key)) return;
    const reader = await this.#context.connection.runAndReadAll(
      `SELECT min(${quoteName(key)}), max(${quoteName(key)}) FROM ${quoteName(this.#table)}`,
    );
    const [min, max] = reader.getRowsJS()[0] as [unknown, unknown];
    if (min === null || min === undefined) return; // empty: every batch is outside
    const range = { min: comparable(min), max: comparable(max) };
    this.#keyRange = range.min === null || range.max === null ? 'unknown' : (range as KeyRange);
  }

  hasColumn(name: string): boolean {
    return this.#columns?.some((column) => column.name === name) ?? false;
  }

  /** Stores one batch (and the walk's progress) in one transaction. */
  async write(rows: FlatRecord[], key: string | null, progress: () => Promise<void>): Promise<void> {
    const { connection } = this.#context;
    const change = planChange(this.#columns ?? [], rows);
    if (this.#columns === null && change.add.length === 0) {
      // Nothing but nulls so far: the table waits for a value that tells a type.
      await progress();
      return;
    }
    if (!isEmptyChange(change) || this.#columns === null) {
      this.#closeAppender();
      await this.#dropStaging();
      this.#columns = await applyChange(connection, this.#table, this.#columns, change);
      this.#writers = this.#columns.map((column) => writerFor(this.#context.duck, column.type));
    }
    const columns = this.#columns!;
    if (key !== null && !columns.some((column) => column.name === key)) {
      throw new TypeError(`the key column "${key}" is not among the records' columns`);
    }
    let direct = key === null;
    if (key !== null) {
      await this.#readKeyRange(key);
      direct = this.#outsideKnownKeys(rangeOf(rows, key));
    }
    if (!direct && key !== null) {
      // Staging sits outside the transaction (a temporary table); the move into the table is in it.
      const staging = await this.#stagingTable();
      this.#append(await this.#appenderOn(staging), rows, columns);
      const list = columns.map((column) => quoteName(column.name)).join(', ');
      const table = quoteName(this.#table);
      await this.#transaction(async () => {
        await connection.run(
          `DELETE FROM ${table} WHERE ${quoteName(key)} IN (SELECT ${quoteName(key)} FROM ${quoteName(staging)})`,
        );
        await connection.run(`INSERT INTO ${table} (${list}) SELECT ${list} FROM ${quoteName(staging)}`);
        await connection.run(`DELETE FROM ${quoteName(staging)}`);
        await progress();
      });
    } else {
      await this.#transaction(async () => {
        this.#append(await this.#appenderOn(this.#table), rows, columns);
        await progress();
      });
    }
  }

  /**
   * Whether a batch's keys all lie outside the keys of the table (so it replaces nothing), and
   * takes them into the known range. A failed batch leaves the range wider: only more lookups.
   */
  #outsideKnownKeys(batch: KeyRange | null): boolean {
    const known = this.#keyRange;
    if (known === 'unknown') return false;
    if (batch === null || (known !== null && typeof known.min !== typeof batch.min)) {
      this.#keyRange = 'unknown';
      return false;
    }
    if (known === null) {
      this.#keyRange = batch;
      return true;
    }
    // Keys are numbers or texts (compared as such): Math.min/max would take texts as numbers.
    this.#keyRange = {
      // biome-ignore lint/complexity/useMathMinMax: texts too, see above
      min: batch.min < known.min ? batch.min : known.min,
      // biome-ignore lint/complexity/useMathMinMax: texts too, see above
      max: batch.max > known.max ? batch.max : known.max,
    };
    return batch.max < known.min || batch.min > known.max;
  }

  async close(): Promise<void> {
    this.#closeAppender();
    await this.#dropStaging();
  }

  async #transaction(work: () => Promise<void>): Promise<void> {
    if (this.#oneTransaction) return work();
    const { connection } = this.#context;
    await connection.run('BEGIN TRANSACTION');
    try {
      await work();
      await connection.run('COMMIT');
    } catch (error) {
      // An appender holding rows of the failed batch must not add them to the next one.
      this.#closeAppender(true);
      await connection.run('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  #append(appender: DuckDBAppender, rows: readonly FlatRecord[], columns: readonly Column[]): void {
    const writers = this.#writers;
    for (const row of rows) {
      for (let i = 0; i < columns.length; i++) {
        const value = row[columns[i]!.name];
        if (value === null || value === undefined) appender.appendNull();
        else writers[i]!(appender, value);
      }
      appender.endRow();
    }
    appender.flushSync();
  }

  async #appenderOn(table: string): Promise<DuckDBAppender> {
    let appender = this.#appenders.get(table);
    if (appender === undefined) {
      appender = await this.#context.connection.createAppender(table);
      this.#appenders.set(table, appender);
    }
    return appender;
  }

  #closeAppender(discard = false): void {
    for (const appender of this.#appenders.values()) {
      try {
        if (discard) appender.clear();
        appender.closeSync();
      } catch {
        // A failed batch may leave an appender unusable; it is replaced either way.
      }
    }
    this.#appenders.clear();
  }

  async #stagingTable(): Promise<string> {
    if (this.#staging === null) {
      const name = `_scratchlab_staging_${process.pid}_${++TableLoader.#stagings}`;
      const list = this.#columns!.map((column) => `${quoteName(column.name)} ${column.type}`).join(', ');
      await this.#context.connection.run(`CREATE TEMPORARY TABLE ${quoteName(name)} (${list})`);
      this.#staging = name;
    }
    return this.#staging;
  }

  async #dropStaging(): Promise<void> {
    if (this.#staging === null) return;
    this.#closeAppender();
    await this.#context.connection.run(`DROP TABLE IF EXISTS ${quoteName(this.#staging)}`);
    this.#staging = null;
  }
}

/** Streams `source` into `table` (see the file's comment). */
export async function loadInto(
  context: StoreContext,
  table: string,
  source: LoadSource,
  options: LoadOptions = {},
): Promise<LoadResult> {
  checkTableName(table);
  checkSource(source);
  const checked = checkOptions(table, options);
  const connection = await context.connect();
  const oneTransaction = checked.walk === null;
  const loader = new TableLoader({ duck: context.duck, connection }, table, oneTransaction);
  let resumedFrom = 0;
  let resumedPages = 0;
  let key: string | null = checked.key === false ? null : (checked.key ?? null);
  let keyDecided = checked.key !== undefined;
  let rows = 0;
  let pages = 0;
  try {
    if (oneTransaction) await connection.run('BEGIN TRANSACTION');
    await loader.start();
    if (checked.walk !== null) {
      await ensureWalksTable(connection);
      const stored = await readWalk(connection, table, checked.walk);
      resumedFrom = stored.rows;
      resumedPages = stored.pages;
    }
    for await (const batch of batchesOf(source, resumedFrom, checked.batchSize, checked.signal)) {
      const flat = batch.records.map((record) => toFlatRecord(record, { owner: batch.owner }));
      if (!keyDecided) {
        key =
          loader.hasColumn('id') || flat.some((row) => row.id !== undefined && row.id !== null) ? 'id' : null;
        keyDecided = true;
      }
      const batchRows = flat.length;
      const stored = key === null ? flat : lastByKey(flat, key);
      await loader.write(stored, key, async () => {
        if (checked.walk === null) return;
        await saveWalk(connection, table, checked.walk, {
          rows: resumedFrom + rows + batchRows,
          pages: resumedPages + pages + 1,
        });
      });
      rows += batchRows;
      pages++;
      checked.onProgress?.({ rows, pages, done: false });
    }
    if (checked.walk !== null) await forgetWalk(connection, table, checked.walk);
    await loader.close();
    if (oneTransaction) await connection.run('COMMIT');
  } catch (error) {
    await loader.close().catch(() => undefined);
    if (oneTransaction) await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    connection.closeSync();
  }
  checked.onProgress?.({ rows, pages, done: true });
  return { rows, pages, resumedFrom };
}
