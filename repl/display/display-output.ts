/**
 * `display(value, options?)`: shows a value now (a table, a chart, a record list, an object with a
 * Jupyter MIME bundle, any value) and answers a handle whose `update(value)` replaces that output.
 */
import { inspect } from 'node:util';
import { PagedList } from 'scratchlab';
import type { Activity } from '../terminal/activity.js';
import { rowsOf, type ScreenRows } from '../terminal/screen-rows.js';
import { awaitedByRepl, type OutputNotes, quietValue } from './display.js';
import { type ShowOptions, showText } from './show.js';
import type { Writer, WriterOptions } from './writer.js';

/** Options of `display`: those of `show` (they make a value a table: `rows`, `kind`). */
type DisplayOptions = ShowOptions;

/** What `display` writes to. */
interface DisplayHost extends WriterOptions {
  output: NodeJS.WriteStream;
  /** Line editing is on: outputs can be redrawn in place. */
  isTerminal: boolean;
  activity: Activity;
  notes: OutputNotes;
  screen: ScreenRows;
  writer: Writer;
  /** Redraws the prompt and what is typed (after output written while the prompt is shown). */
  redrawPrompt(): void;
}

let nextId = 1;

/**
 * A shown output. In a terminal, {@link DisplayHandle.update} redraws the output in place when it
 * is still on screen and the new one is no taller; otherwise (scrolled away, taller, or output
 * that is not a terminal) it prints the new output anew, below.
 */
class DisplayHandle {
  /** Numbers the outputs of this REPL, from 1. */
  readonly id = nextId++;
  readonly #host: DisplayHost;
  /** Row of the output's first line, and how many rows it takes. */
  #top = 0;
  #height = 0;

  /** @internal Made by `display()`. */
  constructor(host: DisplayHost) {
    this.#host = host;
  }

  /** Replaces this output with `value` (with `display`'s options); answers the handle. */
  update(value: unknown, options: DisplayOptions = {}): this {
    const text = render(this.#host, value, options);
    const { screen, output, isTerminal } = this.#host;
    const { width, height } = this.#host.size();
    const rows = rowsOf(text, width);
    const inPlace =
      isTerminal &&
      this.#height > 0 &&
      rows <= this.#height &&
      this.#top >= screen.firstVisibleRow(height) &&
      this.#top + this.#height <= screen.row;
    if (!inPlace) {
      this.show(text);
      return this;
    }
    const { row, column } = screen;
    const lines = text.split('\n');
    // Blank rows keep the old height when the new output is shorter (nothing below moves).
    for (let extra = this.#height - rows; extra > 0; extra--) lines.push('');
    let out = `\x1b[${row - this.#top}A`;
    out += lines.map((line) => `\r\x1b[2K${line}`).join('\n');
    const down = row - (this.#top + this.#height - 1);
    if (down > 0) out += `\x1b[${down}B`;
    out += `\x1b[${column + 1}G`;
    output.write(out);
    this.#host.notes.printed();
    return this;
  }

  /** @internal Writes `text` as a new output below everything, and remembers where it is. */
  show(text: string): void {
    const { output, activity, screen } = this.#host;
    const atPrompt = !activity.busy && this.#host.isTerminal;
    if (atPrompt || screen.column > 0) output.write(atPrompt ? '\r\x1b[2K' : '\n');
    this.#top = screen.row;
    output.write(`${text}\n`);
    this.#height = screen.row - this.#top;
    this.#host.notes.printed();
    if (atPrompt) this.#host.redrawPrompt();
  }

  [inspect.custom](): string {
    return `DisplayHandle { id: ${this.id} } (.update(value) replaces the output)`;
  }
}

function render(host: DisplayHost, value: unknown, options: DisplayOptions): string {
  return options.rows !== undefined || options.kind !== undefined
    ? showText(value, options, host)
    : host.writer(value);
}

/** The `display` helper. */
type Display = (value: unknown, options?: DisplayOptions) => DisplayHandle | Promise<DisplayHandle>;

/** Makes `display(value, options?)`. A list or promise is awaited first (the REPL awaits the call). */
export function createDisplay(host: DisplayHost): Display {
  const now = (value: unknown, options: DisplayOptions): DisplayHandle => {
    const handle = quietValue(new DisplayHandle(host));
    handle.show(render(host, value, options));
    return handle;
  };
  return (value, options = {}) => {
    if (value instanceof PagedList || value instanceof Promise) {
      return awaitedByRepl(Promise.resolve(value).then((resolved: unknown) => now(resolved, options)));
    }
    return now(value, options);
  };
}
