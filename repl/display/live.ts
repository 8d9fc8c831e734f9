/**
 * `live(cloud)`: cloud values drawn as a chart above the prompt, redrawn in place (at most a few
 * times a second) until Ctrl-C or `.stop()`; the prompt stays usable meanwhile. It starts from the
 * values the cloud already holds, and records others' sets (`set`) and this client's own (`sent`:
 * servers never echo them back).
 *
 * Recording is the presentation layer's {@link LiveRecorder} (shared with the kernel); this file
 * draws.
 */
import { Chalk } from 'chalk';
import {
  type Chart,
  checkLiveArguments,
  type LivePoint,
  LiveRecorder,
  type LiveRecorderOptions,
  type LiveSource,
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

/** What `live` needs from the REPL. */
export interface LiveHost extends PromptHost {
  /** Busy while an input runs: the chart waits for the prompt to be idle. */
  activity: Activity;
  /** Whether ANSI colours may be used. */
  color: boolean;
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
class LiveChart {
  readonly #recorder: LiveRecorder;
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

  constructor(source: LiveSource, host: LiveHost, options: LiveOptions = {}) {
    this.#host = host;
    this.#height = options.height;
    this.#region = new PromptRegion(host);
    this.#recorder = new LiveRecorder(source, options, () => this.#request());
    host.activity.on('idle', this.#onIdle);
    this.#ticker = setInterval(() => this.#request(), TICK_MS).unref();
    running.add(this);
    this.#recorder.connect()?.catch((error: unknown) => {
      this.#problem = `cannot connect: ${error instanceof Error ? error.message : String(error)}`;
      this.#request();
    });
    this.#request();
  }

  /** Every numeric value seen, oldest first (at most 100,000). */
  get data(): LivePoint[] {
    return this.#recorder.data;
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
    this.#recorder.stop();
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
    return this.#recorder.chart();
  }

  /** Writes the chart of the points seen so far to `file` (`.svg`, `.png`, `.html` or `.json`). */
  save(file: string): Promise<SavedFile> {
    return awaitedByRepl(this.chart().save(file));
  }

  /** The chart as text. */
  render(context: DisplayContext, now = Date.now()): string {
    const chalk = new Chalk({ level: context.color ? 1 : 0 });
    const width = Math.max(20, context.width - 1);
    // Every variable gets a plot of its own (4 lines) while 60% of the terminal allows.
    const variables = new Set(this.data.map((p) => p.name)).size;
    const height =
      this.#height ?? Math.max(6, Math.min(3 + 4 * Math.max(1, variables), Math.floor(context.height * 0.6)));
    const chart = renderLiveChart(this.data, {
      width,
      height: height - 1,
      window: this.#recorder.window,
      now,
      color: context.color,
    });
    const state = this.#running ? 'live · Ctrl-C or .stop() to stop' : 'stopped';
    const parts = [`${state} · ${this.data.length} ${this.data.length === 1 ? 'point' : 'points'}`];
    if (this.#recorder.skipped > 0) parts.push(`${this.#recorder.skipped} non-numeric values skipped`);
    if (this.#problem) parts.push(this.#problem);
    return `${chart}\n${chalk.dim(truncateToWidth(parts.join(' · '), width))}`;
  }

  [kDisplay](context: DisplayContext): string {
    const names = this.#recorder.variables ? [...this.#recorder.variables].join(', ') : 'all variables';
    const state = this.#running ? 'drawing above the prompt; Ctrl-C or .stop() stops it' : 'stopped';
    const chalk = new Chalk({ level: context.color ? 1 : 0 });
    return chalk.dim(
      `LiveChart { ${names}, last ${this.#recorder.window}s, ${this.data.length} points, ${state} }`,
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

/** Makes `live(cloud, { variables, window })`; starting one stops the one before. */
export function createLive(host: LiveHost): (source: LiveSource, options?: LiveOptions) => LiveChart {
  return (source, options = {}) => {
    checkLiveArguments(source, options);
    stopLiveCharts();
    return new LiveChart(source, host, options);
  };
}
