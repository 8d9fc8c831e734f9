/**
 * The refusals of `store.load()`: records that the table cannot take as they are. Both are
 * caller mistakes (`TypeError`s) and are raised before the batch that holds the records is
 * written, so a load that fails leaves the table as it was (a resumable load keeps the batches
 * committed before).
 */

/** The most characters of a refused value quoted in a message. */
const MAX_QUOTED = 60;

function quoted(value: unknown): string {
  let text: string;
  try {
    text =
      typeof value === 'string'
        ? JSON.stringify(value)
        : typeof value === 'bigint'
          ? `${value}n`
          : (JSON.stringify(value) ?? String(value));
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text;
}

/**
 * A value that a column the store did not create cannot hold (e.g. `"a lot"` for a
 * `DECIMAL(38,10)` column made by SQL or an import). The store never changes such a column's type:
 * convert the value, or load into a table of its own.
 */
export class ColumnTypeError extends TypeError {
  override readonly name = 'ColumnTypeError';
  /** The column's name. */
  readonly column: string;
  /** The column's SQL type, e.g. `DECIMAL(38,10)`. */
  readonly columnType: string;

  constructor(column: string, columnType: string, value: unknown, cause?: unknown) {
    super(
      `column "${column}" is ${columnType}, which the store does not change (it did not create it), and cannot hold ${quoted(value)}: convert the value, or load into another table`,
      { cause },
    );
    this.column = column;
    this.columnType = columnType;
  }
}

/**
 * A record with keys that differ only by case (`Title` and `title`): a table's column names ignore
 * case, as SQL's do, so both would be one column. Rename one before loading (e.g.
 * `records.map(({ Title, ...rest }) => ({ ...rest, heading: Title }))`). Keys that differ by case
 * in different records are one column, named as it was first seen.
 */
export class ColumnCaseError extends TypeError {
  override readonly name = 'ColumnCaseError';
  /** The keys of the record, as they came. */
  readonly keys: readonly [string, string];

  constructor(first: string, second: string) {
    super(
      `a record has the keys "${first}" and "${second}", which a table cannot tell apart (its column names ignore case): rename one before loading`,
    );
    this.keys = [first, second];
  }
}
