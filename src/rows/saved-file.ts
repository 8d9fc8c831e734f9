/**
 * Files written by `save(path)` (charts, record lists): written whole or not at all (a temporary
 * file renamed into place), and answered as a small value that shows where it went.
 */
import { extname, resolve } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { formatCount } from './format-count.js';

/** `Symbol.for` key of the REPL's "draw yourself" method (see repl/display/display.ts). */
export const REPL_DISPLAY: unique symbol = Symbol.for('scratchlab.repl.display');
/** `Symbol.for` key of the Jupyter display convention tslab and Deno share: a MIME bundle. */
export const JUPYTER_DISPLAY: unique symbol = Symbol.for('Jupyter.display');

/** A file `save` wrote. */
export class SavedFile {
  /** Absolute path of the file. */
  readonly path: string;
  /** Its size in bytes. */
  readonly bytes: number;
  /** What it holds, e.g. `PNG`, `CSV`. */
  readonly format: string;

  constructor(path: string, bytes: number, format: string) {
    this.path = path;
    this.bytes = bytes;
    this.format = format;
  }

  /** E.g. `saved /home/me/chart.png (12.3 kB PNG)`. */
  toString(): string {
    const size = this.bytes < 1024 ? `${formatCount(this.bytes)} B` : `${(this.bytes / 1024).toFixed(1)} kB`;
    return `saved ${this.path} (${size} ${this.format})`;
  }

  [REPL_DISPLAY](): string {
    return this.toString();
  }

  [JUPYTER_DISPLAY](): Record<string, string> {
    return { 'text/plain': this.toString() };
  }
}

/** The lower-case extension of `file` without its dot (`"png"`), checking that `file` is a name. */
export function extensionOf(file: unknown, example: string): string {
  if (typeof file !== 'string' || file.trim() === '')
    throw new TypeError(`save(file) needs a file name, e.g. "${example}"`);
  return extname(file).slice(1).toLowerCase();
}

/**
 * Writes `data` to `file` (relative to the working directory) whole or not at all
 * ({@link writeFileAtomic}: a fresh temporary file beside it, renamed over it).
 */
export async function writeWhole(
  file: string,
  data: string | Uint8Array,
  format: string,
): Promise<SavedFile> {
  const path = resolve(file);
  await writeFileAtomic(path, data);
  const bytes = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
  return new SavedFile(path, bytes, format);
}
