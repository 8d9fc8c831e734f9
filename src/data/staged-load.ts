/**
 * `store.load()` on a shared file: the walk is written into a staging file of its own (beside the
 * store, in `<file>.loads/`), with DuckDB's appender and without holding the store; then, in one
 * turn on the store and one transaction, the staged rows move in (`INSERT … SELECT` from the
 * attached staging file), replacing rows of the same key. So a long crawl never keeps recorders
 * and queries of other processes waiting (only the move does, about a second for a million rows),
 * and no query sees part of a load. A resumable walk keeps its staging file, named after the
 * walk, and its progress in it: killed, it goes on from there; finished but killed before the
 * move, the next call moves it.
 *
 * A walk's staging file is held by one load at a time (a lock beside it): a second load of the
 * same walk, in this process or another, fails at once with a {@link StoreBusyError} naming the
 * walk and the process that loads it. Staging files of processes that are gone (a load killed
 * without `resume`) are removed when a store opens and before each load.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { FileLockTimeoutError, processIsGone, withFileLock } from '../databases/file-lock.js';
import { type ColumnType, widenExpression } from './column-types.js';
import { type LoadOptions, type LoadResult, loadInto } from './load.js';
import type { LoadSource } from './load-sources.js';
import { type SharedFile, StoreBusyError } from './shared-file.js';
import { checkTableName, quoteName, quoteText } from './sql-names.js';

/** The name the staging file is attached under while its rows move in. */
const STAGE = 'scratchlab_stage';
/** Marks a staging file whose walk finished: only its move is left. */
const FINISHED_TABLE = '_scratchlab_staged';

let stagings = 0;

/**
 * DuckDB settings of a staging file. Its rows are written once and read once, then deleted: not
 * compressed, which halves the cost of writing them (the store compresses them as they move in).
 * Its memory is small: what it wrote is on disk, so DuckDB drops it from memory rather than keep
 * it cached for the whole walk (large batches and widened columns spill to disk).
 */
const STAGING_SETTINGS = { force_compression: 'uncompressed', memory_limit: '32MB' };

/** The folder of staging files of a store. */
function stagingFolder(store: SharedFile): string {
  return store.path === ':memory:' ? join(tmpdir(), 'scratchlab-loads') : `${store.path}.loads`;
}

/**
 * Removes the staging files of `store` left by processes that are gone (a load killed without
 * `resume`): the `p<pid>-…` files (with their log and spill folder) of a pid with no process. A
 * live process's files, and a resumable walk's (`walk-…`, kept on purpose), are left alone.
 */
export async function sweepStaging(store: SharedFile): Promise<void> {
  const folder = stagingFolder(store);
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    const pid = /^p(\d+)-/.exec(name)?.[1];
    if (pid !== undefined && processIsGone(Number(pid)))
      await rm(join(folder, name), { recursive: true, force: true }).catch(() => undefined);
  }
}

interface ColumnInfo {
  name: string;
  type: string;
}

async function columnsOf(
  connection: DuckDBConnection,
  database: string,
  table: string,
): Promise<ColumnInfo[]> {
  const reader = await connection.runAndReadAll(
    `SELECT column_name, data_type FROM duckdb_columns()
     WHERE database_name = ${database} AND schema_name = 'main' AND table_name = $1 ORDER BY column_index`,
    [table],
  );
  return (reader.getRows() as [string, string][]).map(([name, type]) => ({ name, type }));
}

/** Loads `source` into `table` of `store` through a staging file (see the file's comment). */
export async function stagedLoad(
  store: SharedFile,
  table: string,
  source: LoadSource,
  options: LoadOptions = {},
): Promise<LoadResult> {
  checkTableName(table);
  if (options === null || typeof options !== 'object') throw new TypeError('load options must be an object');
  const walk = options.resume === true ? table : typeof options.resume === 'string' ? options.resume : null;
  const folder = stagingFolder(store);
  await mkdir(folder, { recursive: true });
  await sweepStaging(store);
  const file =
    walk === null || store.path === ':memory:'
      ? join(folder, `p${process.pid}-${++stagings}-${Date.now()}.duckdb`)
      : join(
          folder,
          `walk-${createHash('sha256').update(`${table}\0${walk}`).digest('hex').slice(0, 24)}.duckdb`,
        );
  if (walk === null || store.path === ':memory:')
    return stageAndMove(store, table, source, options, file, walk);
  try {
    // A minute before a silent holder counts as gone (one of this machine is known gone at once):
    // a batch that keeps the event loop busy for seconds must not lose its lock.
    return await withFileLock(file, { timeout: 0, stale: 60_000, who: 'the walk' }, () =>
      stageAndMove(store, table, source, options, file, walk),
    );
  } catch (error) {
    if (!(error instanceof FileLockTimeoutError)) throw error;
    const holder = error.holder;
    throw new StoreBusyError(
      `the walk ${JSON.stringify(walk)} into table "${table}" is being loaded by ${
        holder ? `process ${holder.pid} on ${holder.host} (since ${holder.since})` : 'another load'
      }: wait for it to finish, or give this load another resume name`,
      { cause: error },
    );
  }
}

/** Stages the walk in `file`, then moves it in (see the file's comment). */
async function stageAndMove(
  store: SharedFile,
  table: string,
  source: LoadSource,
  options: LoadOptions,
  file: string,
  walk: string | null,
): Promise<LoadResult> {
  const existed = await stat(file).then(
    () => true,
    () => false,
  );
  const { duck } = store;
  const removeStaging = () =>
    Promise.all(['', '.wal', '.tmp'].map((end) => rm(`${file}${end}`, { recursive: true, force: true })));

  // The table's columns as the store has them now, so the staged rows get the same types.
  const seed = await store.use((connection) => columnsOf(connection, 'current_database()', table));
  const instance = await duck.DuckDBInstance.create(file, STAGING_SETTINGS);
  let result: LoadResult;
  try {
    const setup = await instance.connect();
    try {
      const finished = await setup.runAndReadAll(
        `SELECT count(*) FROM duckdb_tables() WHERE table_name = '${FINISHED_TABLE}'`,
      );
      if (existed && Number(finished.getRows()[0]![0]) > 0) {
        // A walk that finished but was killed before its move: moved now; nothing more to read.
        const rows = await setup.runAndReadAll(`SELECT rows FROM ${FINISHED_TABLE}`);
        result = { rows: 0, pages: 0, resumedFrom: Number(rows.getRows()[0]![0]) };
      } else {
        if (seed.length > 0) {
          const known = await columnsOf(setup, 'current_database()', table);
          if (known.length === 0) {
            const list = seed.map((column) => `${quoteName(column.name)} ${column.type}`).join(', ');
            await setup.run(`CREATE TABLE ${quoteName(table)} (${list})`);
          }
        }
        result = await loadInto({ duck, connect: () => instance.connect() }, table, source, options);
        await setup.run(`CREATE TABLE ${FINISHED_TABLE} AS SELECT $1::BIGINT AS rows`, [
          BigInt(result.resumedFrom + result.rows),
        ]);
      }
    } finally {
      setup.closeSync();
    }
  } catch (error) {
    instance.closeSync();
    if (walk === null) await removeStaging();
    throw error;
  }
  instance.closeSync();
  try {
    await store.use((connection) => moveIn(connection, file, table, seed, options.key));
  } catch (error) {
    if (walk === null) await removeStaging();
    throw error;
  }
  await removeStaging();
  return result;
}

/** Moves the staged rows of `table` into the store in one transaction. */
async function moveIn(
  connection: DuckDBConnection,
  file: string,
  table: string,
  seed: readonly ColumnInfo[],
  key: string | false | undefined,
): Promise<void> {
  await connection.run(`ATTACH ${quoteText(file)} AS ${STAGE} (READ_ONLY)`);
  try {
    const staged = await columnsOf(connection, `'${STAGE}'`, table);
    if (staged.length === 0) return; // nothing but nulls: no table was made
    const target = quoteName(table);
    const from = `${STAGE}.main.${target}`;
    await connection.run('BEGIN TRANSACTION');
    try {
      const current = await columnsOf(connection, 'current_database()', table);
      if (current.length === 0) {
        await connection.run(`CREATE TABLE ${target} AS SELECT * FROM ${from}`);
      } else {
        const byName = new Map(current.map((column) => [column.name, column.type]));
        const seeded = new Map(seed.map((column) => [column.name, column.type]));
        for (const column of staged) {
          const now = byName.get(column.name);
          if (now === undefined) {
            await connection.run(`ALTER TABLE ${target} ADD COLUMN ${quoteName(column.name)} ${column.type}`);
          } else if (now !== column.type && seeded.get(column.name) === now) {
            // The load widened the column (its values did not fit): the store's column follows.
            await connection.run(
              `ALTER TABLE ${target} ALTER COLUMN ${quoteName(column.name)} SET DATA TYPE ${column.type} USING ${widenExpression(quoteName(column.name), now, column.type as ColumnType)}`,
            );
          }
        }
        const keyColumn = key === false ? null : (key ?? (staged.some((c) => c.name === 'id') ? 'id' : null));
        if (keyColumn !== null && byName.has(keyColumn)) {
          await connection.run(
            `DELETE FROM ${target} WHERE ${quoteName(keyColumn)} IN (SELECT ${quoteName(keyColumn)} FROM ${from})`,
          );
        }
        await connection.run(`INSERT INTO ${target} BY NAME SELECT * FROM ${from}`);
      }
      await connection.run('COMMIT');
    } catch (error) {
      await connection.run('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    await connection.run(`DETACH ${STAGE}`).catch(() => undefined);
  }
}
