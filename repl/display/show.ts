/**
 * `show(x)`: print `x` as a table now, wherever it is called (in a loop, in the middle of an
 * input), and with options the automatic tables do not take (more rows, a given record kind).
 */
import { inspect } from 'node:util';
import { PagedList } from 'scratchlab';
import {
  type RecordKind,
  recordKind,
  renderTable,
  type TextTable,
  toTable,
  toValueTable,
} from 'scratchlab/presentation';
import { awaitedByRepl, isDisplayable, kDisplay, type OutputNotes } from './display.js';
import type { WriterOptions } from './writer.js';

/** Options of `show`. */
export interface ShowOptions {
  /** Rows shown at most (default 40; `Infinity` for all). */
  rows?: number;
  /** The kind of the records, when their shape alone does not tell (e.g. an empty array). */
  kind?: RecordKind;
}

/** The `show` helper. */
type Show = (value: unknown, options?: ShowOptions) => undefined | Promise<void>;

/** What `show` writes to. */
interface ShowTarget extends WriterOptions {
  write(text: string): void;
  notes: OutputNotes;
}

function tableOf(value: unknown, options: ShowOptions): TextTable | null {
  const maxRows = options.rows ?? undefined;
  if (options.kind || recordKind(value) !== null) return toTable(value, { kind: options.kind, maxRows });
  return toValueTable(value, { maxRows });
}

/** `value` as `show` prints it: a table when it is one, else inspected. */
export function showText(value: unknown, options: ShowOptions, target: WriterOptions): string {
  const { width, height } = target.size();
  // A value that draws itself (a chart, an empty list) does, unless rows or a kind were asked for.
  if (isDisplayable(value) && options.rows === undefined && options.kind === undefined)
    return value[kDisplay]({ width, height, color: target.color });
  const table = tableOf(value, options);
  return table
    ? renderTable(table, { width, color: target.color })
    : inspect(value, { colors: target.color });
}

/** Makes `show(value, { rows, kind })`. A list or promise is awaited first (the REPL awaits the call). */
export function createShow(target: ShowTarget): Show {
  const print = (value: unknown, options: ShowOptions): undefined => {
    const text = showText(value, options, target);
    target.write(`${text}\n`);
    target.notes.printed();
    return undefined;
  };
  return (value, options = {}) => {
    if (value instanceof PagedList || value instanceof Promise) {
      return awaitedByRepl(Promise.resolve(value).then((resolved: unknown) => void print(resolved, options)));
    }
    return print(value, options);
  };
}
