/**
 * A small terminal emulator for the tests: it applies the output of a pseudo-terminal (text,
 * CR/LF, cursor moves, erases) to a grid, so a test can read the screen as a person would see it,
 * after redraws in place. Enough of VT100 for readline and the REPL; colours are ignored.
 */
import stringWidth from 'string-width';

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are what is parsed.
const CSI = /^\x1b\[([?>=]?)([0-9;]*)([ -/]*)([@-~])/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are what is parsed.
const OSC = /^\x1b\][^\x07\x1b]*(\x07|\x1b\\)/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are what is parsed.
const INCOMPLETE = /^\x1b(\[[0-9;?]*|\][^\x07]*)?$/;

export class Screen {
  readonly cols: number;
  readonly rows: number;
  /** Every line ever shown (scrollback, then the visible screen), as cells. */
  readonly #lines: string[][] = [[]];
  /** Index in #lines of the first visible row. */
  #top = 0;
  #row = 0;
  #col = 0;
  /** Bytes of an escape sequence split across two chunks. */
  #pending = '';

  constructor(cols: number, rows: number) {
    this.cols = cols;
    this.rows = rows;
  }

  /** Applies a chunk of output. */
  write(data: string): void {
    const text = this.#pending + data;
    this.#pending = '';
    let i = 0;
    while (i < text.length) {
      const ch = text[i]!;
      if (ch === '\x1b') {
        const rest = text.slice(i);
        const csi = CSI.exec(rest);
        if (csi) {
          this.#csi(csi[1]!, csi[2]!, csi[4]!);
          i += csi[0].length;
          continue;
        }
        const osc = OSC.exec(rest);
        if (osc) {
          i += osc[0].length;
          continue;
        }
        if (INCOMPLETE.test(rest)) {
          this.#pending = rest; // incomplete: wait for the next chunk
          return;
        }
        i += 2; // a two-character escape we do not model
        continue;
      }
      if (ch === '\r') this.#col = 0;
      else if (ch === '\n') this.#lineFeed();
      else if (ch === '\b') this.#col = Math.max(0, this.#col - 1);
      else if (ch === '\t') this.#col = Math.min(this.cols - 1, (Math.floor(this.#col / 8) + 1) * 8);
      else if (ch < ' ' || ch === '\x7f') {
        // other controls (BEL, …) draw nothing
      } else {
        // One grapheme (an emoji may be several code units).
        const { segment } = graphemes
          .segment(text.slice(i, i + 16))
          [Symbol.iterator]()
          .next().value!;
        this.#put(segment);
        i += segment.length;
        continue;
      }
      i++;
    }
  }

  /** Every line (scrollback and screen), trailing blanks removed. */
  text(): string {
    const lines = this.#lines.map((cells) => cells.join('').trimEnd());
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    return lines.join('\n');
  }

  /** The visible rows only. */
  visible(): string {
    return this.#lines
      .slice(this.#top, this.#top + this.rows)
      .map((cells) => cells.join('').trimEnd())
      .join('\n')
      .trimEnd();
  }

  /** The line the cursor is on. */
  cursorLine(): string {
    return (this.#lines[this.#row] ?? []).join('').trimEnd();
  }

  #line(row: number): string[] {
    while (this.#lines.length <= row) this.#lines.push([]);
    return this.#lines[row]!;
  }

  #put(segment: string): void {
    const width = stringWidth(segment);
    if (width === 0) return;
    if (this.#col + width > this.cols) {
      this.#col = 0;
      this.#lineFeed();
    }
    const line = this.#line(this.#row);
    while (line.length < this.#col) line.push(' ');
    line[this.#col] = segment;
    if (width === 2) line[this.#col + 1] = '';
    this.#col += width;
  }

  #lineFeed(): void {
    this.#row++;
    this.#line(this.#row);
    if (this.#row >= this.#top + this.rows) this.#top = this.#row - this.rows + 1;
  }

  #csi(private_: string, params: string, final: string): void {
    if (private_) return; // ?25l and friends
    const args = params.split(';').map((p) => (p === '' ? undefined : Number(p)));
    const n = args[0] ?? 1;
    switch (final) {
      case 'A':
        this.#row = Math.max(this.#top, this.#row - n);
        break;
      case 'B':
        this.#row = Math.min(this.#top + this.rows - 1, this.#row + n);
        this.#line(this.#row);
        break;
      case 'C':
        this.#col = Math.min(this.cols - 1, this.#col + n);
        break;
      case 'D':
        this.#col = Math.max(0, this.#col - n);
        break;
      case 'G':
        this.#col = Math.min(this.cols - 1, Math.max(0, n - 1));
        break;
      case 'H':
      case 'f':
        this.#row = this.#top + Math.max(0, (args[0] ?? 1) - 1);
        this.#col = Math.max(0, (args[1] ?? 1) - 1);
        this.#line(this.#row);
        break;
      case 'K': {
        const mode = args[0] ?? 0;
        const line = this.#line(this.#row);
        if (mode === 0) line.length = Math.min(line.length, this.#col);
        else if (mode === 1) for (let c = 0; c <= this.#col && c < line.length; c++) line[c] = ' ';
        else line.length = 0;
        break;
      }
      case 'J': {
        const mode = args[0] ?? 0;
        if (mode === 0) {
          const line = this.#line(this.#row);
          line.length = Math.min(line.length, this.#col);
          for (let r = this.#row + 1; r < this.#lines.length; r++) this.#lines[r] = [];
        } else if (mode === 2) {
          for (let r = this.#top; r < this.#lines.length; r++) this.#lines[r] = [];
        }
        break;
      }
      default:
        break; // m (colours) and anything else: no effect on text
    }
  }
}
