/**
 * `live(cloud)`: cloud values drawn as a chart above the prompt, redrawn in place (at most a few
 * times a second) until Ctrl-C or `.stop()`; the prompt stays usable meanwhile. It starts from the
 * values the cloud already holds, and records others' sets (`set`) and this client's own (`sent`:
 * servers never echo them back). `live({ sql })` (or `{ table }`) draws a query of the store
 * instead, asked every `every` seconds, moving as rows arrive from any process.
 *
 * Recording is the presentation layer's {@link LiveRecorder} (shared with the kernel); this file
 * draws.
 */
import { Chalk } from 'chalk';
import { isLiveQuery, LiveQuery, type LiveQueryOptions, type Store } from 'scratchlab/data';
import {
  type Chart,
  checkLiveArguments,
  type LivePoint,
  LiveRecorder,
  type LiveRecorderOptions,
  type LiveSource,
  liveQueryChart,
  renderLiveChart,
  type SavedFile,
  truncateToWidth,
} from 'scratchlab/presentation';
import type { Activity } from '../terminal/activity.js';
import { type PromptHost, PromptRegion } from '../terminal/prompt-region.js';
import { awaitedByRepl, type DisplayContext, kDisplay } from './display.js';

/** Options of `live`. */
interface LiveOptions extends LiveRecorderOptions {
  /** Lines the chart takes (default: 4 per variable and 3, at most 60% of the terminal). */
  height?: number;
}

/** `live({ sql })`: a query of the store (or a table with a time window), and how it is drawn. */
export interface LiveQueryArguments extends LiveQueryOptions {
  /** Lines the chart takes (default: 60% of the terminal). */
  height?: number;
  /** Chart title (default: the query, or the table and its window). */
  title?: string;
}

/** What `live` needs from the REPL. */
export interface LiveHost extends PromptHost {
  /** Busy while an input runs: the chart waits for the prompt to be idle. */
  activity: Activity;
  /** Whether ANSI colours may be used. */
  color: boolean;
  /** The store `live({ sql })` queries. */
  store?: Store;
}

/** Least time between two redraws. */
const REDRAW_MS = 250;
/** The chart scrolls with time even without events. */
const TICK_MS = 1000;

const running = new Set<LiveChart>();

/** Stops every running live chart (Ctrl-C at the prompt); answers how many were running. */
export function stopLiveCharts(): number {
  const count = running.size;
  for (const chart of [...running]) chart.stop();
  return count;
}

/** A running (or stopped) live chart: its handle at the prompt. */
export class LiveChart {
  readonly #recorder: LiveRecorder | null;
  readonly #query: LiveQuery | null;
  readonly #title: string | undefined;
  readonly #host: LiveHost;
  readonly #region: PromptRegion;
  readonly #height: number | undefined;
  readonly #onIdle = () => this.#flush();
  #timer: NodeJS.Timeout | undefined;
  #ticker: NodeJS.Timeout | undefined;
  #lastDraw = 0;
  #due = false;
  #running = true;
  #problem: string | null = null;

  constructor(source: LiveSource | LiveQueryArguments, host: LiveHost, options: LiveOptions = {}) {
    this.#host = host;
    this.#region = new PromptRegion(host);
    let started: Promise<void> | null;
    if (isLiveQuery(source)) {
      if (!host.store) throw new TypeError('live({ sql }) needs the store');
      this.#height = source.height;
      this.#title = source.title;
      this.#recorder = null;
      this.#query = new LiveQuery(host.store, source, () => this.#request());
      started = this.#query.start();
    } else {
      this.#height = options.height;
      this.#title = undefined;
      this.#query = null;
      this.#recorder = new LiveRecorder(source, options, () => this.#request());
      started = this.#recorder.connect();
    }
    host.activity.on('idle', this.#onIdle);
    this.#ticker = setInterval(() => this.#request(), TICK_MS).unref();
    running.add(this);
    started?.catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      this.#problem = this.#query ? `the query failed: ${message}` : `cannot connect: ${message}`;
      this.#request();
    });
    this.#request();
  }

  /** Every numeric value seen, oldest first (at most 100,000); none for a query. */
  get data(): LivePoint[] {
    return this.#recorder?.data ?? [];
  }

  /** The latest answer of a query (`live({ sql })`); none for a cloud. */
  get rows(): readonly Record<string, unknown>[] {
    return this.#query?.rows ?? [];
  }

  /** Whether it is still listening. */
  get running(): boolean {
    return this.#running;
  }

  /** Stops listening and redrawing; the last drawing stays on screen. Answers the handle. */
  stop(): this {
    if (!this.#running) return this;
    this.#running = false;
    running.delete(this);
    this.#recorder?.stop();
    void this.#query?.stop();
    this.#host.activity.off('idle', this.#onIdle);
    clearInterval(this.#ticker);
    clearTimeout(this.#timer);
    // A final frame says it stopped, unless an input is running (its output comes next).
    if (!this.#host.activity.busy) this.#draw();
    this.#region.close();
    return this;
  }

  /** The chart of the points seen so far (the last `window` seconds), to keep or show. */
  chart(): Chart {
    if (this.#query) {
      const { rows, label, error } = this.#query;
      return liveQueryChart(rows, { title: this.#title, label, error });
    }
    return this.#recorder!.chart();
  }

  /** Writes the chart of the points seen so far to `file` (`.svg`, `.png`, `.html` or `.json`). */
  save(file: string): Promise<SavedFile> {
    return awaitedByRepl(this.chart().save(file));
  }

  /** The chart as text. */
  render(context: DisplayContext, now = Date.now()): string {
    const chalk = new Chalk({ level: context.color ? 1 : 0 });
    const width = Math.max(20, context.width - 1);
    const recorder = this.#recorder;
    if (recorder === null) {
      const height = this.#height ?? Math.max(8, Math.floor(context.height * 0.6));
      const drawing = this.chart().render({ width: width + 1, height: height - 1, color: context.color });
      const state = this.#running
        ? `live · every ${this.#query!.every} s · Ctrl-C or .stop() to stop`
        : 'stopped';
      const parts = [state];
      if (this.#problem) parts.push(this.#problem);
      return `${drawing}\n${chalk.dim(truncateToWidth(parts.join(' · '), width))}`;
    }
    // Every variable gets a plot of its own (4 lines) while 60% of the terminal allows.
    const variables = new Set(this.data.map((p) => p.name)).size;
    const height =
      this.#height ?? Math.max(6, Math.min(3 + 4 * Math.max(1, variables), Math.floor(context.height * 0.6)));
    const chart = renderLiveChart(this.data, {
      width,
      height: height - 1,
      window: recorder.window,
      now,
      color: context.color,
    });
    const state = this.#running ? 'live · Ctrl-C or .stop() to stop' : 'stopped';
    const parts = [`${state} · ${this.data.length} ${this.data.length === 1 ? 'point' : 'points'}`];
    if (recorder.skipped > 0) parts.push(`${recorder.skipped} non-numeric values skipped`);
    if (this.#problem) parts.push(this.#problem);
    return `${chart}\n${chalk.dim(truncateToWidth(parts.join(' · '), width))}`;
  }

  [kDisplay](context: DisplayContext): string {
    const state = this.#running ? 'drawing above the prompt; Ctrl-C or .stop() stops it' : 'stopped';
    const chalk = new Chalk({ level: context.color ? 1 : 0 });
    if (this.#query) {
      const rows = this.#query.rows.length;
      return chalk.dim(
        `LiveChart { ${this.#query.label}, every ${this.#query.every}s, ${rows} rows, ${state} }`,
      );
    }
    const recorder = this.#recorder!;
    const names = recorder.variables ? [...recorder.variables].join(', ') : 'all variables';
    return chalk.dim(
      `LiveChart { ${names}, last ${recorder.window}s, ${this.data.length} points, ${state} }`,
    );
  }

  /** Asks for a redraw, at most one per `REDRAW_MS`. */
  #request(): void {
    if (!this.#running) return;
    this.#due = true;
    if (this.#timer) return;
    const wait = Math.max(0, this.#lastDraw + REDRAW_MS - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flush();
    }, wait);
  }

  #flush(): void {
    if (!this.#due || !this.#running || this.#host.activity.busy) return;
    this.#due = false;
    this.#draw();
  }

  #draw(): void {
    this.#lastDraw = Date.now();
    const { output } = this.#host;
    const text = this.render({
      width: output.columns ?? 80,
      height: output.rows ?? 24,
      color: this.#host.color,
    });
    this.#region.draw(text.split('\n'));
  }
}

/**
 * Makes `live(cloud, { variables, window })` and `live({ sql, every })` (or `{ table, window }`);
 * starting one stops the one before.
 */
export function createLive(
  host: LiveHost,
): (source: LiveSource | LiveQueryArguments, options?: LiveOptions) => LiveChart {
  return (source, options = {}) => {
    // A query's options are checked by LiveQuery before anything stops.
    if (isLiveQuery(source)) {
      if (!host.store) throw new TypeError('live({ sql }) needs the store');
      new LiveQuery(host.store, source, () => {});
    } else {
      checkLiveArguments(source, options);
    }
    stopLiveCharts();
    return new LiveChart(source, host, options);
  };
}
