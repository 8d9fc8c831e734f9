/**
 * Tables as terminal text: aligned columns under a bold header, fitted to a terminal width.
 */
import { Chalk, type ChalkInstance } from 'chalk';
import { windowNote } from '../rows/list-window.js';
import type { ColumnSpec } from './columns.js';
import { formatCount } from './format.js';
import type { TextTable } from './table.js';
import { padToWidth, textWidth, truncateToWidth } from './text-width.js';

/** Options of {@link renderTable}. */
export interface RenderTableOptions {
  /** Terminal width in columns; no line is wider (default 80). */
  width?: number;
  /** Whether to use ANSI colours (default false). Never detected from the environment. */
  color?: boolean;
}

const GAP = '  ';
/** Text columns shrink no narrower than this unless they set `minWidth`. */
const DEFAULT_MIN_WIDTH = 8;

interface Sized {
  readonly index: number;
  readonly spec: ColumnSpec;
  readonly natural: number;
  readonly min: number;
  width: number;
}

function sizeColumns(table: TextTable): Sized[] {
  return table.columns.map((spec, index) => {
    const header = textWidth(spec.header);
    let widest = 0;
    for (const row of table.rows) widest = Math.max(widest, textWidth(row[index] ?? ''));
    const natural = Math.max(header, Math.min(widest, spec.maxWidth ?? Number.POSITIVE_INFINITY));
    // Numbers are never cut (a cut number reads as a different number); text may shrink.
    const min =
      spec.align === 'right'
        ? natural
        : Math.min(natural, Math.max(header, spec.minWidth ?? DEFAULT_MIN_WIDTH));
    return { index, spec, natural, min, width: natural };
  });
}

const totalWidth = (cols: readonly Sized[], pick: (c: Sized) => number): number =>
  cols.reduce((sum, c) => sum + pick(c), 0) + GAP.length * Math.max(0, cols.length - 1);

/** Decide which columns are shown and how wide: drop by priority, then shrink the widest. */
function layout(table: TextTable, width: number): { shown: Sized[]; hidden: ColumnSpec[] } {
  let shown = sizeColumns(table);
  const hidden: ColumnSpec[] = [];
  while (shown.length > 1 && totalWidth(shown, (c) => c.min) > width) {
    // Lowest priority goes first; among equals, the rightmost.
    let drop = shown[0]!;
    for (const c of shown) if (c.spec.priority <= drop.spec.priority) drop = c;
    hidden.push(drop.spec);
    shown = shown.filter((c) => c !== drop);
  }
  let excess = totalWidth(shown, (c) => c.width) - width;
  while (excess > 0) {
    let widest: Sized | undefined;
    for (const c of shown) if (c.width > c.min && (!widest || c.width > widest.width)) widest = c;
    if (!widest) break;
    widest.width--;
    excess--;
  }
  // A single column whose minimum is still too wide: cut it to the terminal anyway.
  if (excess > 0 && shown.length === 1) shown[0]!.width = Math.max(1, width);
  hidden.sort((a, b) => table.columns.indexOf(a) - table.columns.indexOf(b));
  return { shown, hidden };
}

/**
 * The line saying what is left out: of a window of a longer list, e.g. `first 40 — .all() fetches
 * all`; of a whole list, e.g. `… 960 more rows (1,000 total)`.
 */
export function truncationLine(table: TextTable): string | null {
  const note = windowNote(table.window, table.total, table.rows.length);
  if (note) return note;
  if (table.truncatedRows <= 0) return null;
  const n = table.truncatedRows;
  return `… ${formatCount(n)} more ${n === 1 ? 'row' : 'rows'} (${formatCount(table.total)} total)`;
}

/**
 * Render a table for a terminal. Every body line has the same display width, no line is wider than
 * `width`; cells too long are cut with `…`, and when even the narrowest layout does not fit, the
 * least important columns are left out (and named in a last line).
 */
export function renderTable(table: TextTable, options: RenderTableOptions = {}): string {
  const width = Math.max(1, Math.floor(options.width ?? 80));
  const chalk: ChalkInstance = new Chalk({ level: options.color ? 1 : 0 });
  const { shown, hidden } = layout(table, width);
  const line = (cells: (c: Sized) => string): string => shown.map(cells).join(GAP);

  const out: string[] = [];
  out.push(chalk.bold(line((c) => padToWidth(c.spec.header, c.width, c.spec.align))));
  out.push(chalk.dim(line((c) => '─'.repeat(c.width))));
  for (const row of table.rows) {
    out.push(line((c) => padToWidth(row[c.index] ?? '', c.width, c.spec.align)));
  }
  const notes: string[] = [];
  if (table.total === 0) notes.push('no results');
  const cut = truncationLine(table);
  if (cut) notes.push(cut);
  if (hidden.length > 0) {
    notes.push(
      `(${hidden.length} hidden: ${hidden.map((c) => c.header).join(', ')}; widen the terminal to see them)`,
    );
  }
  for (const note of notes) out.push(chalk.dim(truncateToWidth(note, width)));
  return out.join('\n');
}

/** Options of {@link renderPlainTable}. */
export interface RenderPlainTableOptions {
  /** Line width (default 120, roughly a notebook's plain-text output). */
  width?: number;
}

/** A table as plain text without colours, for `text/plain` outputs. */
export function renderPlainTable(table: TextTable, options: RenderPlainTableOptions = {}): string {
  return renderTable(table, { width: options.width ?? 120, color: false });
}
