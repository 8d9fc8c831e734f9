/**
 * Tables to files and back, with DuckDB's `COPY` and its readers: Parquet (how the data leaves
 * for Spark, Trino or another DuckDB), CSV and JSON. A file is written beside its place and
 * renamed into it, so a failed export leaves the old file (or none), never half of one; a
 * partitioned export writes a folder (`day=2024-05-01/data_0.parquet`, …) the same way.
 */
import { randomBytes } from 'node:crypto';
import { readdir, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { describe } from '../records/validate.js';
import { SavedFile } from '../rows/saved-file.js';
import { toParameters } from './query-values.js';
import type { SharedFile } from './shared-file.js';
import { checkTableName, quoteName, quoteText } from './sql-names.js';

/** A file format of export and import. */
export type FileFormat = 'parquet' | 'csv' | 'json' | 'jsonl';

/** Options of `store.export()`. */
export interface ExportOptions {
  /** Columns that split the rows into a Hive-partitioned folder (`day=…/`), one file per value. */
  partitionBy?: string | readonly string[];
  /** The format when the name has no extension (a partitioned folder): default `parquet`. */
  format?: FileFormat;
}

const FORMATS: Record<string, FileFormat> = {
  parquet: 'parquet',
  csv: 'csv',
  json: 'json',
  jsonl: 'jsonl',
  ndjson: 'jsonl',
};

/** What is exported: a table by name, or the rows of a query with its parameters. */
export type ExportSource =
  | { table: string }
  | { sql: string; params: readonly unknown[] | Record<string, unknown> };

function formatOf(file: string, given: FileFormat | undefined, fallback: FileFormat | null): FileFormat {
  if (given !== undefined) {
    if (!Object.values(FORMATS).includes(given))
      throw new TypeError(`format must be parquet, csv, json or jsonl, got ${describe(given)}`);
    return given;
  }
  const format = FORMATS[extname(file).slice(1).toLowerCase()] ?? fallback;
  if (format === null) {
    throw new TypeError(
      `export() and import() read and write .parquet, .csv, .json or .jsonl files, not "${file}"`,
    );
  }
  return format;
}

function copyOptions(format: FileFormat): string {
  switch (format) {
    case 'parquet':
      return 'FORMAT parquet';
    case 'csv':
      return 'FORMAT csv, HEADER true';
    case 'json':
      return 'FORMAT json, ARRAY true';
    default:
      return 'FORMAT json';
  }
}

function checkFile(file: unknown, what: string): string {
  if (typeof file !== 'string' || file.trim() === '')
    throw new TypeError(`${what} needs a file name, e.g. "projects.parquet"`);
  return resolve(file);
}

/** A path with its links followed as far as it exists (the rest appended as given). */
async function realPathOf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(await realPathOf(parent), basename(path));
  }
}

/**
 * Refuses an export onto the store's own files: its database and write-ahead log, its lock and its
 * staging folder (renamed over, the store would be gone).
 */
async function checkNotStoreFile(store: SharedFile, path: string): Promise<void> {
  if (store.path === ':memory:') return;
  const target = await realPathOf(path);
  const database = await realPathOf(resolve(store.path));
  for (const own of [database, `${database}.wal`, `${database}.lock`, `${database}.loads`]) {
    const inside = relative(own, target);
    if (inside === '' || (!inside.startsWith('..') && !inside.startsWith('/'))) {
      throw new TypeError(`export() cannot write over the store's own file ${own}: name another file`);
    }
  }
}

/**
 * Refuses a target a copy cannot be written to, before any work: a folder that does not exist,
 * or (unpartitioned) an existing folder in the file's place.
 */
async function checkTarget(path: string, partitioned: boolean): Promise<void> {
  const folder = await stat(dirname(path)).catch(() => null);
  if (!folder?.isDirectory()) throw new TypeError(`export(): the folder ${dirname(path)} does not exist`);
  const target = await stat(path).catch(() => null);
  if (!partitioned && target?.isDirectory())
    throw new TypeError(`export(): ${path} is a folder; name a file (or pass partitionBy to write a folder)`);
}

/** Bytes of a file, or of every file under a folder. */
async function sizeOf(path: string): Promise<number> {
  const info = await stat(path);
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const entry of await readdir(path, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** Writes a table or a query's rows to `file` (see the file's comment). */
export async function exportTo(
  store: SharedFile,
  what: ExportSource,
  file: string,
  options: ExportOptions = {},
): Promise<SavedFile> {
  if ('table' in what)
    checkTableName(what.table, 'export() takes a table name; a query goes to exportQuery(), and');
  else if (typeof what.sql !== 'string' || what.sql.trim() === '')
    throw new TypeError('exportQuery() needs a SQL query');
  const path = checkFile(file, 'export()');
  if (options === null || typeof options !== 'object')
    throw new TypeError('export options must be an object');
  const partitions =
    options.partitionBy === undefined
      ? []
      : typeof options.partitionBy === 'string'
        ? [options.partitionBy]
        : [...options.partitionBy];
  if (partitions.some((name) => typeof name !== 'string' || name === '')) {
    throw new TypeError('partitionBy must be a column name or a list of them');
  }
  const format = formatOf(path, options.format, partitions.length > 0 ? 'parquet' : null);
  await checkNotStoreFile(store, path);
  await checkTarget(path, partitions.length > 0);
  // A name is always a name (a table called `selections` exports as itself); a query is its own call.
  const source = 'table' in what ? quoteName(what.table) : `(${what.sql})`;
  const params = 'table' in what ? [] : toParameters(store.duck, what.params);
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const partitionClause =
    partitions.length > 0 ? `, PARTITION_BY (${partitions.map(quoteName).join(', ')})` : '';
  try {
    await store.use(async (connection) => {
      if ('table' in what) {
        const found = await connection.runAndReadAll(
          'SELECT count(*) FROM duckdb_tables() WHERE table_name = $1 AND schema_name = current_schema()',
          [what.table],
        );
        if (Number(found.getRows()[0]![0]) === 0) {
          throw new TypeError(
            `export(): the store has no table "${what.table}" (a query is exported with exportQuery(sql, file))`,
          );
        }
      }
      await connection.run(
        `COPY ${source} TO ${quoteText(temp)} (${copyOptions(format)}${partitionClause})`,
        params,
      );
    });
    if (partitions.length > 0) {
      // A folder cannot be renamed over another: the old one steps aside first, then goes.
      const old = `${temp}.old`;
      const hadOld = await rename(path, old).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return false;
          throw error;
        },
      );
      await rename(temp, path);
      if (hadOld) await rm(old, { recursive: true, force: true });
    } else {
      await rename(temp, path);
    }
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
  const label = format === 'jsonl' ? 'JSON lines' : format === 'parquet' ? 'Parquet' : format.toUpperCase();
  return new SavedFile(path, await sizeOf(path), partitions.length > 0 ? `partitioned ${label}` : label);
}

/** What an import did. */
export interface ImportResult {
  table: string;
  /** Rows added to the table. */
  rows: number;
}

/** The reader of a file or a partitioned folder. */
async function readerOf(path: string, format: FileFormat | undefined): Promise<string> {
  const info = await stat(path).catch(() => {
    throw new TypeError(`import() found no file "${path}"`);
  });
  if (info.isDirectory()) {
    const chosen = format ?? 'parquet';
    const pattern = quoteText(join(path, '**', `*.${chosen === 'jsonl' ? 'json' : chosen}`));
    if (chosen === 'parquet') return `read_parquet(${pattern}, hive_partitioning = true)`;
    if (chosen === 'csv') return `read_csv(${pattern}, hive_partitioning = true)`;
    return `read_json_auto(${pattern}, hive_partitioning = true)`;
  }
  const chosen = formatOf(path, format, null);
  if (chosen === 'parquet') return `read_parquet(${quoteText(path)})`;
  if (chosen === 'csv') return `read_csv(${quoteText(path)}, header = true)`;
  return `read_json_auto(${quoteText(path)})`;
}

/** Reads `file` into `table`: created when missing, else the rows are added by column name. */
export async function importFrom(
  store: SharedFile,
  file: string,
  table: string,
  options: { format?: FileFormat } = {},
): Promise<ImportResult> {
  const path = checkFile(file, 'import()');
  checkTableName(table);
  const reader = await readerOf(path, options.format);
  return store.use(async (connection) => {
    const exists = await connection.runAndReadAll(
      'SELECT count(*) FROM information_schema.tables WHERE table_name = $1 AND table_schema = current_schema()',
      [table],
    );
    const count = async () =>
      Number((await connection.runAndReadAll(`SELECT count(*) FROM ${quoteName(table)}`)).getRows()[0]![0]);
    if (Number(exists.getRows()[0]![0]) > 0) {
      const before = await count();
      await connection.run(`INSERT INTO ${quoteName(table)} BY NAME SELECT * FROM ${reader}`);
      return { table, rows: (await count()) - before };
    }
    await connection.run(`CREATE TABLE ${quoteName(table)} AS SELECT * FROM ${reader}`);
    return { table, rows: await count() };
  });
}
