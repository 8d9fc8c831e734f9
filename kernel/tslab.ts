/**
 * The parts of tslab the kernel is built from, loaded from tslab's own files.
 *
 * tslab has no start-up hook, but its converter, executor and Jupyter server are separate modules
 * (TOOLCHAIN.md). They are CommonJS: `require` them, so that `jupyter.lastWriteDisplayData` is read
 * live (an ESM import of a CommonJS module would copy it once) and so that we share the module
 * instances tslab's public `display` API uses.
 *
 * The interfaces below describe only what the kernel calls.
 */
import { createRequire } from 'node:module';
import type * as TypeScript from '@tslab/typescript-for-tslab';

const require = createRequire(import.meta.url);

/** A Jupyter MIME bundle: MIME type → data (JSON MIME types carry objects, the others text). */
export type MimeBundle = Record<string, unknown>;

/** What `display_data` / `update_display_data` messages carry. */
export interface DisplayMessage {
  data: MimeBundle;
  metadata: Record<string, unknown>;
  transient: { display_id?: string };
}

/** Sends a display message on the current cell's iopub channel. */
export type WriteDisplayData = (message: DisplayMessage, update: boolean) => void;

/** The console tslab's executor prints a cell's value (`log`) and its errors (`error`) to. */
export interface ExecutorConsole {
  log(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** tslab's executor: runs TypeScript, keeping every cell's declarations for the next ones. */
export interface Executor {
  execute(src: string): Promise<boolean>;
  inspect(src: string, position: number): unknown;
  complete(src: string, position: number): unknown;
  reset(): void;
  interrupt(): void;
  locals: Record<string, unknown>;
  close(): void;
}

/** What tslab's converter answers for a cell (only what the kernel reads). */
export interface Conversion {
  diagnostics: readonly unknown[];
  declOutput?: string;
}

/** tslab's TypeScript converter (one for Node code, one for browser code). */
export interface Converter {
  /** Compiles a cell after the declarations `prevDecl` of the cells before it. */
  convert(prevDecl: string, src: string): Conversion;
  close(): void;
}

/** The converters an executor uses. */
export interface ConverterSet {
  readonly node: Converter;
  readonly browser: Converter;
  close(): void;
}

/** tslab's handler of Jupyter requests. */
export interface JupyterHandler {
  close(): void;
}

interface JupyterModule {
  lastWriteDisplayData: WriteDisplayData | null;
  JupyterHandlerImpl: new (executor: Executor, isJs: boolean) => JupyterHandler;
  ZmqServer: new (handler: JupyterHandler, configPath: string) => { init(): Promise<void>; close(): void };
}

interface ConverterModule {
  createConverter(options: { isJS: boolean; isBrowser: boolean }): Converter;
  /** tslab's `is_complete` answer: `indent` is the next line's when the code is not complete. */
  isCompleteCode(code: string): { completed: boolean; indent?: string };
}

interface ExecutorModule {
  createExecutor(rootDir: string, convs: ConverterSet, console: ExecutorConsole): Executor;
}

/** `tslab/dist/jupyter`: the ZeroMQ server, the request handler and the current display writer. */
export const jupyter = require('tslab/dist/jupyter') as JupyterModule;
/** `tslab/dist/converter`. */
export const converter = require('tslab/dist/converter') as ConverterModule;
/** `tslab/dist/executor`. */
export const executor = require('tslab/dist/executor') as ExecutorModule;

/** The TypeScript copy tslab compiles cells with (its `sys` is what module resolution reads). */
export function tslabTypeScript(): typeof TypeScript {
  const fromTslab = createRequire(require.resolve('tslab/dist/converter'));
  return fromTslab('@tslab/typescript-for-tslab') as typeof TypeScript;
}

/** The display writer of the cell running now (or of the last one), or `null` before any cell. */
export function currentWriter(): WriteDisplayData | null {
  return jupyter.lastWriteDisplayData;
}
