/**
 * `live(cloud, options?)`: a chart of cloud values that redraws in place (one updatable display)
 * as `set` events arrive, until `stop()`; `live({ sql })` (or `{ table }`): a chart of a query of
 * the store, asked every `every` seconds, that moves as rows arrive from any process.
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

import { isLiveQuery, LiveQuery, type Store } from 'scratchlab/data';
import {
  type Chart,
  checkLiveArguments,
  type Live,
  type LiveHandle,
  type LiveOptions,
  type LiveQueryArguments,
  type LiveQueryHandle,
  LiveRecorder,
  type LiveSource,
  liveQueryChart,
  summarizeLive,
} from 'scratchlab/presentation';
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

/** What a live display draws from: a cloud's recorder, or a query asked again and again. */
interface LiveFeed {
  /** The chart now. */
  chart(): Chart;
  /** The chart when stopped. */
  final(): Promise<Chart> | Chart;
  /** Stops what feeds the chart. */
  end(): Promise<void> | void;
}

/** What the kernel's live displays need. */
export interface LiveContext {
  pending: PendingDisplays;
  running: RunningLives;
  /** The store `live({ sql })` queries. */
  store?: Store;
}

/**
 * One updatable display fed by `feed`: redraws at most every {@link MIN_REDRAW_MS}, the calling
 * cell waits for the first drawing (and for `ready`), a kernel shutdown ends it.
 */
function liveDisplay(context: LiveContext, placeholder: string, feed: LiveFeed, ready: Promise<void> | null) {
  // The output is created now, in the calling cell; the first chart replaces the placeholder,
  // and the calling cell waits for that first chart (not for later ones).
  const displayId = newDisplayId();
  sendDisplay(textBundle(placeholder), { displayId });
  let dirty = false;
  let stopped = false;
  let loop: Promise<void> | null = null;
  const draw = async (chart: Chart, final: boolean) => {
    const { spec, summary } = chart;
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
        await draw(feed.chart(), false);
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
  // The cell waits until the source is ready (a failure is reported with the cell).
  if (ready) context.pending.track(ready);
  schedule();
  context.pending.track(firstDraw);
  const forget = context.running.add(() => {
    stopped = true;
    void feed.end();
  });
  let stopping: Promise<void> | undefined;
  return {
    schedule,
    stop(): Promise<void> {
      stopping ??= context.pending.track(
        (async () => {
          stopped = true;
          forget();
          await feed.end();
          await loop;
          await draw(await feed.final(), true);
        })(),
      );
      return stopping;
    },
  };
}

/** Creates `live`. */
export function createLive(context: LiveContext): Live {
  const cloudLive = (cloud: LiveSource, options: LiveOptions = {}): LiveHandle => {
    checkLiveArguments(cloud, options);
    // Skipped values change nothing drawn here: only points ask for a redraw.
    const recorder = new LiveRecorder(cloud, options, (change) => {
      if (change === 'point') display.schedule();
    });
    const chart = () => recorder.chart(options.title);
    const display = liveDisplay(
      context,
      summarizeLive([]),
      { chart, final: chart, end: () => recorder.stop() },
      recorder.connect(),
    );
    return {
      data: recorder.data,
      get skipped() {
        return recorder.skipped;
      },
      chart,
      save: (file) => chart().save(file),
      stop: display.stop,
    };
  };
  const queryLive = (options: LiveQueryArguments): LiveQueryHandle => {
    if (!context.store) throw new TypeError('live({ sql }) needs the store');
    const query = new LiveQuery(context.store, options, () => display.schedule());
    const chart = () =>
      liveQueryChart(query.rows, { title: options.title, label: query.label, error: query.error });
    const display = liveDisplay(
      context,
      `live: ${query.label} (every ${query.every} s)`,
      { chart, final: chart, end: () => query.stop() },
      query.start(),
    );
    return {
      get rows() {
        return query.rows;
      },
      get error() {
        return query.error;
      },
      chart,
      save: (file) => chart().save(file),
      stop: display.stop,
    };
  };
  return ((source: LiveSource | LiveQueryArguments, options?: LiveOptions) =>
    isLiveQuery(source) ? queryLive(source) : cloudLive(source as LiveSource, options)) as Live;
}
