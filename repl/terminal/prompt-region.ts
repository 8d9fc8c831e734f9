/**
 * A block of lines kept right above the prompt and redrawn in place, while the prompt below stays
 * usable (whatever is typed is redrawn with it by readline).
 *
 * Redrawing moves the cursor up over the block with ANSI escapes. That is only right while the
 * block is still directly above the prompt: as soon as anything else writes a line (an input's
 * output, a completion list), the old block becomes history and the next drawing starts afresh
 * above the new prompt. Other writers are noticed by watching `write` on stdout and stderr.
 */

/** What the region needs from the REPL. */
export interface PromptHost {
  /** The terminal (stdout). */
  readonly output: NodeJS.WriteStream;
  /** Other streams that share the screen (stderr): a newline there also moves the prompt. */
  readonly others?: readonly NodeJS.WriteStream[];
  /** Which row of the prompt's input the cursor is on (0 unless the input wraps). */
  cursorRow(): number;
  /** Redraws the prompt and the input typed so far, keeping the cursor where it was. */
  redrawPrompt(): void;
}

const ESC = '\x1b[';
const up = (n: number): string => (n > 0 ? `${ESC}${n}A` : '');

type Write = NodeJS.WriteStream['write'];

/** A redrawable block above the prompt. */
export class PromptRegion {
  readonly #host: PromptHost;
  readonly #restore: (() => void)[] = [];
  /** Lines of the block on screen now, directly above the prompt; 0 when there is none. */
  #height = 0;
  #drawing = false;
  #closed = false;

  constructor(host: PromptHost) {
    this.#host = host;
    for (const stream of [host.output, ...(host.others ?? [])]) this.#watch(stream);
    const onResize = () => {
      // Rewrapped lines no longer have the height we counted.
      this.#height = 0;
    };
    host.output.on('resize', onResize);
    this.#restore.push(() => host.output.off('resize', onResize));
  }

  /**
   * Draws `lines` above the prompt, replacing the previous drawing if it is still there. Call only
   * while the prompt is shown and idle (not while an input runs).
   */
  draw(lines: readonly string[]): void {
    if (this.#closed) return;
    const { output } = this.#host;
    const rows = output.rows ?? 24;
    // A block taller than the screen could not be reached again by moving up.
    const shown = lines.slice(Math.max(0, lines.length - Math.max(1, rows - 2)));
    const row = this.#host.cursorRow();
    let text = up(row + this.#height); // to the block's first line (or the prompt's, if none)
    text += `\r${ESC}J`; // clear from there down, the old prompt included
    text += `${shown.join('\n')}\n`;
    // Stand where readline believes the cursor is, so its redraw lands below the block.
    text += '\n'.repeat(row);
    this.#drawing = true;
    try {
      output.write(text);
      this.#host.redrawPrompt();
    } finally {
      this.#drawing = false;
    }
    this.#height = shown.length;
  }

  /** Stops tracking; the last drawing stays on screen. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const restore of this.#restore.splice(0)) restore();
  }

  #watch(stream: NodeJS.WriteStream): void {
    const original: Write = stream.write;
    const region = this;
    const watched = function (this: NodeJS.WriteStream, ...args: Parameters<Write>): boolean {
      const [chunk] = args;
      if (!region.#drawing && region.#height > 0 && String(chunk).includes('\n')) region.#height = 0;
      return Reflect.apply(original, this, args) as boolean;
    } as Write;
    stream.write = watched;
    this.#restore.push(() => {
      // Unwrap only if nobody wrapped it after us; otherwise leave the (now inert) wrapper in place.
      if (stream.write === watched) stream.write = original;
    });
  }
}
