/**
 * `plot(logs)`: a cloud log drawn in the terminal (each variable's value over time, activity per
 * user), and `.save('file.svg')` for the same chart as SVG. The drawing itself is the shared
 * presentation layer's; this file only fits it to the terminal and writes the file.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CloudLogEntry } from 'scratchlab';
import {
  type LogsChartOptions,
  logsChartSpec,
  recordKind,
  renderLogsChart,
  renderSvg,
} from 'scratchlab/presentation';
import { awaitedByRepl, type DisplayContext, kDisplay } from './display.js';

/** Options of `plot`. */
export interface PlotOptions {
  /** Lines the terminal drawing may take (default: the terminal's height less 4, at most 30). */
  height?: number;
  /** Most variables plotted (default 3 in the terminal, 10 in the SVG). */
  maxVariables?: number;
  /** Most users listed (default 5 in the terminal, 15 in the SVG). */
  topUsers?: number;
  /** Title of the SVG chart. */
  title?: string;
}

/** A written chart file. */
export class SavedChart {
  /** Absolute path of the file. */
  readonly path: string;
  /** Its size in bytes. */
  readonly bytes: number;

  constructor(path: string, bytes: number) {
    this.path = path;
    this.bytes = bytes;
  }

  [kDisplay](): string {
    return `saved ${this.path} (${(this.bytes / 1024).toFixed(1)} kB SVG)`;
  }
}

/** Renders a Vega-Lite spec to SVG and writes it to `file` (relative to the working directory). */
export function saveSvg(file: string, spec: Parameters<typeof renderSvg>[0]): Promise<SavedChart> {
  if (typeof file !== 'string' || file === '')
    throw new TypeError('save(file) needs a file name, e.g. "chart.svg"');
  const path = resolve(file);
  return awaitedByRepl(
    renderSvg(spec).then(async (svg) => {
      await writeFile(path, svg);
      return new SavedChart(path, Buffer.byteLength(svg));
    }),
  );
}

/** A cloud log's chart: shown when it is an input's value, saved as SVG with `save`. */
export class LogsPlot {
  /** The log entries drawn. */
  readonly entries: readonly CloudLogEntry[];
  readonly #options: PlotOptions;

  constructor(entries: readonly CloudLogEntry[], options: PlotOptions = {}) {
    this.entries = entries;
    this.#options = options;
  }

  /** The terminal drawing. */
  render(context: DisplayContext): string {
    const height = this.#options.height ?? Math.max(12, Math.min(30, context.height - 4));
    return renderLogsChart(this.entries, {
      // One column spare: a line exactly as wide as the terminal makes some terminals wrap.
      width: Math.max(20, context.width - 1),
      height,
      color: context.color,
      maxVariables: this.#options.maxVariables,
      topUsers: this.#options.topUsers,
    });
  }

  /** Writes the chart as an SVG file (Vega-Lite, rendered by vega) and answers where. */
  save(file: string, options: LogsChartOptions = {}): Promise<SavedChart> {
    const { title, maxVariables, topUsers } = this.#options;
    return saveSvg(file, logsChartSpec(this.entries, { title, maxVariables, topUsers, ...options }));
  }

  [kDisplay](context: DisplayContext): string {
    return this.render(context);
  }

  /** The drawing without colours, 80 columns wide. */
  toString(): string {
    return this.render({ width: 81, height: 28, color: false });
  }
}

function checkEntries(entries: unknown): readonly CloudLogEntry[] {
  if (Array.isArray(entries) && (entries.length === 0 || recordKind(entries) === 'logEntry')) {
    return entries as CloudLogEntry[];
  }
  throw new TypeError(
    'plot(logs) takes cloud log entries ({ user, verb, name, value, timestamp }), e.g. plot(await cloud.logs())',
  );
}

/**
 * Draws cloud log entries. Given a list still to read (`cloud.logs()`), answers a promise the
 * REPL awaits.
 */
export function plot(logs: readonly CloudLogEntry[], options?: PlotOptions): LogsPlot;
export function plot(logs: PromiseLike<readonly CloudLogEntry[]>, options?: PlotOptions): Promise<LogsPlot>;
export function plot(
  logs: readonly CloudLogEntry[] | PromiseLike<readonly CloudLogEntry[]>,
  options: PlotOptions = {},
): LogsPlot | Promise<LogsPlot> {
  if (logs !== null && typeof logs === 'object' && 'then' in logs && typeof logs.then === 'function') {
    return awaitedByRepl(
      Promise.resolve(logs).then((entries) => new LogsPlot(checkEntries(entries), options)),
    );
  }
  return new LogsPlot(checkEntries(logs), options);
}
