/**
 * The converters tslab's executor runs cells with, made of ./cell-script.ts instead of tslab's
 * type-checking conversion. tslab's executor asks for a conversion synchronously; a cell esbuild
 * converts is answered asynchronously, so each cell is prepared ({@link ScriptConverters.prepare}) just before the
 * executor runs it.
 *
 * Tab completion and Shift-Tab help still come from tslab's own converter (created on first use),
 * given the declarations the type checker has seen (./type-checker.ts). Modules written in a cell
 * (tslab's `//%module` cells) go to it too.
 */
import type { Converter, ConverterSet } from '../tslab.js';
import { converter as tslabConverter } from '../tslab.js';
import {
  type CellScript,
  CellScriptError,
  cellScript,
  createCellScope,
  installInterop,
} from './cell-script.js';

/** What tslab's executor reads of a conversion. */
interface Conversion {
  output?: string;
  declOutput?: string;
  diagnostics: {
    start: { line: number; character: number };
    end: { line: number; character: number };
    messageText: string;
    category: number;
    code: number;
  }[];
  hasToplevelAwait?: boolean;
  lastExpressionVar?: string;
}

/** tslab's converter, as far as completion, help and `//%module` cells use it. */
interface TslabConverter extends Converter {
  inspect(prevDecl: string, src: string, position: number): unknown;
  complete(prevDecl: string, src: string, position: number): unknown;
  addModule(name: string, content: string, meta: unknown): unknown[];
}

/** The converter set for tslab's executor, plus what the kernel asks of it. */
export interface ScriptConverters extends ConverterSet {
  /**
   * Converts `source` for the executor's next `execute(source)`. Answers the conversion, or the
   * reason it cannot run (which the executor then reports as the cell's diagnostic).
   */
  prepare(source: string): Promise<CellScript | CellScriptError>;
  /** The top-level names the cells have declared so far. */
  readonly declared: ReadonlySet<string>;
  /** Creates tslab's converter for completion and help ahead of the first use. */
  warmUpHelp(): void;
}

/** Options of {@link scriptConverters}. */
export interface ScriptConvertersOptions {
  /** Every earlier cell's declarations, for completion and help. */
  declarations(): string;
}

/** The converter set (see the file's comment). */
export function scriptConverters(options: ScriptConvertersOptions): ScriptConverters {
  installInterop();
  // This set's cells share one scope of their own (a second kernel in a process, e.g. a test's, another).
  const scope = createCellScope();
  const declared = new Set<string>();
  let prepared: { source: string; script: CellScript | CellScriptError } | null = null;
  let tslab: TslabConverter | undefined;
  const help = (): TslabConverter => {
    tslab ??= tslabConverter.createConverter({ isJS: false, isBrowser: false }) as TslabConverter;
    return tslab;
  };

  const convert = (_prevDecl: string, source: string): Conversion => {
    const taken = prepared;
    prepared = null;
    if (taken?.source !== source) throw new Error('the kernel ran a cell it had not prepared');
    const { script } = taken;
    if (script instanceof CellScriptError) {
      const at = { line: script.line - 1, character: script.column - 1 };
      return { diagnostics: [{ start: at, end: at, messageText: script.message, category: 1, code: 0 }] };
    }
    for (const name of script.declared) declared.add(name);
    return {
      output: script.output,
      declOutput: '',
      diagnostics: [],
      hasToplevelAwait: script.hasToplevelAwait,
      lastExpressionVar: script.lastExpressionVar,
    };
  };

  const node: TslabConverter = {
    convert,
    inspect: (_prevDecl, source, position) => help().inspect(options.declarations(), source, position),
    complete: (_prevDecl, source, position) => help().complete(options.declarations(), source, position),
    addModule: (name, content, meta) => help().addModule(name, content, meta),
    close: () => tslab?.close(),
  };

  return {
    node,
    // Cells marked `//%browser` are not run by tslab's executor: nothing converts them.
    browser: node,
    declared,
    async prepare(source) {
      let script: CellScript | CellScriptError;
      try {
        script = await cellScript(source, scope);
      } catch (error) {
        if (error instanceof CellScriptError) script = error;
        else if (error instanceof RangeError) script = new CellScriptError(error.message, 1, 1);
        else throw error;
      }
      prepared = { source, script };
      return script;
    },
    warmUpHelp() {
      help();
    },
    close() {
      tslab?.close();
    },
  };
}
