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
import { type LivePoint, liveChartSpec, parseCloudNumber, summarizeLive } from 'scratchlab/presentation';
import { chartBundle, newDisplayId, sendDisplay, textBundle, updateDisplay } from './display.js';
import type { PendingDisplays } from './pending-displays.js';

/** Least time between two redraws. */
export const MIN_REDRAW_MS = 500;

/** A `set` event as `Cloud` emits it. */
export interface LiveSetEvent {
  name: string;
  value: string;
}

/** What `live` listens to: a `Cloud` (or anything emitting its `set` events). */
export interface LiveSource {
  on(event: 'set', listener: (event: LiveSetEvent) => void): unknown;
  off(event: 'set', listener: (event: LiveSetEvent) => void): unknown;
  /** Called once, so that a cloud connection that is not open yet starts receiving. */
  connect?(): unknown;
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
  /** Every numeric value seen so far, oldest first (non-numeric values are skipped). */
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
      data.push({ time: Date.now(), name: event.name, value });
      schedule();
    };

    // The output is created now, in the calling cell; the first chart replaces the placeholder,
    // and the calling cell waits for that first chart (not for later ones).
    sendDisplay(textBundle(summarizeLive(data, { window })), { displayId });
    cloud.on('set', listener);
    if (typeof cloud.connect === 'function') {
      // The cell waits until the connection is open (a failure is reported with the cell).
      context.pending.track(Promise.resolve(cloud.connect()));
    }
    schedule();
    context.pending.track(firstDraw);

    let stopping: Promise<void> | undefined;
    return {
      data,
      stop() {
        stopping ??= context.pending.track(
          (async () => {
            stopped = true;
            cloud.off('set', listener);
            await loop;
            await render(true);
          })(),
        );
        return stopping;
      },
    };
  };
}
