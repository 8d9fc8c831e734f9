/**
 * `live(cloud, options?)`: a chart of cloud values that redraws in place (one updatable display)
 * as `set` events arrive, until `stop()`.
 *
 * Redraws are coalesced: at most one render is in flight, and renders start at least
 * {@link MIN_REDRAW_MS} apart, so a busy project costs two SVG renders a second, not one per event
 * (each update carries the whole chart).
 * Updates go out with whichever cell is running then; a notebook keeps a cell waiting (e.g.
 * `await sleep(5000); await handle.stop()`) while the chart should move.
 * Recording is the presentation layer's {@link LiveRecorder} (shared with the REPL); this file
 * draws.
 */
import {
  type Chart,
  checkLiveArguments,
  type LivePoint,
  LiveRecorder,
  type LiveRecorderOptions,
  type LiveSource,
  type SavedFile,
  summarizeLive,
} from 'scratchlab/presentation';
import { chartBundle, newDisplayId, sendDisplay, textBundle, updateDisplay } from './display.js';
import type { PendingDisplays } from './pending-displays.js';

/** Least time between two redraws. */
export const MIN_REDRAW_MS = 500;

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

/** `live(cloud, options?)`. */
export type Live = (cloud: LiveSource, options?: LiveOptions) => LiveHandle;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Creates `live`. */
export function createLive(context: { pending: PendingDisplays }): Live {
  return (cloud, options = {}) => {
    checkLiveArguments(cloud, options);
    // The output is created now, in the calling cell; the first chart replaces the placeholder,
    // and the calling cell waits for that first chart (not for later ones).
    const displayId = newDisplayId();
    sendDisplay(textBundle(summarizeLive([])), { displayId });
    // Skipped values change nothing drawn here: only points ask for a redraw.
    const recorder = new LiveRecorder(cloud, options, (change) => {
      if (change === 'point') schedule();
    });
    let dirty = false;
    let stopped = false;
    let loop: Promise<void> | null = null;

    const chart = () => recorder.chart(options.title);
    const render = async (final: boolean) => {
      const { spec, summary } = chart();
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

    // The cell waits until the connection is open (a failure is reported with the cell).
    const connected = recorder.connect();
    if (connected) context.pending.track(connected);
    schedule();
    context.pending.track(firstDraw);

    let stopping: Promise<void> | undefined;
    return {
      data: recorder.data,
      get skipped() {
        return recorder.skipped;
      },
      chart,
      save: (file) => chart().save(file),
      stop() {
        stopping ??= context.pending.track(
          (async () => {
            stopped = true;
            recorder.stop();
            await loop;
            await render(true);
          })(),
        );
        return stopping;
      },
    };
  };
}
