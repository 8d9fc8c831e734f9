/**
 * The table model: records turned into rows of cell text, independent of where they are shown.
 * Terminal and HTML renderers both read this, so the REPL and the kernel show the same columns.
 */

import { type ListWindow, listWindowOf } from '../rows/list-window.js';
import { type Cell, type Column, type ColumnContext, type ColumnSpec, columnsFor } from './columns.js';
import { type RecordKind, type RecordOfKind, recordKind } from './detect.js';
import { formatCount, oneLine } from './format.js';
import { learnUsers } from './known-users.js';

/** Records laid out as rows of text. */
export interface Table {
  /** What the records are. */
  readonly kind: RecordKind;
  /** The columns, in display order. */
  readonly columns: readonly ColumnSpec[];
  /** One array of cell texts per shown record, one text per column (single-line, uncut). */
  readonly rows: readonly (readonly string[])[];
  /** Site-relative links per cell (`null` where a cell has none), parallel to `rows`. */
  readonly links: readonly (readonly (string | null)[])[];
  /** How many records there were in all. */
  readonly total: number;
  /** How many records were left out by `maxRows` (`total - rows.length`). */
  readonly truncatedRows: number;
  /** Where the records sit in a longer list, when they are a window of one (e.g. `await list`). */
  readonly window?: ListWindow;
}

/** The part of a {@link Table} that text renderers read: what any grid of cells has. */
export type TextTable = Pick<Table, 'columns' | 'rows' | 'total' | 'truncatedRows' | 'window'>;

/** Options of {@link toTable}. */
export interface ToTableOptions {
  /** The kind of the records; detected from their shape when left out. */
  kind?: RecordKind;
  /** Show at most this many records (default 40, one page of the API). */
  maxRows?: number;
  /** Where the records sit in a longer list (default: what the list carries, see `kListWindow`). */
  window?: ListWindow;
}

/** Default number of rows shown. */
export const DEFAULT_MAX_ROWS = 40;

function defaultFormat(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : formatCount(value);
  return value;
}

/**
 * Lay out one record or an array of records of one kind as a {@link Table}.
 *
 * @throws TypeError if `kind` is not given and the records are not all of one known kind.
 */
export function toTable(records: unknown, options: ToTableOptions = {}): Table {
  const list: readonly unknown[] = Array.isArray(records) ? records : [records];
  const kind = options.kind ?? recordKind(list);
  if (kind === null) {
    throw new TypeError(
      list.length === 0
        ? 'toTable: cannot tell the kind of an empty array; pass { kind }'
        : 'toTable: not an array of one kind of platform record (user, project, studio, comment, studioProject, logEntry, activity)',
    );
  }
  const maxRows = Math.max(0, Math.floor(options.maxRows ?? DEFAULT_MAX_ROWS));
  // The record type is erased here: `kind` was either detected from the shape or vouched for by
  // the caller, so each column reads the record it was written for.
  const shown = list.slice(0, maxRows) as RecordOfKind[RecordKind][];
  const window = options.window ?? listWindowOf(records);
  const context: ColumnContext = { owner: window?.owner };
  const all = columnsFor(kind) as ReadonlyArray<Column<RecordOfKind[RecordKind]>>;
  const columns =
    shown.length < 2
      ? all
      : all.filter((c) => !c.dropIfUniform || new Set(shown.map((r) => c.get(r, context))).size > 1);
  for (const r of shown) learnUsers(r);
  const rows = shown.map((r) => columns.map((c) => oneLine((c.format ?? defaultFormat)(c.get(r, context)))));
  const links = shown.map((r) => columns.map((c) => c.href?.(r, context) ?? null));
  return {
    kind,
    columns: columns.map(({ key, header, align, maxWidth, minWidth, priority }) => ({
      key,
      header,
      align,
      maxWidth,
      minWidth,
      priority,
    })),
    rows,
    links,
    total: list.length,
    truncatedRows: list.length - shown.length,
    ...(window ? { window } : {}),
  };
}
