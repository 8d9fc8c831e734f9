/**
 * The columns of one table as a load sees them: read from the store when the table exists,
 * created from the first batch's values when it does not, and grown (new columns) or widened
 * (a type that holds the new values too) before a batch that needs it. Only columns of the
 * store's own types are ever widened: a column of another type (made by SQL or an import) keeps
 * it, and its values are cast on the way in (`value-writers.ts`).
 *
 * Column names ignore case, as SQL's do: a record's `title` goes into a column `Title`, and a
 * record with both `Title` and `title` is refused ({@link ColumnCaseError}).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { FlatRecord } from '../rows/flat-rows.js';
import {
  type ColumnType,
  columnTypeOf,
  storeTypeOf,
  typeOfValue,
  type ValueType,
  widen,
  widenExpression,
} from './column-types.js';
import { ColumnCaseError } from './load-errors.js';
import { quoteName } from './sql-names.js';

/**
 * One column: its name (as `toRows()` names it) and its type, one of the store's own, or (`foreign`)
 * one it did not create, as DuckDB names it (`DECIMAL(38,10)`), which a load never alters.
 */
export type Column =
  | { name: string; type: ColumnType; foreign?: false }
  | { name: string; type: string; foreign: true };

/** The most columns a load gives one table: a guard against records with unbounded key sets. */
const MAX_COLUMNS = 2000;

/** The columns of `table` in the store, or null when there is no such table. */
export async function readColumns(connection: DuckDBConnection, table: string): Promise<Column[] | null> {
  const reader = await connection.runAndReadAll(
    `SELECT column_name, data_type FROM information_schema.columns
     WHERE table_name = $1 AND table_schema = current_schema() ORDER BY ordinal_position`,
    [table],
  );
  const rows = reader.getRows();
  if (rows.length === 0) return null;
  return (rows as [string, string][]).map(([name, duckType]) => {
    const type = storeTypeOf(duckType);
    return type === null ? { name, type: duckType, foreign: true } : { name, type };
  });
}

/** What a batch asks of the table: columns to add and columns to widen. */
export interface SchemaChange {
  add: { name: string; type: ColumnType }[];
  widen: { name: string; from: ColumnType; to: ColumnType }[];
}

/**
 * The types the values of `rows` ask for, column by column, under the name first seen of each
 * column (names compared ignoring case; columns that are only null are left out).
 * @throws ColumnCaseError for a record with two keys that differ only by case
 */
function typesOf(rows: readonly FlatRecord[]): Map<string, { name: string; type: ValueType }> {
  const types = new Map<string, { name: string; type: ValueType }>();
  /** The last row that had each lower-cased name, and its key there. */
  const lastSeen = new Map<string, { row: number; key: string }>();
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index]!;
    for (const name in row) {
      const lower = name.toLowerCase();
      const seen = lastSeen.get(lower);
      if (seen !== undefined && seen.row === index && seen.key !== name)
        throw new ColumnCaseError(seen.key, name);
      lastSeen.set(lower, { row: index, key: name });
      const type = typeOfValue(row[name]);
      if (type === null) continue;
      const known = types.get(lower);
      if (known === undefined) types.set(lower, { name, type });
      else if (known.type !== type) known.type = widen(known.type, type);
    }
  }
  return types;
}

/**
 * What `rows` need of a table that has `columns` (none when it does not exist yet). Columns of
 * types the store did not create are never widened: their values are cast on the way in.
 */
export function planChange(columns: readonly Column[], rows: readonly FlatRecord[]): SchemaChange {
  const byName = new Map(columns.map((column) => [column.name.toLowerCase(), column]));
  const change: SchemaChange = { add: [], widen: [] };
  for (const [lower, { name, type }] of typesOf(rows)) {
    const column = byName.get(lower);
    if (column === undefined) {
      change.add.push({ name, type: columnTypeOf(type) });
    } else if (!column.foreign) {
      const wider = columnTypeOf(widen(column.type, type));
      if (wider !== column.type) change.widen.push({ name: column.name, from: column.type, to: wider });
    }
  }
  if (columns.length + change.add.length > MAX_COLUMNS) {
    throw new RangeError(
      `a table of the store holds at most ${MAX_COLUMNS} columns; these records would make ${columns.length + change.add.length}`,
    );
  }
  return change;
}

/** Whether a change changes anything. */
export function isEmptyChange(change: SchemaChange): boolean {
  return change.add.length === 0 && change.widen.length === 0;
}

/**
 * Applies `change` to `table` (creating it when `columns` is null) and answers the new columns.
 * The caller runs it inside the batch's transaction.
 */
export async function applyChange(
  connection: DuckDBConnection,
  table: string,
  columns: readonly Column[] | null,
  change: SchemaChange,
  primaryKey: string | null = null,
): Promise<Column[]> {
  const quoted = quoteName(table);
  if (columns === null) {
    const list = change.add
      .map(
        (column) =>
          `${quoteName(column.name)} ${column.type}${column.name === primaryKey ? ' PRIMARY KEY' : ''}`,
      )
      .join(', ');
    await connection.run(`CREATE TABLE ${quoted} (${list})`);
    return [...change.add];
  }
  const next: Column[] = columns.map((column) => ({ ...column }));
  for (const { name, from, to } of change.widen) {
    await connection.run(
      `ALTER TABLE ${quoted} ALTER COLUMN ${quoteName(name)} SET DATA TYPE ${to} USING ${widenExpression(quoteName(name), from, to)}`,
    );
    const at = next.findIndex((column) => column.name === name);
    next[at] = { name, type: to };
  }
  for (const column of change.add) {
    await connection.run(`ALTER TABLE ${quoted} ADD COLUMN ${quoteName(column.name)} ${column.type}`);
    next.push(column);
  }
  return next;
}
