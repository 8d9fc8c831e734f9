/**
 * Errors of cells as Jupyter shows them: `ename`, `evalue` and a traceback whose frames name the
 * cells' own lines (`Cell In[4], line 2`), as IPython does.
 *
 * Cells run under the file name `Cell In[n]` (see ./cell-files.ts), so their frames carry it. A
 * frame's place in the code run is mapped back to the cell through the kernel's map of it
 * (../execution/cell-script.ts: its edits, then oxc's or esbuild's source map). Code run without
 * one (tslab's own conversion) is matched by its words: the cell line holding the same names and
 * literals (type annotations and `exports.` prefixes aside, compiled statements keep them).
 * Frames of the kernel itself (tslab, this folder, Node's internals) are left out.
 */
import { inspect } from 'node:util';

/** What Jupyter's `error` output and reply carry. */
export interface CellError {
  ename: string;
  evalue: string;
  traceback: string[];
}

/** A TypeScript diagnostic as tslab reports it: 1-based line and column in the cell. */
export interface Diagnostic {
  file?: string;
  line: number;
  column: number;
  message: string;
}

/** The name cells run under; frames of cell `count` name this file. */
export function cellFileName(count: number): string {
  return `Cell In[${count}]`;
}

/**
 * The name of the `n`th cell run without an execution count (IPython shows such cells without an
 * `In[]` number): a silent cell (a front end's helper code), or one kept out of the history. It
 * never names a counted cell, so frames of one are never traced to the other's source.
 */
export function uncountedCellFileName(n: number, silent: boolean): string {
  return `${silent ? 'Silent' : 'Unnumbered'} cell ${n}`;
}

/** A cell's source lines, the code run for it, and how a place in that code maps to the cell. */
interface CellSource {
  source: string[];
  compiled?: string[];
  /** The cell's line and column of a place in the compiled code, `null` in the kernel's text. */
  sourceAt?: (line: number, column: number) => { line: number; column: number } | null;
}

/** Sources of the cells run so far (the last {@link MAX_CELLS}), and their compiled code. */
export class CellSources {
  static readonly MAX_CELLS = 1000;
  readonly #cells = new Map<string, CellSource>();

  /** Records the source of the cell running under `file`. */
  add(file: string, source: string): void {
    this.#cells.delete(file);
    this.#cells.set(file, { source: source.split('\n') });
    if (this.#cells.size > CellSources.MAX_CELLS) {
      const oldest = this.#cells.keys().next().value;
      if (oldest !== undefined) this.#cells.delete(oldest);
    }
  }

  /** Records the code actually run for `file`. */
  compiled(file: string, code: string): void {
    const cell = this.#cells.get(file);
    if (cell) cell.compiled = code.split('\n');
  }

  /** Records how places in the code run for `file` map to the cell (its source map). */
  locate(file: string, sourceAt: NonNullable<CellSource['sourceAt']>): void {
    const cell = this.#cells.get(file);
    if (cell) cell.sourceAt = sourceAt;
  }

  get(file: string): CellSource | undefined {
    return this.#cells.get(file);
  }
}

const TOKEN = /[A-Za-z_$][\w$]*|\d+(?:\.\d+)?|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g;
/** Words the compiler adds to statements. */
const ADDED = new Set(['exports', 'tsLastExpr', 'void', 'require', 'default', '__awaiter', 'yield']);

function tokens(line: string): string[] {
  return (line.match(TOKEN) ?? []).filter((t) => !ADDED.has(t));
}

/**
 * The 1-based cell line of compiled line `compiledLine` (1-based), or `null` when no line of the
 * cell holds most of its words. The words from `column` (1-based, the frame's) on are matched
 * first: a compiled line may join several cell lines (oxc prints a chain of calls on one line), and
 * the frame's call is where its column points.
 */
export function sourceLineOf(
  source: readonly string[],
  compiled: readonly string[],
  compiledLine: number,
  column = 1,
): number | null {
  const text = compiled[compiledLine - 1] ?? '';
  if (column > 1) {
    const fromColumn = bestLineOf(source, tokens(text.slice(column - 1)));
    if (fromColumn !== null) return fromColumn;
  }
  return bestLineOf(source, tokens(text));
}

/** The cell line holding most of `wanted` and the fewest other words, or `null` (under half). */
function bestLineOf(source: readonly string[], wanted: readonly string[]): number | null {
  if (wanted.length === 0) return null;
  let best: number | null = null;
  let bestScore = 0;
  source.forEach((line, index) => {
    const have = tokens(line);
    const pool = new Map<string, number>();
    for (const t of have) pool.set(t, (pool.get(t) ?? 0) + 1);
    let hits = 0;
    for (const t of wanted) {
      const n = pool.get(t) ?? 0;
      if (n > 0) {
        hits++;
        pool.set(t, n - 1);
      }
    }
    // Most of the compiled line's words, and the fewest extra words (the tightest match).
    const score = hits / wanted.length - (have.length - hits) / (100 * Math.max(have.length, 1));
    if (score > bestScore) {
      bestScore = score;
      best = index + 1;
    }
  });
  return bestScore >= 0.5 ? best : null;
}

/** Frames of the kernel's own machinery: never shown. */
function isInternalFrame(location: string): boolean {
  return (
    location.startsWith('node:') ||
    location.includes('/node_modules/tslab/') ||
    location.includes('/dist/kernel/') ||
    location.includes('evalmachine.<anonymous>') ||
    location === 'scratchlab preload' ||
    location.startsWith('scratchlab preload:') ||
    location === 'native' ||
    location === '<anonymous>'
  );
}

// `at async …` is a frame resumed after an `await` (a cell awaiting at its top level is one).
const FRAME = /^\s*at (?:async )?(?:(.*?) \()?(.*?)(?::(\d+):(\d+))?\)?$/;

/** `----> 2 code` with its neighbours, as IPython prints a frame. */
function excerpt(source: readonly string[], line: number): string {
  const width = String(Math.min(source.length, line + 1)).length;
  const lines: string[] = [];
  for (let n = Math.max(1, line - 1); n <= Math.min(source.length, line + 1); n++) {
    const mark = n === line ? '---->' : '     ';
    lines.push(`${mark} ${String(n).padStart(width)} ${source[n - 1]}`);
  }
  return lines.join('\n');
}

/** The traceback entries of an error's stack, cell frames first-class, internals left out. */
export function stackFrames(stack: string, cells: CellSources): string[] {
  const frames: string[] = [];
  for (const raw of stack.split('\n')) {
    const match = FRAME.exec(raw);
    if (!match || !raw.trimStart().startsWith('at ')) continue;
    const [, fn, location = '', lineText, columnText] = match;
    if (isInternalFrame(location)) continue;
    const cell = cells.get(location);
    if (cell) {
      const at = Number(lineText);
      // The first and last compiled lines are tslab's wrapper around the cell: not the user's code.
      if (!cell.compiled || !lineText || at <= 1 || at >= cell.compiled.length) continue;
      const column = Number(columnText ?? 1);
      // Through the cell's source map where the kernel made one; by its words otherwise.
      const mapped = cell.sourceAt?.(at, column)?.line;
      const line = cell.sourceAt
        ? mapped !== undefined && mapped <= cell.source.length
          ? mapped
          : null
        : sourceLineOf(cell.source, cell.compiled, at, column);
      if (line === null && cell.sourceAt) continue;
      const where = line === null ? location : `${location}, line ${line}`;
      const name = fn && fn !== 'eval' && !fn.startsWith('Object.') && fn !== 'exports' ? ` in ${fn}` : '';
      frames.push(line === null ? `${where}${name}` : `${where}${name}\n${excerpt(cell.source, line)}`);
      continue;
    }
    frames.push(raw.trim());
  }
  return frames;
}

/**
 * V8's message names a call as the code run writes it: the kernel calls a cell's `f(…)` as
 * `(0, f)(…)` (./../execution/cell-script.ts), and `f is not a function` would read
 * `(0 , f) is not a function`. The message shown names it as the cell does.
 */
function asWritten(message: string): string {
  return message.replace(/\(0 , ([\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*)\)/gu, '$1');
}

/** `ename`/`evalue`/`traceback` of a thrown value. `oneLine` errors (the SDK's) show no frames. */
export function cellError(
  thrown: unknown,
  cells: CellSources,
  options: { oneLine?: boolean; hint?: string } = {},
): CellError {
  let ename: string;
  let evalue: string;
  let frames: string[] = [];
  if (thrown instanceof Error) {
    ename = thrown.name || thrown.constructor?.name || 'Error';
    evalue = thrown instanceof TypeError ? asWritten(thrown.message) : thrown.message;
    if (!options.oneLine && typeof thrown.stack === 'string') frames = stackFrames(thrown.stack, cells);
  } else {
    ename = 'Uncaught';
    evalue = inspect(thrown, { depth: 2 });
  }
  const last = `${ename}: ${evalue.replace(/\s*\n\s*/g, options.oneLine ? ' ' : '\n')}`;
  const traceback = [...frames, last];
  if (options.hint) traceback.push(options.hint);
  return { ename, evalue, traceback };
}

/** A failed compilation: each diagnostic with its cell line. */
export function diagnosticsError(
  diagnostics: readonly Diagnostic[],
  file: string,
  cells: CellSources,
): CellError {
  const source = cells.get(file)?.source ?? [];
  const traceback = diagnostics.map((d) => {
    const where = `${d.file ?? file}, line ${d.line}, column ${d.column}`;
    const code = d.file ? undefined : source[d.line - 1];
    const caret = code === undefined ? '' : `\n    ${code}\n    ${' '.repeat(Math.max(0, d.column - 1))}^`;
    return `${where}${caret}\nerror: ${d.message}`;
  });
  const first = diagnostics[0];
  return {
    ename: 'TSError',
    evalue: first ? `${file}, line ${first.line}: ${first.message}` : 'the cell did not compile',
    traceback,
  };
}
