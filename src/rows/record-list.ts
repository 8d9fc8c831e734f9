/**
 * `RecordList`: what `await list` answers. An ordinary array of the rows (index it, `map` it,
 * `JSON.stringify` it) that also knows where it sits in the longer list, exports itself
 * (`toRows`, `toCSV`, `save`), and shows itself as a table in the REPL and in notebooks, saying
 * when it is only a window of the list (`first 40 — .all() fetches all`) or empty (`no results`).
 */
import { assertJsonDepth } from '../records/json.js';
import { redactJson } from '../redact.js';
import { type FlatRow, toCsv, toFlatRows } from './flat-rows.js';
import { kListWindow, type ListWindow } from './list-window.js';
import { extensionOf, JUPYTER_DISPLAY, REPL_DISPLAY, type SavedFile, writeWhole } from './saved-file.js';

/** Terminal facts the REPL hands to a value that draws itself. */
interface TerminalContext {
  width: number;
  height: number;
  color: boolean;
}

/** How lists show themselves; set by the presentation layer (`presentation/list-display.ts`). */
interface ListDisplay {
  terminal(rows: readonly unknown[], context: TerminalContext): string;
  notebook(rows: readonly unknown[]): Record<string, string>;
}

/** The tables live in the presentation layer, loaded by the front ends, not by the SDK alone. */
let display: ListDisplay | undefined;

/** Installs how lists show themselves (the presentation layer does, on import). */
export function setListDisplay(renderers: ListDisplay): void {
  display = renderers;
}

/** Without the presentation layer loaded, a list shows as a count. */
function countOf(rows: readonly unknown[]): string {
  return rows.length === 0 ? 'no results' : `${rows.length} ${rows.length === 1 ? 'row' : 'rows'}`;
}

/** Rows of a list read with `await`, and what is known about the list around them. */
export class RecordList<T> extends Array<T> {
  /** `map`, `filter`, `slice`… answer plain arrays: their rows are no longer this window. */
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }

  /** Makes a record list of `rows`, the window `window` of a longer list (default: the whole list). */
  static fromWindow<T>(rows: Iterable<T>, window: ListWindow = { offset: 0, more: false }): RecordList<T> {
    const list = new RecordList<T>();
    for (const row of rows) list.push(row); // not push(...rows): 100,000 arguments overflow the stack
    list.#window = { ...window };
    return list;
  }

  #window: ListWindow = { offset: 0, more: false };

  /** Where the rows sit in the list: `offset`, whether it may go on (`more`), its owner if known. */
  get [kListWindow](): ListWindow {
    return this.#window;
  }

  /** Rows of the list before these. */
  get offset(): number {
    return this.#window.offset;
  }

  /** Whether the list may go on past these rows (the window came back full): `.all()` reads it all. */
  get more(): boolean {
    return this.#window.more;
  }

  /** The rows as flat objects (`{ id, title, "author.username", "stats.views", … }`) for dataframes and charts. */
  toRows(): FlatRow[] {
    return toFlatRows(this, { owner: this.#window.owner });
  }

  /** The rows as CSV: a header of every flat key ({@link toRows}), one line per row. */
  toCSV(): string {
    return toCsv(this.toRows());
  }

  /**
   * Writes the rows to `file`, in the format its extension names: `.csv` ({@link toCSV}) or `.json`
   * (the records as they came, secrets redacted). Written whole or not at all.
   * @throws TypeError for another extension
   */
  save(file: string): Promise<SavedFile> {
    const ext = extensionOf(file, 'projects.csv');
    if (ext === 'csv') return writeWhole(file, this.toCSV(), 'CSV');
    if (ext === 'json') {
      const records = redactJson([...this]);
      assertJsonDepth(records, undefined, 'records');
      return writeWhole(file, `${JSON.stringify(records, null, 2)}\n`, 'JSON');
    }
    return Promise.reject(new TypeError(`save() writes .csv or .json, not "${file}"`));
  }

  /** The REPL shows the rows as a table fitted to the terminal (`no results` when empty). */
  [REPL_DISPLAY](context: TerminalContext): string {
    return display ? display.terminal(this, context) : countOf(this);
  }

  /** Notebooks show the rows as an HTML table with a plain-text twin (`no results` when empty). */
  [JUPYTER_DISPLAY](): Record<string, string> {
    return display ? display.notebook(this) : { 'text/plain': countOf(this) };
  }
}
