/**
 * `store.load()` on a shared file: the walk is written into a staging file of its own (beside the
 * store's real file, links followed, in `<file>.loads/u<uid>/`), with DuckDB's appender and without holding the store; then, in one
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
import { createHash, randomUUID } from 'node:crypto';
import { chmod, lstat, mkdir, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { FileLockTimeoutError, processIsGone, withFileLock } from '../databases/file-lock.js';
import { storeTypeOf, widen, widenExpression } from './column-types.js';
import { type LoadOptions, type LoadResult, loadInto } from './load.js';
import type { LoadSource } from './load-sources.js';
import { type SharedFile, StoreBusyError } from './shared-file.js';
import { checkTableName, quoteName, quoteText } from './sql-names.js';

/** The name the staging file is attached under while its rows move in. */
const STAGE = 'scratchlab_stage';
/** Marks a staging file whose walk finished: only its move is left. */
const FINISHED_TABLE = '_scratchlab_staged';
/** The token of a walk's staging file (in the staging file). */
const TOKEN_TABLE = '_scratchlab_stage_token';
/** The tokens of staging files moved in (in the store), written in the move's transaction. */
export const MOVES_TABLE = '_scratchlab_moves';

let stagings = 0;

/**
 * DuckDB settings of a staging file. Its rows are written once and read once, then deleted: not
 * compressed, which halves the cost of writing them (the store compresses them as they move in).
 * Its memory is small: what it wrote is on disk, so DuckDB drops it from memory rather than keep
 * it cached for the whole walk (large batches and widened columns spill to disk).
 */
const STAGING_SETTINGS = { force_compression: 'uncompressed', memory_limit: '32MB' };

/**
 * This user's folder of staging files of the store `path` (absolute, or `:memory:`): `u<uid>` in
 * `<file>.loads/`, or `scratchlab-loads-<uid>` in the temporary folder for an in-memory store.
 */
export function stagingFolder(path: string): string {
  // Stryker disable next-line OptionalChaining,StringLiteral: process.getuid exists on POSIX, where the tests run ('user' is for Windows)
  const user = process.getuid?.() ?? 'user';
  return path === ':memory:' ? join(tmpdir(), `scratchlab-loads-${user}`) : join(`${path}.loads`, `u${user}`);
}

/**
 * Makes this user's staging folder, 0700, and refuses one that is something else (a link,
 * another user's folder). A file store's `<file>.loads/` holds a folder per user: made by the
 * first one, open to all with the sticky bit (as the temporary folder), so no user blocks another.
 */
async function makeStagingFolder(path: string, folder: string): Promise<void> {
  if (path !== ':memory:') {
    try {
      await mkdir(dirname(folder));
      await chmod(dirname(folder), 0o1777);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  await mkdir(folder, { recursive: true, mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EACCES' || path === ':memory:') throw error;
    throw new Error(
      `loads cannot stage their rows in ${dirname(folder)}: it is not open to this user (a folder of one user's, ` +
        `made before staging folders were per user); its owner may open it to all: chmod 1777 '${dirname(folder)}'`,
      { cause: error },
    );
  });
  // The temporary folder of an in-memory store is the environment's (TMPDIR), and may hold a "?".
  if ((await realpath(folder)).includes('?'))
    throw new RangeError(
      `loads stage their rows in ${folder}, whose path holds "?", which DuckDB cannot keep (it would write elsewhere): ${
        path === ':memory:' ? 'set TMPDIR to another folder' : 'rename it'
      }`,
    );
  const info = await lstat(folder);
  const uid = process.getuid?.();
  if (!info.isDirectory() || (uid !== undefined && info.uid !== uid)) {
    throw new Error(`the staging folder ${folder} is not a folder of this user's own: remove it`);
  }
  if ((info.mode & 0o077) !== 0) await chmod(folder, 0o700);
}

/**
 * Removes the staging files of `store` left by processes that are gone (a load killed without
 * `resume`): the `p<pid>-…` files (with their log and spill folder) of a pid with no process. A
 * live process's files, and a resumable walk's (`walk-…`, kept on purpose), are left alone.
 */
export async function sweepStaging(store: SharedFile): Promise<void> {
  const folder = stagingFolder(store.realPath);
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

/** A name with its ASCII letters in lower case: DuckDB's catalog folds the case of these only. */
function foldAscii(name: string): string {
  return name.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** ASCII letters, upper then lower: DuckDB's catalog folds the case of these only. */
const FOLD = `'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'`;

/**
 * The columns of `table` in `database`; its name matched as DuckDB's catalog matches it (the case
 * of ASCII letters ignored, no other: "Таблица" and "таблица" are two tables).
 */
async function columnsOf(
  connection: DuckDBConnection,
  database: string,
  table: string,
): Promise<ColumnInfo[]> {
  const reader = await connection.runAndReadAll(
    `SELECT column_name, data_type FROM duckdb_columns()
     WHERE database_name = ${database} AND schema_name = 'main' AND translate(table_name, ${FOLD}) = translate($1, ${FOLD})
     ORDER BY column_index`,
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
  // Beside the file itself, whatever the name it was opened by: a walk begun through a link is
  // resumed (and moved in once) through the file's own name too.
  const folder = stagingFolder(store.realPath);
  await makeStagingFolder(store.realPath, folder);
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
      // The walk's token (see the file's comment): made with the file, kept by every resumption.
      if (walk !== null)
        await setup.run(`CREATE TABLE IF NOT EXISTS ${TOKEN_TABLE} AS SELECT $1::VARCHAR AS token`, [
          randomUUID(),
        ]);
      if (Number(finished.getRows()[0]![0]) > 0) {
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
    await store.use((connection) => moveIn(connection, file, table, options.key, walk !== null));
  } catch (error) {
    if (walk === null) await removeStaging();
    throw error;
  }
  await removeStaging();
  return result;
}

/**
 * Moves the staged rows of `table` into the store in one transaction; a walk's (`marked`) records
 * its token in that transaction, and is skipped when the token is already there.
 */
async function moveIn(
  connection: DuckDBConnection,
  file: string,
  table: string,
  key: string | false | undefined,
  marked: boolean,
): Promise<void> {
  await connection.run(`ATTACH ${quoteText(file)} AS ${STAGE} (READ_ONLY)`);
  try {
    const staged = await columnsOf(connection, `'${STAGE}'`, table);
    const token = marked ? await tokenOf(connection) : null;
    if (token !== null)
      await connection.run(`CREATE TABLE IF NOT EXISTS ${MOVES_TABLE} (token VARCHAR, moved TIMESTAMP)`);
    const target = quoteName(table);
    const from = `${STAGE}.main.${target}`;
    await connection.run('BEGIN TRANSACTION');
    try {
      if (token !== null) {
        const moved = await connection.runAndReadAll(`SELECT count(*) FROM ${MOVES_TABLE} WHERE token = $1`, [
          token,
        ]);
        if (Number(moved.getRows()[0]![0]) > 0) {
          await connection.run('ROLLBACK');
          return; // moved by a load killed before it removed the staging file
        }
        await connection.run(`INSERT INTO ${MOVES_TABLE} VALUES ($1, now()::TIMESTAMP)`, [token]);
      }
      if (staged.length > 0) await moveRows(connection, target, from, staged, table, key);
      await connection.run('COMMIT');
    } catch (error) {
      await connection.run('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    await connection.run(`DETACH ${STAGE}`).catch(() => undefined);
  }
}

/** The token of the attached staging file (one made before tokens has none: it gets none). */
async function tokenOf(connection: DuckDBConnection): Promise<string | null> {
  const has = await connection.runAndReadAll(
    `SELECT count(*) FROM duckdb_tables() WHERE database_name = '${STAGE}' AND table_name = '${TOKEN_TABLE}'`,
  );
  if (Number(has.getRows()[0]![0]) === 0) return null;
  const reader = await connection.runAndReadAll(`SELECT token FROM ${STAGE}.main.${TOKEN_TABLE}`);
  return (reader.getRows()[0]?.[0] as string | undefined) ?? null;
}

/**
 * The rows of a move, in its transaction: the table made, or its columns added and widened to
 * hold the staged ones (by the types both sides have now, so loads that staged different types
 * at once all fit), the rows of the same keys replaced, the staged rows inserted.
 */
async function moveRows(
  connection: DuckDBConnection,
  target: string,
  from: string,
  staged: readonly ColumnInfo[],
  table: string,
  key: string | false | undefined,
): Promise<void> {
  const current = await columnsOf(connection, 'current_database()', table);
  if (current.length === 0) {
    await connection.run(`CREATE TABLE ${target} AS SELECT * FROM ${from}`);
    return;
  }
  // A staged column is the table's of the same name as DuckDB resolves names (ASCII case ignored):
  // a staged `id` is the table's `ID`, which the SQL below names it by.
  const byName = new Map(current.map((column) => [foldAscii(column.name), column.type]));
  const select: string[] = [];
  for (const column of staged) {
    const name = quoteName(column.name);
    let now = byName.get(foldAscii(column.name));
    if (now === undefined) {
      await connection.run(`ALTER TABLE ${target} ADD COLUMN ${name} ${column.type}`);
      now = column.type;
    } else if (now !== column.type) {
      const ours = storeTypeOf(now);
      const theirs = storeTypeOf(column.type);
      // Columns the store did not create are never altered: the staged values are cast to them.
      const wider = ours !== null && theirs !== null ? widen(ours, theirs) : null;
      if (wider !== null && wider !== 'EMPTY[]' && wider !== ours) {
        await connection.run(
          `ALTER TABLE ${target} ALTER COLUMN ${name} SET DATA TYPE ${wider} USING ${widenExpression(name, now, wider)}`,
        );
        now = wider;
      }
    }
    select.push(
      now === column.type || storeTypeOf(now) === null
        ? name
        : `${widenExpression(name, column.type, storeTypeOf(now)!)} AS ${name}`,
    );
  }
  const keyColumn =
    key === false ? null : (key ?? (staged.some((c) => c.name.toLowerCase() === 'id') ? 'id' : null));
  if (keyColumn !== null) {
    // Each side's own name of the key's column, found as the load found it (case ignored in any
    // script), for SQL: DuckDB folds only ASCII letters' case.
    const lower = keyColumn.toLowerCase();
    const ours = current.find((column) => column.name.toLowerCase() === lower);
    const theirs = staged.find((column) => column.name.toLowerCase() === lower);
    if (ours !== undefined && theirs !== undefined) {
      await connection.run(
        `DELETE FROM ${target} WHERE ${quoteName(ours.name)} IN (SELECT ${quoteName(theirs.name)} FROM ${from})`,
      );
    }
  }
  await connection.run(`INSERT INTO ${target} BY NAME SELECT ${select.join(', ')} FROM ${from}`);
}
