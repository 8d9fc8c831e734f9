/**
 * How the REPL prints a value: platform records as tables, an `ApiError` as one line, helpers'
 * objects (plots, live charts) as their drawing, anything else as node's REPL would.
 */
import { STATUS_CODES } from 'node:http';
import { inspect } from 'node:util';
import { Chalk } from 'chalk';
import { ApiError, LoginRequiredError } from 'scratchlab';
import { recordKind, renderTable, type Table, toTable } from 'scratchlab/presentation';
import { type DisplayContext, isDisplayable, kDisplay } from './display.js';

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
    error.status === 0
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

/** Makes the REPL's writer. */
export function createWriter(options: WriterOptions): Writer {
  return (value) => {
    if (value instanceof ApiError) return formatApiError(value, options.color);
    if (value instanceof LoginRequiredError) {
      const chalk = new Chalk({ level: options.color ? 1 : 0 });
      return `${chalk.red.bold(value.name)}: ${value.message.replace('call session.login(username, password)', 'use .login')}`;
    }
    if (isDisplayable(value)) {
      const { width, height } = options.size();
      const context: DisplayContext = { width, height, color: options.color };
      return value[kDisplay](context);
    }
    if (recordKind(value) !== null) return recordsTable(toTable(value), options);
    return inspect(value, inspectOptions(options.color));
  };
}
