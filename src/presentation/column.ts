/** What a table's column is: its spec for renderers and how it reads a record. */

/** A raw cell value, before formatting. */
export type Cell = string | number | boolean | null;

/** What a table knows besides its records. */
export interface ColumnContext {
  /**
   * Whose list the records are, when it is one user's own (`users.projects(u)`): rows of such a
   * list name no author (WIRE.md §10), so the author column shows this username.
   */
  readonly owner?: string;
}

/** What renderers need to know about a column (everything but how to read a record). */
export interface ColumnSpec {
  /** Stable identifier, e.g. `"views"`. */
  readonly key: string;
  /** Header text. */
  readonly header: string;
  /** Numbers are right-aligned; text defaults to left. */
  readonly align?: 'left' | 'right';
  /** Longest a cell may be shown (in terminal columns); longer text is cut with `…`. */
  readonly maxWidth?: number;
  /** Narrowest the column may shrink to before it is dropped instead (text columns only). */
  readonly minWidth?: number;
  /**
   * How much the column matters: when the terminal is too narrow, the columns with the lowest
   * priority are dropped first.
   */
  readonly priority: number;
}

/** A column of a table of records of type `R`. */
export interface Column<R> extends ColumnSpec {
  /**
   * The raw value of this column for a record. Never throws on the shapes real answers have:
   * fields WIRE.md §10 says may be missing or null give `null`.
   */
  get(record: R, context: ColumnContext): Cell;
  /** Cell text for a raw value; the default shows numbers as-is, booleans as `yes`/`no`. */
  format?(value: Cell): string;
  /** A site-relative link for the cell (e.g. `/users/alice/`), used by the HTML renderer. */
  href?(record: R, context: ColumnContext): string | null;
  /**
   * A flag column left out of a table of several records that all share one value (every row of
   * a search is public): it would say nothing.
   */
  readonly dropIfUniform?: boolean;
}
