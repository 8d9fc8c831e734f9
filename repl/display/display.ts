/**
 * How REPL helpers talk to the REPL without knowing it: objects that draw themselves when they
 * are an input's value (a plot, a live chart's handle), promises the REPL awaits on its own, and a
 * note that an input already printed what it had to show.
 */

/** Terminal facts a drawing needs, read when it is drawn (the window may have been resized). */
export interface DisplayContext {
  /** Columns available. */
  readonly width: number;
  /** Lines of the terminal. */
  readonly height: number;
  /** Whether ANSI colours may be used. */
  readonly color: boolean;
}

import type { REPL_DISPLAY } from 'scratchlab/presentation';

/**
 * The method of a value that draws itself as REPL output (`Symbol.for('scratchlab.repl.display')`,
 * the presentation layer's, so the SDK's charts and record lists draw themselves too). Not
 * imported from it: this file loads before the presentation layer does.
 */
export const kDisplay: typeof REPL_DISPLAY = Symbol.for('scratchlab.repl.display') as typeof REPL_DISPLAY;

/** A value that draws itself as REPL output. */
interface Displayable {
  [kDisplay](context: DisplayContext): string;
}

/** Whether `value` draws itself. */
export function isDisplayable(value: unknown): value is Displayable {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<Displayable>)[kDisplay] === 'function'
  );
}

const awaited = new WeakSet<object>();

/** Marks a promise the REPL should await when it is an input's value (e.g. `plot(...).save(file)`). */
export function awaitedByRepl<T>(promise: Promise<T>): Promise<T> {
  awaited.add(promise);
  return promise;
}

/** Whether the REPL should await `value` before printing it. */
export function isAwaitedByRepl(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && awaited.has(value);
}

/**
 * Counts what helpers printed themselves (e.g. `show(x)`), so the REPL does not print the
 * `undefined` such a call returns after the table.
 */
export class OutputNotes {
  #printed = 0;

  /** Called by a helper that wrote output of its own. */
  printed(): void {
    this.#printed++;
  }

  /** How many times output was written so far; compare two readings to see if anything was. */
  get count(): number {
    return this.#printed;
  }
}

const quiet = new WeakSet<object>();

/**
 * Marks a value not worth printing after its call printed something (e.g. the handle `display()`
 * returns: the output was the point).
 */
export function quietValue<T extends object>(value: T): T {
  quiet.add(value);
  return value;
}

/** Whether `value` was marked with {@link quietValue}. */
export function isQuiet(value: unknown): boolean {
  return typeof value === 'object' && value !== null && quiet.has(value);
}
