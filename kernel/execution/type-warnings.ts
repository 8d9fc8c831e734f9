/**
 * A cell's type problems as the warning text shown under it (on stderr, as IPython shows
 * warnings): each at its cell line and column, with the line and a caret.
 */
import type { TypeProblem } from './type-check-messages.js';

/** Problems shown at most; the rest are counted. */
export const MAX_SHOWN = 20;

/** The warning for `problems` of the cell `file` (e.g. `Cell In[4]`) whose code is `source`. */
export function typeWarnings(problems: readonly TypeProblem[], file: string, source: string): string {
  const lines = source.split('\n');
  const shown = problems.slice(0, MAX_SHOWN).map((p) => {
    const where = `${p.file ?? file}, line ${p.line}, column ${p.column}`;
    const code = p.file === undefined ? lines[p.line - 1] : undefined;
    const caret = code === undefined ? '' : `\n    ${code}\n    ${' '.repeat(Math.max(0, p.column - 1))}^`;
    return `${where}: warning TS${p.code}: ${p.message}${caret}\n`;
  });
  const more = problems.length - shown.length;
  return shown.join('') + (more > 0 ? `… and ${more} more type problems\n` : '');
}
