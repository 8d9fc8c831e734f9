/**
 * `live(cloud)`: cloud values drawn as a chart above the prompt, redrawn in place (at most a few
 * times a second) until Ctrl-C or `.stop()`; the prompt stays usable meanwhile. It starts from the
 * values the cloud already holds, and records others' sets (`set`) and this client's own (`sent`:
 * servers never echo them back).
 *
 * The cloud is typed by what is used (`on`/`off`, optionally `connect()` and `getAllVars()`), so
 * any emitter of `{ name, value }` events works, a `Cloud` of the SDK included.
 */
import { Chalk } from 'chalk';
import {
  addLivePoint,
  Chart,
  type LivePoint,
  liveChartSpec,
  parseCloudNumber,
  renderLiveChart,
  type SavedFile,
  summarizeLive,
  truncateToWidth,
} from 'scratchlab/presentation';
import type { Activity } from './activity.js';
import { awaitedByRepl, type DisplayContext, kDisplay } from './display.js';
import { type PromptHost, PromptRegion } from './prompt-region.js';

/** A `set` event: a variable's new value. */
export interface LiveSetEvent {
  name: string;
  value: string | number;
}

/**
 * Anything that emits `set` events, e.g. `session.cloud(id)`; `sent` events (a `Cloud`'s own sets)
 * are recorded too.
 */
export interface LiveSource {
  on(event: 'set' | 'sent', listener: (event: LiveSetEvent) => void): unknown;
  off(event: 'set' | 'sent', listener: (event: LiveSetEvent) => void): unknown;
  /** Called once if present, so listening is enough to start receiving events. */
  connect?(): Promise<unknown>;
  /** The values held now, by name (a `Cloud` has it): the chart starts from them. */
  getAllVars?(): Record<string, string>;
}

/** Options of `live`. */
export interface LiveOptions {
  /** Only these variables (names with or without the `☁ ` prefix); default all. */
  variables?: readonly string[];
  /** Seconds of history shown (default 60). */
  window?: number;
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

const CLOUD_PREFIX = /^☁\s*/;
const bareName = (name: string): string => name.replace(CLOUD_PREFIX, '');

const running = new Set<LiveChart>();

/** Stops every running live chart (Ctrl-C at the prompt); answers how many were running. */
export function stopLiveCharts(): number {
  const count = running.size;
  for (const chart of [...running]) chart.stop();
  return count;
}

/** A running (or stopped) live chart: its handle at the prompt. */
export class LiveChart {
  /** Every numeric value seen, oldest first (at most 100,000). */
  readonly data: LivePoint[] = [];
  readonly #source: LiveSource;
  readonly #host: LiveHost;
  readonly #region: PromptRegion;
  readonly #window: number;
  readonly #height: number | undefined;
  readonly #only: ReadonlySet<string> | null;
  readonly #listener = (event: LiveSetEvent) => this.#onSet(event);
  readonly #onIdle = () => this.#flush();
  #timer: NodeJS.Timeout | undefined;
  #ticker: NodeJS.Timeout | undefined;
  #lastDraw = 0;
  #due = false;
  #running = true;
  #skipped = 0;
  #problem: string | null = null;

  constructor(source: LiveSource, host: LiveHost, options: LiveOptions = {}) {
    this.#source = source;
    this.#host = host;
    this.#window = options.window ?? 60;
    this.#height = options.height;
    this.#only = options.variables ? new Set(options.variables.map(bareName)) : null;
    this.#region = new PromptRegion(host);
    source.on('set', this.#listener);
    source.on('sent', this.#listener);
    host.activity.on('idle', this.#onIdle);
    this.#ticker = setInterval(() => this.#request(), TICK_MS).unref();
    running.add(this);
    this.#seed();
    if (typeof source.connect === 'function') {
      source.connect().then(
        () => this.#seed(),
        (error: unknown) => {
          this.#problem = `cannot connect: ${error instanceof Error ? error.message : String(error)}`;
          this.#request();
        },
      );
    }
    this.#request();
  }

  /**
   * Starts each variable not seen yet from the value the cloud holds now. When it was set is not
   * known: the point is put at the window's start, so the line spans the chart and the value does
   * not count as a change.
   */
  #seed(): void {
    if (!this.#running || typeof this.#source.getAllVars !== 'function') return;
    const seen = new Set(this.data.map((p) => p.name));
    const now = Date.now() - this.#window * 1000;
    for (const [name, value] of Object.entries(this.#source.getAllVars())) {
      const bare = bareName(name);
      if (seen.has(bare) || (this.#only && !this.#only.has(bare))) continue;
      const number = parseCloudNumber(String(value));
      if (number !== null) this.data.push({ time: now, name: bare, value: number });
    }
    this.#request();
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
    this.#source.off('set', this.#listener);
    this.#source.off('sent', this.#listener);
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
    const now = Date.now();
    return new Chart(liveChartSpec(this.data, { window: this.#window, now }), {
      summary: summarizeLive(this.data, { window: this.#window, now }),
    });
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
      window: this.#window,
      now,
      color: context.color,
    });
    const state = this.#running ? 'live · Ctrl-C or .stop() to stop' : 'stopped';
    const parts = [`${state} · ${this.data.length} ${this.data.length === 1 ? 'point' : 'points'}`];
    if (this.#skipped > 0) parts.push(`${this.#skipped} non-numeric values skipped`);
    if (this.#problem) parts.push(this.#problem);
    return `${chart}\n${chalk.dim(truncateToWidth(parts.join(' · '), width))}`;
  }

  [kDisplay](context: DisplayContext): string {
    const names = this.#only ? [...this.#only].join(', ') : 'all variables';
    const state = this.#running ? 'drawing above the prompt; Ctrl-C or .stop() stops it' : 'stopped';
    const chalk = new Chalk({ level: context.color ? 1 : 0 });
    return chalk.dim(`LiveChart { ${names}, last ${this.#window}s, ${this.data.length} points, ${state} }`);
  }

  #onSet(event: LiveSetEvent): void {
    const name = bareName(String(event.name));
    if (this.#only && !this.#only.has(name)) return;
    const value = typeof event.value === 'number' ? event.value : parseCloudNumber(String(event.value));
    if (value === null || !Number.isFinite(value)) {
      this.#skipped++;
    } else {
      addLivePoint(this.data, { time: Date.now(), name, value });
    }
    this.#request();
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
    if (
      source === null ||
      typeof source !== 'object' ||
      typeof source.on !== 'function' ||
      typeof source.off !== 'function'
    ) {
      throw new TypeError(
        "live(cloud) needs something with on('set', fn) and off('set', fn), e.g. session.cloud(projectId)",
      );
    }
    if (options.window !== undefined && !(options.window > 0))
      throw new RangeError('window must be a number of seconds > 0');
    stopLiveCharts();
    return new LiveChart(source, host, options);
  };
}
