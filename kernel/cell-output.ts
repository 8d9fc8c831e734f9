/**
 * The console tslab's executor writes a cell's results to. tslab prints a cell's last value with
 * `console.log(value)` and its failure with `console.error(error)`; this console turns
 *
 * - platform records (one or an array) into an HTML table with a text twin,
 * - a `PagedList` (not awaited by the cell) into the table of its rows, once awaited,
 * - a pending `show(…)`/`plot(…)` promise into nothing (its display is on its way),
 * - an error of the SDK (`ApiError`, `LoginRequiredError`, …) into one line, not a stack,
 *
 * and leaves everything else as tslab prints it.
 */
import { format } from 'node:util';
import { recordKind } from 'scratchlab/presentation';
import { sendDisplay, tableBundle } from './display.js';
import { jupyterBundleOf, type Show, shownByPlot } from './helpers.js';
import type { PendingDisplays } from './pending-displays.js';
import type { ExecutorConsole } from './tslab.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** What the cell output needs from the kernel. */
export interface CellOutputOptions {
  pending: PendingDisplays;
  show: Show;
  /** The SDK's `PagedList` class. */
  pagedList: abstract new (
    ...args: never[]
  ) => PromiseLike<unknown>;
  /** The SDK's error classes: their instances print as one line. */
  errorClasses: readonly ErrorClass[];
  /** The site's base URL, for links in tables. */
  siteUrl(): string | undefined;
}

/** What failed in a cell, for the `ename` / `evalue` of its Jupyter execute reply. */
export interface CellFailure {
  ename: string;
  evalue: string;
}

/** The cell console, and the error printer the kernel also uses outside cells. */
export interface CellOutput {
  console: ExecutorConsole;
  /** Prints an error as a cell failure: one line for the SDK's errors, the stack for others. */
  printError(error: unknown): void;
  /** The first failure printed since the last call (then forgets it), or `null`. */
  takeFailure(): CellFailure | null;
}

/** The SDK's error classes among a module namespace's exports (so new ones count automatically). */
export function errorClassesOf(namespace: Record<string, unknown>): ErrorClass[] {
  return Object.values(namespace).filter(
    (value): value is ErrorClass =>
      typeof value === 'function' && (value as { prototype?: unknown }).prototype instanceof Error,
  );
}

/** `ApiError: GET https://… → 404: reason`: the message already says what failed, without secrets. */
export function oneLineError(error: Error): string {
  const message = error.message.replace(/\s*\n\s*/g, ' ');
  return `${error.name}: ${message}`;
}

/** Creates the console handed to tslab's executor. */
export function createCellOutput(options: CellOutputOptions): CellOutput {
  const { pending } = options;
  const isSdkError = (error: unknown): error is Error =>
    error instanceof Error && options.errorClasses.some((cls) => error instanceof cls);

  let failure: CellFailure | null = null;
  const noteFailure = (ename: string, evalue: string) => {
    failure ??= { ename, evalue };
  };

  const printError = (error: unknown) => {
    pending.markReported(error);
    if (error instanceof Error) noteFailure(error.name, error.message);
    else noteFailure('Error', String(error));
    if (isSdkError(error)) process.stderr.write(`${oneLineError(error)}\n`);
    else console.error(error);
  };

  const log = (...args: unknown[]) => {
    const [value] = args;
    if (args.length !== 1) {
      console.log(...args);
      return;
    }
    if (pending.isTracked(value)) return; // a show()/plot() the cell did not await: it is on its way
    if (shownByPlot(value)) return; // `await plot(x)`: the chart is already shown in this cell
    if (value instanceof options.pagedList) {
      void options.show(value); // tracked by show: the cell waits for it
      return;
    }
    if (recordKind(value) !== null) {
      const bundle = tableBundle(value, { siteUrl: options.siteUrl() });
      if (bundle) {
        sendDisplay(bundle);
        return;
      }
    }
    // Values that give their own bundle: charts, an empty record list ("no results"), saved files.
    const own = jupyterBundleOf(value);
    if (own) {
      sendDisplay(own);
      return;
    }
    console.log(value);
  };

  return {
    printError,
    takeFailure() {
      const taken = failure;
      failure = null;
      return taken;
    },
    console: {
      log,
      error: (...args: unknown[]) => {
        if (args.length === 1) {
          printError(args[0]);
          return;
        }
        // tslab's compile errors: `console.error('%s%d:%d - %s', file, line, column, message)`.
        const line = format(...args);
        noteFailure('TypeScript', line);
        process.stderr.write(`${line}\n`);
      },
    },
  };
}
