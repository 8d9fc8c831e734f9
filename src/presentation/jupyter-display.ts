/**
 * Reading the display convention tslab and Deno's kernel share: an object with a
 * `[Symbol.for('Jupyter.display')]()` method answers a MIME bundle (`{ 'text/html': …, … }`). Both
 * front ends look it up here: the kernel sends the bundle, the REPL prints its text.
 */
import { JUPYTER_DISPLAY } from '../rows/saved-file.js';

/** A MIME bundle: type → data. */
export type MimeBundle = Readonly<Record<string, unknown>>;

/** The value's `[Symbol.for('Jupyter.display')]` method bound to it, or `null` when it has none. */
export function jupyterDisplayOf(value: unknown): (() => unknown) | null {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return null;
  const method = (value as { [JUPYTER_DISPLAY]?: unknown })[JUPYTER_DISPLAY];
  return typeof method === 'function' ? () => method.call(value) : null;
}

/**
 * The MIME bundle a value gives for itself, or `null` (no method, or an answer that is no object);
 * a throwing method is the value's error.
 */
export function mimeBundleOf(value: unknown): MimeBundle | null {
  const bundle = jupyterDisplayOf(value)?.();
  return typeof bundle === 'object' && bundle !== null ? (bundle as MimeBundle) : null;
}
