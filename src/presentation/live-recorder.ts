/**
 * The recording half of `live(cloud)`, shared by the REPL and the Jupyter kernel (each draws in
 * its own way): it starts from the values the cloud holds now, then records others' sets (`set`)
 * and this client's own (`sent`: servers never echo them back), keeping at most
 * {@link MAX_LIVE_POINTS} numeric values and counting the others it skips.
 *
 * The cloud is typed by what is used (`on`/`off`, optionally `connect()` and `getAllVars()`), so
 * any emitter of `{ name, value }` events works, a `Cloud` of the SDK included.
 */
import { addLivePoint, type LivePoint, parseCloudNumber } from './aggregate.js';
import { Chart } from './chart.js';
import { liveChartSpec } from './charts.js';
import { summarizeLive } from './live-summary.js';

/** A `set` or `sent` event: a variable's new value. */
export interface LiveSetEvent {
  name: string;
  value: string | number;
}

/**
 * What `live` listens to: a `Cloud` (or anything emitting its `set` events). Its `sent` events
 * (a `Cloud`'s own sets, which servers never echo) are recorded too.
 */
export interface LiveSource {
  on(event: 'set' | 'sent', listener: (event: LiveSetEvent) => void): unknown;
  off(event: 'set' | 'sent', listener: (event: LiveSetEvent) => void): unknown;
  /** Called once if present (it may answer a promise), so that a connection not open yet starts receiving. */
  connect?(): unknown;
  /** The values held now, by name (a `Cloud` has it): the record starts from them. */
  getAllVars?(): Record<string, string>;
}

/** Options of a {@link LiveRecorder}. */
export interface LiveRecorderOptions {
  /** Only these variables (names with or without the `☁ ` prefix); default all. */
  variables?: readonly string[];
  /** Seconds of history shown (default 60): seeded values are put at the window's start. */
  window?: number;
}

/** What changed: a numeric point was recorded (or seeded), or a non-numeric value was skipped. */
export type LiveChange = 'point' | 'skipped';

// Names come with the prefix from raw wire events and without it from a `Cloud`; callers may
// write either, so both sides are compared bare.
const CLOUD_PREFIX = /^☁\s*/;
const bareName = (name: string): string => name.replace(CLOUD_PREFIX, '');

/**
 * Checks the arguments of `live(cloud, options)`, so that a front end can refuse them before it
 * stops the chart running.
 * @throws TypeError when `source` has no `on`/`off`; RangeError for a window that is not > 0.
 */
export function checkLiveArguments(source: LiveSource, options: LiveRecorderOptions = {}): void {
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
}

/**
 * Records a cloud's numeric values from the moment it is made until {@link LiveRecorder.stop}.
 * `onChange` is called after every change, for the front end to redraw.
 */
export class LiveRecorder {
  /** Every numeric value seen, oldest first (at most {@link MAX_LIVE_POINTS}). */
  readonly data: LivePoint[] = [];
  /** The variables recorded (names without `☁ `), or `null` for all. */
  readonly variables: ReadonlySet<string> | null;
  /** Seconds of history shown. */
  readonly window: number;
  readonly #source: LiveSource;
  readonly #onChange: (change: LiveChange) => void;
  readonly #listener = (event: LiveSetEvent) => this.#record(event);
  #recording = true;
  #skipped = 0;

  /**
   * Starts listening to `source` and seeds from its current values (without calling `onChange`:
   * the caller draws the first time itself).
   * @throws as {@link checkLiveArguments}.
   */
  constructor(
    source: LiveSource,
    options: LiveRecorderOptions = {},
    onChange: (change: LiveChange) => void = () => {},
  ) {
    checkLiveArguments(source, options);
    this.#source = source;
    this.#onChange = onChange;
    this.window = options.window ?? 60;
    this.variables = options.variables ? new Set(options.variables.map(bareName)) : null;
    source.on('set', this.#listener);
    source.on('sent', this.#listener);
    // Silent: the front end is still being built, and draws once it is.
    this.#seed(false);
  }

  /** Whether it is still listening. */
  get recording(): boolean {
    return this.#recording;
  }

  /** How many values of the recorded variables were not numbers (and so not recorded). */
  get skipped(): number {
    return this.#skipped;
  }

  /**
   * Connects the source if it can, then seeds the variables its connection brought. Answers
   * `null` when the source has no `connect`; the promise rejects as the connection fails.
   */
  connect(): Promise<void> | null {
    if (typeof this.#source.connect !== 'function') return null;
    return Promise.resolve(this.#source.connect()).then(() => this.#seed(true));
  }

  /** The chart of what was recorded (the last `window` seconds), to show, keep or save. */
  chart(title?: string, now = Date.now()): Chart {
    const window = this.window;
    return new Chart(liveChartSpec(this.data, { window, now, title }), {
      summary: summarizeLive(this.data, { window, now }),
    });
  }

  /** Stops listening; what was recorded stays. */
  stop(): void {
    if (!this.#recording) return;
    this.#recording = false;
    this.#source.off('set', this.#listener);
    this.#source.off('sent', this.#listener);
  }

  /**
   * Starts each variable not seen yet from the value the cloud holds now (a second `live` of a
   * connected cloud gets no initial values from the server). When it was set is not known: the
   * point goes at the window's start, so the line spans the chart and it is not a change.
   */
  #seed(notify: boolean): void {
    if (!this.#recording || typeof this.#source.getAllVars !== 'function') return;
    const seen = new Set(this.data.map((p) => p.name));
    const time = Date.now() - this.window * 1000;
    for (const [name, text] of Object.entries(this.#source.getAllVars())) {
      const bare = bareName(name);
      if (seen.has(bare) || !this.#wanted(bare)) continue;
      const value = parseCloudNumber(String(text));
      if (value !== null) this.data.push({ time, name: bare, value });
    }
    if (notify) this.#onChange('point');
  }

  #wanted(name: string): boolean {
    return this.variables === null || this.variables.has(name);
  }

  #record(event: LiveSetEvent): void {
    const name = bareName(String(event.name));
    if (!this.#recording || !this.#wanted(name)) return;
    const value = typeof event.value === 'number' ? event.value : parseCloudNumber(String(event.value));
    if (value === null || !Number.isFinite(value)) {
      this.#skipped++;
      this.#onChange('skipped');
      return;
    }
    addLivePoint(this.data, { time: Date.now(), name, value });
    this.#onChange('point');
  }
}
