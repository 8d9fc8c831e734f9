/**
 * `live(cloud, options?)`: a chart of cloud values that redraws in place (one updatable display)
 * as `set` events arrive, until `stop()`.
 *
 * Redraws are coalesced: at most one render is in flight, and renders start at least
 * {@link MIN_REDRAW_MS} apart, so a busy project costs two SVG renders a second, not one per event
 * (each update carries the whole chart).
 * Updates go out with whichever cell is running then; a notebook keeps a cell waiting (e.g.
 * `await sleep(5000); await handle.stop()`) while the chart should move.
 */
import {
  addLivePoint,
  Chart,
  type LivePoint,
  liveChartSpec,
  parseCloudNumber,
  type SavedFile,
  summarizeLive,
} from 'scratchlab/presentation';
import { chartBundle, newDisplayId, sendDisplay, textBundle, updateDisplay } from './display.js';
import type { PendingDisplays } from './pending-displays.js';

/** Least time between two redraws. */
export const MIN_REDRAW_MS = 500;

/** A `set` event as `Cloud` emits it. */
export interface LiveSetEvent {
  name: string;
  value: string;
}

/**
 * What `live` listens to: a `Cloud` (or anything emitting its `set` events). Its `sent` events
 * (a `Cloud`'s own sets, which servers never echo) are recorded too.
 */
export interface LiveSource {
  on(event: 'set' | 'sent', listener: (event: LiveSetEvent) => void): unknown;
  off(event: 'set' | 'sent', listener: (event: LiveSetEvent) => void): unknown;
  /** Called once, so that a cloud connection that is not open yet starts receiving. */
  connect?(): unknown;
  /** The values held now, by name (a `Cloud` has it): the chart starts from them. */
  getAllVars?(): Record<string, string>;
}

/** Options of `live`. */
export interface LiveOptions {
  /** Only these variables (names without `☁ `); default all. */
  variables?: readonly string[];
  /** Seconds of history shown (default 60). */
  window?: number;
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
}

/** `live(cloud, options?)`. */
export type Live = (cloud: LiveSource, options?: LiveOptions) => LiveHandle;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Creates `live`. */
export function createLive(context: { pending: PendingDisplays }): Live {
  return (cloud, options = {}) => {
    if (!cloud || typeof cloud.on !== 'function' || typeof cloud.off !== 'function') {
      throw new TypeError('live() needs a cloud connection: live(session.cloud(projectId))');
    }
    const window = options.window ?? 60;
    const wanted = options.variables ? new Set(options.variables) : null;
    const displayId = newDisplayId();
    const data: LivePoint[] = [];
    let dirty = false;
    let stopped = false;
    let loop: Promise<void> | null = null;

    const render = async (final: boolean) => {
      const now = Date.now();
      const spec = liveChartSpec(data, { window, now, title: options.title });
      const summary = summarizeLive(data, { window, now });
      updateDisplay(await chartBundle(spec, final ? `${summary}\n(stopped)` : summary), displayId);
    };
    let drawnOnce: () => void = () => {};
    const firstDraw = new Promise<void>((resolve) => {
      drawnOnce = resolve;
    });
    let lastDraw = 0;
    const redraw = async () => {
      while (dirty && !stopped) {
        const wait = lastDraw + MIN_REDRAW_MS - Date.now();
        if (wait > 0) await sleep(wait);
        if (stopped) break;
        dirty = false;
        lastDraw = Date.now();
        try {
          await render(false);
        } catch (error) {
          process.stderr.write(
            `live: cannot draw the chart: ${error instanceof Error ? error.message : error}\n`,
          );
        }
        drawnOnce();
      }
      drawnOnce();
      loop = null;
    };
    const schedule = () => {
      dirty = true;
      loop ??= redraw();
    };
    const listener = (event: LiveSetEvent) => {
      if (stopped || (wanted && !wanted.has(event.name))) return;
      const value = parseCloudNumber(String(event.value));
      if (value === null) return;
      addLivePoint(data, { time: Date.now(), name: event.name, value });
      schedule();
    };
    // Starts each variable not seen yet from the value the cloud holds now (a second `live` of a
    // connected cloud gets no initial values from the server). When it was set is not known: the
    // point goes at the window's start, so the line spans the chart and it is not a change.
    const seed = () => {
      if (stopped || typeof cloud.getAllVars !== 'function') return;
      const seen = new Set(data.map((p) => p.name));
      const now = Date.now() - window * 1000;
      for (const [name, text] of Object.entries(cloud.getAllVars())) {
        const value = parseCloudNumber(String(text));
        if (seen.has(name) || value === null || (wanted && !wanted.has(name))) continue;
        data.push({ time: now, name, value });
      }
      schedule();
    };

    // The output is created now, in the calling cell; the first chart replaces the placeholder,
    // and the calling cell waits for that first chart (not for later ones).
    sendDisplay(textBundle(summarizeLive(data, { window })), { displayId });
    cloud.on('set', listener);
    cloud.on('sent', listener);
    seed();
    if (typeof cloud.connect === 'function') {
      // The cell waits until the connection is open (a failure is reported with the cell).
      context.pending.track(Promise.resolve(cloud.connect()).then(seed));
    }
    schedule();
    context.pending.track(firstDraw);

    let stopping: Promise<void> | undefined;
    const chart = () => {
      const now = Date.now();
      return new Chart(liveChartSpec(data, { window, now, title: options.title }), {
        summary: summarizeLive(data, { window, now }),
      });
    };
    return {
      data,
      chart,
      save: (file) => chart().save(file),
      stop() {
        stopping ??= context.pending.track(
          (async () => {
            stopped = true;
            cloud.off('set', listener);
            cloud.off('sent', listener);
            await loop;
            await render(true);
          })(),
        );
        return stopping;
      },
    };
  };
}
