/**
 * A cell's type problems as the warning text shown under it (on stderr, as IPython shows
 * warnings): each at its cell line and column, with the line and a caret.
 */
import type { TypeProblem } from './type-check-messages.js';

/** Problems shown at most; the rest are counted. */
export const MAX_SHOWN = 20;

/** Longest piece of a cell line shown (a line can be a megabyte of data); `…` marks what is cut. */
export const MAX_LINE_SHOWN = 160;

/** `line` (the part of it around `index` when long) and a caret under `index`, indented. */
function shownAt(line: string, index: number): string {
  const at = Math.max(0, Math.min(index, line.length));
  const start =
    line.length <= MAX_LINE_SHOWN ? 0 : Math.max(0, Math.min(at - 60, line.length - MAX_LINE_SHOWN));
  const end = start + MAX_LINE_SHOWN;
  const before = start > 0 ? '…' : '';
  const shown = `${before}${line.slice(start, end)}${end < line.length ? '…' : ''}`;
  return `\n    ${shown}\n    ${' '.repeat(at - start + before.length)}^`;
}

/** The warning for `problems` of the cell `file` (e.g. `Cell In[4]`) whose code is `source`. */
export function typeWarnings(problems: readonly TypeProblem[], file: string, source: string): string {
  const lines = source.split('\n');
  const shown = problems.slice(0, MAX_SHOWN).map((p) => {
    const where = `${p.file ?? file}, line ${p.line}, column ${p.column}`;
    const code = p.file === undefined ? lines[p.line - 1] : undefined;
    const caret = code === undefined ? '' : shownAt(code, p.column - 1);
    return `${where}: warning TS${p.code}: ${p.message}${caret}\n`;
  });
  const more = problems.length - shown.length;
  return shown.join('') + (more > 0 ? `… and ${more} more type problems\n` : '');
}
