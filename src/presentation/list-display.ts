/**
 * How a record list shows itself: a table for the terminal and one for notebooks, or `no results`.
 * Registered with `record-list.ts` when the presentation layer is imported (as the REPL and the
 * kernel do), so that importing the SDK alone does not load the table renderers.
 */

import { listWindowOf } from '../rows/list-window.js';
import { setListDisplay } from '../rows/record-list.js';
import { recordKind } from './detect.js';
import { renderHtmlTable } from './render-html.js';
import { renderTable } from './render-terminal.js';
import { type TextTable, toTable } from './table.js';
import { toValueTable } from './value-table.js';

/** The table shown for a list's rows, or `null` when they are empty or not objects. */
function tableOf(rows: readonly unknown[]): TextTable | null {
  if (rows.length === 0) return null;
  if (recordKind(rows) !== null) return toTable(rows);
  const table = toValueTable(rows);
  const window = listWindowOf(rows);
  return table ? { ...table, ...(window ? { window } : {}) } : null;
}

setListDisplay({
  terminal(rows, context) {
    const table = tableOf(rows);
    return table ? renderTable(table, { width: context.width, color: context.color }) : 'no results';
  },
  notebook(rows): Record<string, string> {
    const table = tableOf(rows);
    if (!table) return { 'text/plain': 'no results' };
    return { 'text/html': renderHtmlTable(table), 'text/plain': renderTable(table, { width: 120 }) };
  },
});
