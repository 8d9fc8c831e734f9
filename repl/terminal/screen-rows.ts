/**
 * Where the cursor is, in rows counted since the REPL started: every write to the terminal (and
 * to stderr, which shares the screen) is followed — text, line feeds, wrapping at the terminal's
 * width, and the relative cursor moves readline uses. `display()` handles use it to know whether
 * their output is still on screen and how far up it is.
 */
import stringWidth from 'string-width';

// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are what is parsed.
const TOKEN = /\x1b\[([0-9;?]*)[ -/]*([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b.|\r|\n|[^\x1b\r\n]+/g;

/** Rows the lines of `text` take on a terminal `columns` wide (a line wider than it wraps). */
export function rowsOf(text: string, columns: number): number {
  return text.split('\n').reduce((sum, line) => sum + Math.max(1, Math.ceil(stringWidth(line) / columns)), 0);
}

/** The cursor's position as the terminal sees it, followed from what is written. */
export class ScreenRows {
  /** Row of the cursor (0 = where the REPL started). */
  #row = 0;
  #col = 0;
  /** Lowest row written to: the screen's last line. */
  #bottom = 0;
  readonly #columns: () => number;

  constructor(streams: readonly NodeJS.WriteStream[], columns: () => number) {
    this.#columns = columns;
    for (const stream of streams) {
      const write = stream.write;
      stream.write = ((chunk: unknown, ...rest: unknown[]) => {
        if (typeof chunk === 'string') this.feed(chunk);
        else if (chunk instanceof Uint8Array) this.feed(Buffer.from(chunk).toString('utf8'));
        return Reflect.apply(write, stream, [chunk, ...rest]) as boolean;
      }) as typeof write;
    }
  }

  get row(): number {
    return this.#row;
  }

  /** Column of the cursor, 0-based. */
  get column(): number {
    return this.#col;
  }

  /** The first row still on a screen `height` rows high. */
  firstVisibleRow(height: number): number {
    return Math.max(0, this.#bottom - height + 1);
  }

  /** Follows `text` as written. */
  feed(text: string): void {
    const columns = Math.max(1, this.#columns());
    for (const match of text.matchAll(TOKEN)) {
      const [token, params, final] = match;
      if (final !== undefined) {
        const n = Math.max(1, Number.parseInt(params || '1', 10) || 1);
        if (final === 'A') this.#row = Math.max(0, this.#row - n);
        else if (final === 'B') this.#row += n;
        else if (final === 'E') [this.#row, this.#col] = [this.#row + n, 0];
        else if (final === 'F') [this.#row, this.#col] = [Math.max(0, this.#row - n), 0];
        else if (final === 'G') this.#col = n - 1;
        else if (final === 'C') this.#col = Math.min(columns - 1, this.#col + n);
        else if (final === 'D') this.#col = Math.max(0, this.#col - n);
      } else if (token === '\n') {
        this.#row++;
        this.#col = 0;
      } else if (token === '\r') {
        this.#col = 0;
      } else if (token[0] !== '\x1b') {
        this.#col += stringWidth(token);
        // A full line moves the cursor down only when the next character comes: approximated here.
        while (this.#col > columns) {
          this.#col -= columns;
          this.#row++;
        }
      }
      if (this.#row > this.#bottom) this.#bottom = this.#row;
    }
  }
}
