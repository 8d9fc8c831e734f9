/**
 * The types of the helpers a notebook cell calls without importing them (`show`, `plot`, `live`,
 * `display`). They live in the package, not in the kernel, so that the kernel's implementations
 * and the declarations its cells are checked against are the same types and cannot drift.
 */

import type { LiveQueryOptions } from '../data/live-query.js';
import type { QueryRow } from '../data/store.js';
import type { SavedFile } from '../rows/saved-file.js';
import type { LivePoint } from './aggregate.js';
import type { Chart } from './chart.js';
import type { RecordKind } from './detect.js';
import type { LiveRecorderOptions, LiveSource } from './live-recorder.js';
import type { PlotOptions as ChartPlotOptions, PlotData } from './plot.js';

/** Options of `show` (as in the REPL). */
export interface ShowOptions {
  /** Rows shown at most (default 40; `Infinity` for all). */
  rows?: number;
  /** The kind of the records, when their shape alone does not tell (e.g. an empty array). */
  kind?: RecordKind;
}

/** `show(value, options?)`. */
export type Show = (value: unknown, options?: ShowOptions) => Promise<void>;

/** Options of `plot`: those of the logs chart, and which numbers of projects to draw. */
export type CellPlotOptions = Omit<ChartPlotOptions, 'terminalVariables' | 'terminalUsers'>;

/**
 * What `plot` draws: cloud log entries, projects, messages or activity rows, a remix tree, or a
 * Vega-Lite spec of your own; or a list or promise of them.
 */
export type PlotInput = PlotData | PromiseLike<PlotData>;

/** `plot(data, options?)`: shows the chart in the calling cell and answers it. */
export type Plot = (data: PlotInput, options?: CellPlotOptions) => Promise<Chart>;

/** Options of `live`. */
export interface LiveOptions extends LiveRecorderOptions {
  /** Chart title (default `Live cloud values`). */
  title?: string;
}

/** The handle `live` returns. */
export interface LiveHandle {
  /** Stops listening and draws the final chart. */
  stop(): Promise<void>;
  /** The chart of the values seen so far (the last `window` seconds). */
  chart(): Chart;
  /** Writes that chart to `file` (`.svg`, `.png`, `.html` or `.json`). */
  save(file: string): Promise<SavedFile>;
  /** Every numeric value seen so far, oldest first (at most 100,000; non-numeric values are skipped). */
  readonly data: readonly LivePoint[];
  /** How many non-numeric values of the recorded variables were skipped. */
  readonly skipped: number;
}

/** What `live()` takes besides a cloud: a query of the store, or a stored table with a time window. */
export interface LiveQueryArguments extends LiveQueryOptions {
  /** Chart title (default: the query, or the table and its window). */
  title?: string;
}

/** The handle `live({ sql })` returns. */
export interface LiveQueryHandle {
  /** Stops querying and draws the final chart. */
  stop(): Promise<void>;
  /** The chart of the latest answer. */
  chart(): Chart;
  /** Writes that chart to `file` (`.svg`, `.png`, `.html` or `.json`). */
  save(file: string): Promise<SavedFile>;
  /** The latest answer. */
  readonly rows: readonly QueryRow[];
  /** Why the latest query failed (the chart keeps the last answer), or null. */
  readonly error: string | null;
}

/**
 * `live(cloud, options?)` charts a cloud's values; `live({ sql, params?, every? })` or
 * `live({ table, window?, time?, every? })` charts a query of the store, asked every `every`
 * seconds (default 2), as rows arrive from any process.
 */
export interface Live {
  (cloud: LiveSource, options?: LiveOptions): LiveHandle;
  (query: LiveQueryArguments): LiveQueryHandle;
}

/** Options of `display` and of its handle's `update`. */
export interface DisplayOptions {
  /** Rows shown at most in a table (default 40; `Infinity` for all). */
  rows?: number;
  /** The kind of the records, when their shape alone does not tell (e.g. an empty array). */
  kind?: RecordKind;
}

/** What `display` answers. */
export interface DisplayHandle {
  /** The output's `display_id`. */
  readonly id: string;
  /** Replaces the output with `value`; settles once the update is sent. */
  update(value: unknown, options?: DisplayOptions): Promise<void>;
}

/** `display(value, options?)`. */
export type Display = (value: unknown, options?: DisplayOptions) => DisplayHandle;
