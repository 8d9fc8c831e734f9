/**
 * How far a resumable load has come, kept in the store itself (table `_scratchlab_walks`) and
 * written in the same transaction as each batch's rows: after a crash the count says exactly
 * which records are in, so a restarted load goes on from the next one, no gap, no duplicate.
 * A walk that finishes is forgotten: loading it again starts it again.
 */
import type { DuckDBConnection } from '@duckdb/node-api';

/** The table of walk progress. */
export const WALKS_TABLE = '_scratchlab_walks';

/** Records and batches stored so far by one walk. */
interface WalkProgress {
  rows: number;
  pages: number;
}

export async function ensureWalksTable(connection: DuckDBConnection): Promise<void> {
  await connection.run(
    `CREATE TABLE IF NOT EXISTS ${WALKS_TABLE} (table_name VARCHAR, walk VARCHAR, rows BIGINT, pages BIGINT, updated TIMESTAMP)`,
  );
}

/** The stored progress of a walk (zero when none is stored). */
export async function readWalk(
  connection: DuckDBConnection,
  table: string,
  walk: string,
): Promise<WalkProgress> {
  const reader = await connection.runAndReadAll(
    `SELECT rows, pages FROM ${WALKS_TABLE} WHERE table_name = $1 AND walk = $2`,
    [table, walk],
  );
  const row = reader.getRows()[0] as [bigint, bigint] | undefined;
  return row ? { rows: Number(row[0]), pages: Number(row[1]) } : { rows: 0, pages: 0 };
}

/** Stores a walk's progress; the caller runs it in the transaction of the batch it counts. */
export async function saveWalk(
  connection: DuckDBConnection,
  table: string,
  walk: string,
  progress: WalkProgress,
): Promise<void> {
  await forgetWalk(connection, table, walk);
  await connection.run(`INSERT INTO ${WALKS_TABLE} VALUES ($1, $2, $3, $4, now()::TIMESTAMP)`, [
    table,
    walk,
    BigInt(progress.rows),
    BigInt(progress.pages),
  ]);
}

/** Forgets a walk (it finished). */
export async function forgetWalk(connection: DuckDBConnection, table: string, walk: string): Promise<void> {
  await connection.run(`DELETE FROM ${WALKS_TABLE} WHERE table_name = $1 AND walk = $2`, [table, walk]);
}
