/** Names and texts written into SQL: identifiers double-quoted, literals single-quoted. */

/** `name` as a quoted SQL identifier (`"author.username"`). */
export function quoteName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `text` as a SQL string literal (file names of `COPY`, which takes no parameters). */
export function quoteText(text: string): string {
  if (text.includes('\0')) throw new TypeError('a name or path cannot hold a NUL character');
  return `'${text.replace(/'/g, "''")}'`;
}

/** Checks a table name given by the caller. */
export function checkTableName(table: unknown, what = 'table'): string {
  if (typeof table !== 'string' || table.trim() === '' || table.length > 200 || table.includes('\0')) {
    throw new TypeError(`${what} must be a table name (a non-empty string of at most 200 characters)`);
  }
  return table;
}
