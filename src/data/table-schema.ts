/**
 * The columns of one table as a load sees them: read from the store when the table exists,
 * created from the first batch's values when it does not, and grown (new columns) or widened
 * (a type that holds the new values too) before a batch that needs it.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { FlatRecord } from '../rows/flat-rows.js';
import {
  type ColumnType,
  columnTypeOf,
  nearestStoreType,
  storeTypeOf,
  typeOfValue,
  type ValueType,
  widen,
  widenExpression,
} from './column-types.js';
import { quoteName } from './sql-names.js';

/** One column: its name (as `toRows()` names it) and its type. */
export interface Column {
  name: string;
  type: ColumnType;
}

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
  const columns: Column[] = [];
  for (const [name, duckType] of rows as [string, string][]) {
    const type = storeTypeOf(duckType);
    if (type === null) {
      // A column the store does not write as it is (e.g. an INTEGER from an import): widened once.
      const to = nearestStoreType(duckType);
      await connection.run(
        `ALTER TABLE ${quoteName(table)} ALTER COLUMN ${quoteName(name)} SET DATA TYPE ${to} USING ${widenExpression(quoteName(name), duckType, to)}`,
      );
      columns.push({ name, type: to });
    } else {
      columns.push({ name, type });
    }
  }
  return columns;
}

/** What a batch asks of the table: columns to add and columns to widen. */
interface SchemaChange {
  add: Column[];
  widen: { name: string; from: ColumnType; to: ColumnType }[];
}

/** The types the values of `rows` ask for, column by column (columns that are only null are left out). */
function typesOf(rows: readonly FlatRecord[]): Map<string, ValueType> {
  const types = new Map<string, ValueType>();
  for (const row of rows) {
    for (const name in row) {
      const type = typeOfValue(row[name]);
      if (type === null) continue;
      const known = types.get(name);
      types.set(name, known === undefined || known === type ? type : widen(known, type));
    }
  }
  return types;
}

/** What `rows` need of a table that has `columns` (none when it does not exist yet). */
export function planChange(columns: readonly Column[], rows: readonly FlatRecord[]): SchemaChange {
  const byName = new Map(columns.map((column) => [column.name, column]));
  const change: SchemaChange = { add: [], widen: [] };
  for (const [name, type] of typesOf(rows)) {
    const column = byName.get(name);
    if (column === undefined) {
      change.add.push({ name, type: columnTypeOf(type) });
    } else {
      const wider = columnTypeOf(widen(column.type, type));
      if (wider !== column.type) change.widen.push({ name, from: column.type, to: wider });
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
  const next = columns.map((column) => ({ ...column }));
  for (const { name, from, to } of change.widen) {
    await connection.run(
      `ALTER TABLE ${quoted} ALTER COLUMN ${quoteName(name)} SET DATA TYPE ${to} USING ${widenExpression(quoteName(name), from, to)}`,
    );
    next.find((column) => column.name === name)!.type = to;
  }
  for (const column of change.add) {
    await connection.run(`ALTER TABLE ${quoted} ADD COLUMN ${quoteName(column.name)} ${column.type}`);
    next.push(column);
  }
  return next;
}
