/**
 * `store.load()`: records streamed into a table through DuckDB's appender, a batch (a page of a
 * paged list, or a slice of an array or iterable) at a time, so memory holds one batch whatever
 * the size of the walk. A load has a connection of its own: queries go on while it runs, and see
 * its rows once committed. Without `resume` the whole load is one transaction (all or nothing);
 * with it, each batch is.
 *
 * - Columns are the records' flat keys (`author.username`), lists stay lists; types come from the
 *   first batch and are widened when a later value does not fit (see `column-types.ts`). Values
 *   are checked as they are written: a batch is inferred again only when one does not fit its
 *   column, or a key is new (the appender's rows of the batch are then dropped, the table
 *   changed, and the batch written again). Columns the store did not create are never altered.
 * - With a key (default `id` when the records have one) a batch replaces the rows that have the
 *   same keys: it is appended to a staging table, then moved over in the batch's transaction.
 * - With `resume`, each transaction also stores how many records the walk has stored, so a walk
 *   that was killed goes on from the next record (see `walk-progress.ts`).
 * - Values go to the appender in typed data chunks (one column vector each, 2048 rows), not one
 *   call per value; a table with a column the store did not create takes them row by row.
 * - After a batch written through flat rows, the next batches of records of its shape are written
 *   from the records themselves (see `record-shape.ts`); a batch that does not fit goes the flat
 *   rows' way, so the result is the same.
 */
import type {
  DuckDBAppender,
  DuckDBConnection,
  DuckDBDataChunk,
  DuckDBType,
  DuckDBVector,
} from '@duckdb/node-api';
import { assertFunction, assertInteger, describe } from '../records/validate.js';
import { type FlatRecord, toFlatRecord } from '../rows/flat-rows.js';
import type { DuckDB } from './duckdb-module.js';
import { ColumnCaseError } from './load-errors.js';
import { batchesOf, checkSource, DEFAULT_BATCH_SIZE, type LoadSource } from './load-sources.js';
import { RecordShape } from './record-shape.js';
import { checkTableName, quoteName } from './sql-names.js';
import type { StoreContext } from './store-context.js';
import { applyChange, type Column, isEmptyChange, planChange, readColumns } from './table-schema.js';
import { converterFor, foreignWriter, type ValueConverter, type ValueWriter } from './value-writers.js';
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
  /**
   * Records per batch of an array or iterable (default 5000, at most 100,000: a batch is dropped
   * from DuckDB's appender and written again whole when a record needs a wider column, and the
   * appender keeps only so many rows; a paged list's batch is its page).
   */
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
      batchSize === undefined ? DEFAULT_BATCH_SIZE : assertInteger(batchSize, 'batchSize', 1, MAX_BATCH),
    signal,
  };
}

/** Whether the keys of `rows` rise strictly (numbers or texts): then no two are the same. */
function risingKeys(rows: readonly FlatRecord[], key: string): boolean {
  // Stryker disable next-line OptionalChaining: a batch is never empty
  let last: unknown = rows[0]?.[key];
  if (typeof last !== 'number' && typeof last !== 'string') return false;
  for (let i = 1; i < rows.length; i++) {
    const value = rows[i]![key];
    if (typeof value !== typeof last || (value as number | string) <= (last as number | string)) return false;
    last = value;
  }
  return true;
}

/** The later of two rows with the same key wins, in the order they came. */
function lastByKey(rows: FlatRecord[], key: string): FlatRecord[] {
  // A crawl in key order (the common case) has no repeats: checked without a map.
  if (risingKeys(rows, key)) return rows;
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

/** Thrown inside a load when a batch does not fit the table as it stands (never leaves this file). */
const MISFIT = Symbol('misfit');
/** Batches in a row that may miss the learnt shape before a load's records count as of changing shapes. */
const MAX_SHAPE_MISSES = 3;
/**
 * Records of a batch at most. DuckDB's appender moves its rows into the table by itself every
 * 204,800 (100 chunks): past that a batch that misses could not be dropped (the direct way would
 * write rows twice); a paged list's pages, not cut by the load, take flat rows past it. Batches
 * of about 200,000 that needed a wider column late also failed inside DuckDB; 100,000 did not.
 */
const MAX_BATCH = 100_000;

/** What a table's load works with: DuckDB and the load's own connection. */
interface LoadConnection {
  duck: DuckDB;
  connection: DuckDBConnection;
}

/** One table's load: its columns, writers and appender, kept across batches until the table changes. */
class TableLoader {
  readonly #context: LoadConnection;
  /** The whole load is one transaction (opened by the caller); else each batch is its own. */
  readonly #oneTransaction: boolean;
  readonly #table: string;
  #columns: Column[] | null = null;
  /** Per column: its converter (a column of the store's own type), else null. */
  // Stryker disable ArrayDeclaration: #setColumns sets these in start(), before any use
  #converters: (ValueConverter | null)[] = [];
  /** Per column: its writer (a column the store did not create), else null. */
  #foreign: (ValueWriter | null)[] = [];
  /** Per column: the type of its vector in a data chunk. */
  #types: DuckDBType[] = [];
  /**
   * Rows go in as typed data chunks (far fewer calls into DuckDB than a value at a time); a table
   * with a column the store did not create takes them row by row, so DuckDB casts each value.
   */
  #chunks: ChunkFiller | null = null;
  /** Column index by record key, as met (a key and its column may differ by case). */
  readonly #indexOf = new Map<string, number>();
  /** Per column, the row (of the batch) that last gave it a value: a key seen twice is a case clash. */
  #stamps = new Int32Array(0);
  /** One row's values, by column, reused row after row. */
  #values: unknown[] = [];
  // Stryker restore ArrayDeclaration
  /** Open appenders by table (the table itself, its staging table). */
  readonly #appenders = new Map<string, DuckDBAppender>();
  #staging: string | null = null;
  /**
   * The least and greatest key in the table, while known: a batch whose keys all lie outside
   * them replaces nothing and is appended straight into the table (a fresh crawl in key order
   * never pays for the lookup of existing keys).
   */
  #keyRange: KeyRange | null | 'unknown' = null;
  /** The shape of the records, learnt from a batch written through flat rows (see `record-shape.ts`). */
  #shape: RecordShape | null = null;
  /** Batches in a row that did not fit the shape: past a few, records of ever changing shapes take flat rows only. */
  #shapeMisses = 0;
  static #stagings = 0;

  constructor(context: LoadConnection, table: string, oneTransaction: boolean) {
    this.#context = context;
    this.#table = table;
    this.#oneTransaction = oneTransaction;
  }

  async start(): Promise<void> {
    this.#setColumns(await readColumns(this.#context.connection, this.#table));
  }

  #setColumns(columns: Column[] | null): void {
    const { duck } = this.#context;
    this.#columns = columns;
    this.#converters = [];
    this.#foreign = [];
    this.#types = [];
    for (const column of columns ?? []) {
      if (column.foreign) {
        this.#converters.push(null);
        this.#foreign.push(foreignWriter(column.name, column.type));
        this.#types.push(duck.VARCHAR); // unused: such a table is written row by row
      } else {
        const { type, convert } = converterFor(duck, column.type);
        this.#converters.push(convert);
        this.#foreign.push(null);
        this.#types.push(type);
      }
    }
    this.#chunks = this.#foreign.every((writer) => writer === null)
      ? new ChunkFiller(duck, this.#types)
      : null;
    this.#indexOf.clear();
    this.#shape = null;
    // Stryker disable next-line UnaryOperator: every batch fills the stamps with -1 before it reads them
    this.#stamps = new Int32Array(this.#types.length).fill(-1);
    // Stryker disable next-line ArrayDeclaration: a row's values are set before they are read
    this.#values = new Array(this.#types.length);
  }

  /** The index of the column a record's key goes into (names ignore case), or -1 for a new key. */
  #columnIndex(key: string): number {
    let index = this.#indexOf.get(key);
    if (index === undefined) {
      const lower = key.toLowerCase();
      index = this.#columns?.findIndex((column) => column.name.toLowerCase() === lower) ?? -1;
      if (index >= 0) this.#indexOf.set(key, index);
    }
    return index;
  }

  /** Reads the key range of the table (once, when the load's key is known). */
  async #readKeyRange(key: string): Promise<void> {
    if (this.#keyRange !== null || this.#columns === null) return;
    if (!this.hasColumn(key)) return;
    const column = quoteName(this.#columnName(key));
    const reader = await this.#context.connection.runAndReadAll(
      `SELECT min(${column}), max(${column}) FROM ${quoteName(this.#table)}`,
    );
    const [min, max] = reader.getRowsJS()[0] as [unknown, unknown];
    if (min === null || min === undefined) return; // empty: every batch is outside
    const range = { min: comparable(min), max: comparable(max) };
    this.#keyRange = range.min === null || range.max === null ? 'unknown' : (range as KeyRange);
  }

  hasColumn(name: string): boolean {
    return this.#columnIndex(name) >= 0;
  }

  /**
   * The table's own name of the column `key` goes into, for SQL: DuckDB folds only ASCII letters'
   * case, so `"ключ"` does not name a column `Ключ` that this load matched it with.
   */
  #columnName(key: string): string {
    return this.#columns![this.#columnIndex(key)]!.name;
  }

  /** Takes the shape of `record`, one of a batch just written, for the batches after it. */
  learnShape(record: unknown): void {
    this.#shape =
      // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: only which way a batch is written (load-shapes.test.ts holds both ways equal)
      this.#chunks === null || this.#shapeMisses >= MAX_SHAPE_MISSES
        ? null
        : RecordShape.of(record, (name) => this.#columnIndex(name));
  }

  /**
   * Stores one batch of records of the learnt shape straight from the records (no flat rows), in
   * one transaction with the walk's progress; false, with nothing stored, when a record is not of
   * the shape, a value does not fit its column, or (with a key) the keys do not rise past the
   * table's: the caller then writes the batch through flat rows ({@link write}).
   */
  async writeShaped(
    records: readonly unknown[],
    key: string | null,
    progress: () => Promise<void>,
  ): Promise<boolean> {
    const shape = this.#shape;
    const chunks = this.#chunks;
    if (shape === null || chunks === null || records.length === 0 || records.length > MAX_BATCH) return false;
    const keyIndex = key === null ? -1 : this.#columnIndex(key);
    if (key !== null && (keyIndex < 0 || this.#keyRange === 'unknown')) return false;
    try {
      await this.#transaction(async () => {
        this.#appendShaped(await this.#appenderOn(this.#table), records, shape, chunks, keyIndex);
        await progress();
      });
      // Stryker disable next-line all: counts misses for learnShape (which way, not what)
      this.#shapeMisses = 0;
      return true;
    } catch (error) {
      if (error !== MISFIT) throw error;
      // Stryker disable next-line all: counts misses for learnShape (which way, not what)
      this.#shapeMisses++;
      return false;
    }
  }

  /**
   * Appends records of `shape` through the data chunks. With a key (`keyIndex`), each key must be
   * a number or text greater than the one before and than every key of the table: then the batch
   * replaces nothing, as a fresh crawl in key order, and the known key range grows.
   * @throws MISFIT, with the batch's rows dropped from the appender, for a record that does not fit
   */
  #appendShaped(
    appender: DuckDBAppender,
    records: readonly unknown[],
    shape: RecordShape,
    chunks: ChunkFiller,
    keyIndex: number,
  ): void {
    const stamps = this.#stamps.fill(-1);
    const values = this.#values;
    const known = this.#keyRange === 'unknown' ? null : this.#keyRange;
    let first: number | string = 0;
    let last: number | string = 0;
    chunks.begin(appender, records.length);
    try {
      for (let r = 0; r < records.length; r++) {
        if (!shape.write(records[r], values, stamps, r)) throw MISFIT;
        if (keyIndex >= 0) {
          const value = stamps[keyIndex] === r ? values[keyIndex] : null;
          if (typeof value !== 'number' && typeof value !== 'string') throw MISFIT;
          const before = r === 0 ? known?.max : last;
          if (before !== undefined && (typeof value !== typeof before || value <= before)) throw MISFIT;
          if (r === 0) first = value;
          last = value;
        }
        chunks.add(this.#converters, stamps, values, r);
      }
    } catch (error) {
      this.#dropAppended(appender, error);
      throw error;
    }
    appender.flushSync();
    if (keyIndex >= 0) this.#keyRange = { min: known?.min ?? first, max: last };
  }

  /**
   * Stores one batch (and the walk's progress) in one transaction. The batch is written as the
   * table stands; when a value does not fit or a key is new, the table is changed (types
   * inferred from the whole batch) and the batch written again.
   */
  async write(rows: FlatRecord[], key: string | null, progress: () => Promise<void>): Promise<void> {
    let direct: boolean | undefined;
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0 || this.#columns === null) {
        const change = planChange(this.#columns ?? [], rows);
        if (this.#columns === null && change.add.length === 0) {
          // Nothing but nulls so far: the table waits for a value that tells a type.
          await progress();
          return;
        }
        if (!isEmptyChange(change) || this.#columns === null) {
          this.#closeAppender(true);
          await this.#dropStaging();
          this.#setColumns(await applyChange(this.#context.connection, this.#table, this.#columns, change));
        } else if (attempt > 0) {
          throw new Error('internal: a batch did not fit the columns inferred from it');
        }
      }
      if (key !== null && !this.hasColumn(key)) {
        // A key the table has no column for yet (a staged load's table has the store's columns):
        // the batch's columns are added first, as for any new key.
        if (attempt === 0 && this.#columns !== null) continue;
        throw new TypeError(`the key column "${key}" is not among the records' columns`);
      }
      if (direct === undefined) {
        direct = key === null;
        if (key !== null) {
          await this.#readKeyRange(key);
          direct = this.#outsideKnownKeys(rangeOf(rows, key));
        }
      }
      try {
        await this.#writeBatch(rows, key, direct, progress);
        return;
      } catch (error) {
        if (error !== MISFIT) throw error;
      }
    }
  }

  async #writeBatch(
    rows: FlatRecord[],
    key: string | null,
    direct: boolean,
    progress: () => Promise<void>,
  ): Promise<void> {
    const { connection } = this.#context;
    if (!direct && key !== null) {
      // Staging sits outside the transaction (a temporary table); the move into the table is in it.
      const staging = await this.#stagingTable();
      this.#append(await this.#appenderOn(staging), rows);
      const list = this.#columns!.map((column) => quoteName(column.name)).join(', ');
      const table = quoteName(this.#table);
      const column = quoteName(this.#columnName(key));
      await this.#transaction(async () => {
        await connection.run(
          `DELETE FROM ${table} WHERE ${column} IN (SELECT ${column} FROM ${quoteName(staging)})`,
        );
        await connection.run(`INSERT INTO ${table} (${list}) SELECT ${list} FROM ${quoteName(staging)}`);
        await connection.run(`DELETE FROM ${quoteName(staging)}`);
        await progress();
      });
    } else {
      await this.#transaction(async () => {
        this.#append(await this.#appenderOn(this.#table), rows);
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

  /**
   * Appends `rows`, each value checked by its column's writer as it goes. A value that does not
   * fit, or a key with no column, drops the batch's rows from the appender and throws
   * {@link MISFIT}: the caller changes the table and writes the batch again.
   * @throws ColumnCaseError for a record with two keys that differ only by case
   */
  #append(appender: DuckDBAppender, rows: readonly FlatRecord[]): void {
    const stamps = this.#stamps.fill(-1);
    const values = this.#values;
    const chunks = this.#chunks;
    chunks?.begin(appender, rows.length);
    // Rows of a batch mostly have the same keys in the same order: the key at each position is
    // compared with the last row's (one comparison of the same string) before any lookup.
    // Stryker disable ArrayDeclaration: a cache of the last row's lookups (a miss looks the key up)
    const lastKeys: string[] = [];
    const lastIndexes: number[] = [];
    // Stryker restore ArrayDeclaration
    try {
      for (let r = 0; r < rows.length; r++) {
        const row = rows[r]!;
        let at = 0;
        for (const name in row) {
          const value = row[name];
          let index: number;
          if (lastKeys[at] === name) index = lastIndexes[at]!;
          else {
            index = this.#columnIndex(name);
            lastKeys[at] = name;
            lastIndexes[at] = index;
          }
          // Stryker disable next-line UpdateOperator: the cache's positions only need to differ
          at++;
          if (index < 0) {
            if (value === null || value === undefined) continue; // no column until a value tells its type
            throw MISFIT;
          }
          if (stamps[index] === r) throw new ColumnCaseError(this.#keyOf(row, index, name), name);
          stamps[index] = r;
          values[index] = value;
        }
        if (chunks !== null) chunks.add(this.#converters, stamps, values, r);
        else this.#appendRow(appender, stamps, values, r);
      }
    } catch (error) {
      this.#dropAppended(appender, error);
      throw error;
    }
    appender.flushSync();
  }

  /** Drops a failed batch's rows from `appender` (they are not the table's) before anything else uses it. */
  #dropAppended(appender: DuckDBAppender, error: unknown): void {
    try {
      appender.clear();
    } catch {
      // An unusable appender is replaced: closed below.
    }
    if (error !== MISFIT) this.#closeAppender(true);
  }

  /** Appends one row value by value (a table with a column the store did not create). */
  #appendRow(appender: DuckDBAppender, stamps: Int32Array, values: unknown[], r: number): void {
    for (let i = 0; i < stamps.length; i++) {
      const value = stamps[i] === r ? values[i] : null;
      if (value === null || value === undefined) {
        appender.appendNull();
        continue;
      }
      const foreign = this.#foreign[i];
      if (foreign) {
        foreign(appender, value);
        continue;
      }
      const converted = this.#converters[i]!(value);
      if (converted === undefined) throw MISFIT;
      if (converted === null) appender.appendNull();
      else appender.appendValue(converted, this.#types[i]);
    }
    appender.endRow();
  }

  /** The other key of `row` that goes into column `index` (for a case clash's message). */
  #keyOf(row: FlatRecord, index: number, not: string): string {
    for (const name in row) if (name !== not && this.#indexOf.get(name) === index) return name;
    return this.#columns![index]!.name;
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
      // Stryker disable next-line UpdateOperator: the names stay unique counting down
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

/**
 * Fills a typed data chunk (DuckDB's vector size of rows, the last one of a batch smaller) with a
 * batch's rows and hands it to the appender each time it is full. One chunk is reused: its native
 * memory is outside the JavaScript heap, so chunks left to the garbage collector pile up.
 */
class ChunkFiller {
  readonly #duck: DuckDB;
  readonly #types: DuckDBType[];
  readonly #chunk: DuckDBDataChunk;
  #appender: DuckDBAppender | null = null;
  /** Rows of the batch not yet in a chunk. */
  #left = 0;
  #vectors: DuckDBVector[] | null = null;
  /** Rows the chunk is filled to (kept here: the chunk's own count is a native call). */
  #size = 0;
  #at = 0;

  constructor(duck: DuckDB, types: DuckDBType[]) {
    this.#duck = duck;
    this.#types = types;
    this.#chunk = duck.DuckDBDataChunk.create(types);
  }

  /** Starts a batch of `rows` rows for `appender`. */
  begin(appender: DuckDBAppender, rows: number): void {
    this.#appender = appender;
    this.#left = rows;
    this.#vectors = null;
  }

  /**
   * Adds row `r` (its values by column, where `stamps` says they are this row's).
   * @throws MISFIT for a value its column cannot hold
   */
  add(converters: (ValueConverter | null)[], stamps: Int32Array, values: unknown[], r: number): void {
    let vectors = this.#vectors;
    if (vectors === null) {
      // Sized to the rows left, so every item of every vector is set (an unset list item is garbage).
      const size = Math.min(this.#left, this.#duck.DuckDBVector.standardSize());
      const chunk = this.#chunk;
      chunk.reset();
      chunk.rowCount = size;
      vectors = this.#types.map((_, i) => chunk.getColumnVector(i));
      this.#vectors = vectors;
      this.#size = size;
      this.#at = 0;
    }
    const at = this.#at;
    for (let i = 0; i < vectors.length; i++) {
      const value = stamps[i] === r ? values[i] : null;
      if (value === null || value === undefined) {
        vectors[i]!.setItem(at, null);
        continue;
      }
      const converted = converters[i]!(value);
      if (converted === undefined) throw MISFIT;
      vectors[i]!.setItem(at, converted);
    }
    this.#left--;
    if (++this.#at === this.#size) {
      for (const vector of vectors) vector.flush();
      this.#appender!.appendDataChunk(this.#chunk);
      this.#vectors = null;
    }
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
      const batchRows = batch.records.length;
      const progress = async () => {
        if (checked.walk === null) return;
        await saveWalk(connection, table, checked.walk, {
          rows: resumedFrom + rows + batchRows,
          pages: resumedPages + pages + 1,
        });
      };
      // A list's owner fills in authors' names: such batches take the flat rows' way.
      const owner = batch.owner;
      // (No shape is learnt before the first batch, which decides the key.)
      const shaped = !owner && (await loader.writeShaped(batch.records, key, progress));
      if (!shaped) {
        const flat = batch.records.map((record) => toFlatRecord(record, { owner }));
        if (!keyDecided) {
          key =
            loader.hasColumn('id') || flat.some((row) => row.id !== undefined && row.id !== null)
              ? 'id'
              : null;
          keyDecided = true;
        }
        await loader.write(key === null ? flat : lastByKey(flat, key), key, progress);
        loader.learnShape(batch.records[0]);
      }
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
