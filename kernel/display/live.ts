/**
 * `live(cloud, options?)`: a chart of cloud values that redraws in place (one updatable display)
 * as `set` events arrive, until `stop()`.
 *
 * Redraws are coalesced: at most one render is in flight, and renders start at least
 * {@link MIN_REDRAW_MS} apart, so a busy project costs two SVG renders a second, not one per event
 * (each update carries the whole chart).
 * Updates go out after the calling cell has returned too, with the last cell run (as IPython's
 * updates from a thread): the front end finds the chart by its display id and redraws it while
 * the kernel is idle. A live chart nobody stops stays bounded (at most 100,000 points kept, and
 * a window of them drawn, at most two redraws a second); a kernel shutdown ends them all
 * ({@link RunningLives}) without drawing again.
 * Recording is the presentation layer's {@link LiveRecorder} (shared with the REPL); this file
 * draws.
 */
import { checkLiveArguments, type Live, LiveRecorder, summarizeLive } from 'scratchlab/presentation';
import { chartBundle, newDisplayId, sendDisplay, textBundle, updateDisplay } from './display.js';
import type { PendingDisplays } from './pending-displays.js';

/** Least time between two redraws. */
export const MIN_REDRAW_MS = 500;

/** The live displays not stopped yet, so that a kernel shutdown can end them. */
export class RunningLives {
  readonly #ends = new Set<() => void>();

  /** Registers `end` (stops listening, draws nothing more); answers the function that forgets it. */
  add(end: () => void): () => void {
    this.#ends.add(end);
    return () => this.#ends.delete(end);
  }

  /** How many are running. */
  get size(): number {
    return this.#ends.size;
  }

  /** Ends every live display: no more listening, no more drawing. */
  endAll(): void {
    for (const end of [...this.#ends]) end();
    this.#ends.clear();
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Creates `live`. */
export function createLive(context: { pending: PendingDisplays; running: RunningLives }): Live {
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

    const forget = context.running.add(() => {
      stopped = true;
      recorder.stop();
    });
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
            forget();
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
