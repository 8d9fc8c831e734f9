/**
 * How the REPL prints a value: platform records as tables, an `ApiError` as one line, a caller's
 * mistake as its message and the user's line, helpers' objects (plots, live charts) as their
 * drawing, objects with a Jupyter MIME bundle from that bundle, anything else as node's REPL would,
 * secrets in plain objects redacted.
 */
import { STATUS_CODES } from 'node:http';
import { inspect, types } from 'node:util';
import { Chalk } from 'chalk';
import { ApiError, LoginRequiredError } from 'scratchlab';
import {
  mimeBundleOf,
  recordKind,
  redactForView,
  renderTable,
  type Table,
  toTable,
} from 'scratchlab/presentation';
import { formatCallerMistake } from '../evaluation/caller-mistake.js';
import { type DisplayContext, isDisplayable, kDisplay } from './display.js';
import { renderMimeBundle } from './mime-bundle.js';

/** Where the writer draws. */
export interface WriterOptions {
  /** Whether ANSI colours may be used. */
  color: boolean;
  /** The terminal's size now (it changes when the window is resized). */
  size(): { width: number; height: number };
}

/** A REPL writer: the text printed for an input's value (or an error). */
export type Writer = (value: unknown) => string;

/** `ApiError 404 Not Found · GET https://… · user not found`: everything useful, no stack, no secret. */
export function formatApiError(error: ApiError, color: boolean): string {
  const chalk = new Chalk({ level: color ? 1 : 0 });
  const status =
    error.status === undefined
      ? 'no answer'
      : `${error.status}${STATUS_CODES[error.status] ? ` ${STATUS_CODES[error.status]}` : ''}`;
  // The URL is already redacted by ApiError; the reason is the service's text.
  const parts = [chalk.red.bold(`ApiError ${status}`), `${error.method} ${error.url}`];
  if (error.reason) parts.push(chalk.yellow(error.reason));
  return parts.join(chalk.dim(' · '));
}

/** Node's REPL inspects values with these options (plus colours). */
function inspectOptions(color: boolean): Parameters<typeof inspect>[1] {
  return { ...inspect.defaultOptions, showProxy: true, colors: color };
}

/** A table of records, fitted to the terminal. */
export function recordsTable(table: Table, options: WriterOptions): string {
  return renderTable(table, { width: options.size().width, color: options.color });
}

/**
 * `… needs a logged-in session: use .login, or set SCRATCH_USERNAME and SCRATCH_PASSWORD`: how to
 * log in at the REPL, never a password typed into a line of code.
 */
export function formatLoginRequired(error: LoginRequiredError, color: boolean): string {
  const chalk = new Chalk({ level: color ? 1 : 0 });
  return `${chalk.red.bold(error.name)}: ${error.what} needs a logged-in session: use .login, or start the REPL with SCRATCH_USERNAME and SCRATCH_PASSWORD set`;
}

/** Makes the REPL's writer. */
export function createWriter(options: WriterOptions): Writer {
  const dim = new Chalk({ level: options.color ? 1 : 0 }).dim;
  return (value) => {
    // A proxy is shown as node's REPL shows it (its target): no test here may run one of its traps.
    if (types.isProxy(value)) return inspect(value, inspectOptions(options.color));
    if (value instanceof ApiError) return formatApiError(value, options.color);
    if (value instanceof LoginRequiredError) return formatLoginRequired(value, options.color);
    const mistake = formatCallerMistake(value, dim);
    if (mistake !== null) return mistake;
    if (isDisplayable(value)) {
      const { width, height } = options.size();
      const context: DisplayContext = { width, height, color: options.color };
      return value[kDisplay](context);
    }
    const bundle = mimeBundleOf(value);
    if (bundle) return renderMimeBundle(bundle, options.color);
    if (recordKind(value) !== null) return recordsTable(toTable(value), options);
    return inspect(redactForView(value), inspectOptions(options.color));
  };
}
