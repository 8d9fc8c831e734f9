/**
 * The REPL's rich layer: the SDK's exports as globals, the writer (tables, charts), and the
 * helpers `show`, `display`, `plot`, `live`, `withProgress`, `store` and `sql` (the DuckDB store,
 * opened on first use), and `md`, `html`, `svg`, `image` (the kernel's rich outputs, printed here as
 * their text: the source of `md` and `html`, a one-line note for an image; `clearOutput` is the
 * kernel's only, a terminal has no cell output to clear). It pulls in the presentation layer and the whole
 * SDK, so it is loaded just after the first prompt is shown; the evaluator waits for it before it
 * runs the first input (well before anyone has typed one).
 */
import { types } from 'node:util';
import * as sdk from 'scratchlab';
import { defaultStore } from 'scratchlab/data';
import { html, image, md, svg } from 'scratchlab/presentation';
import { installAutoProgress } from './display/auto-progress.js';
import { isAwaitedByRepl, type OutputNotes } from './display/display.js';
import { createDisplay } from './display/display-output.js';
import { createLive, stopLiveCharts } from './display/live.js';
import { plot } from './display/plot.js';
import { finishProgressBars, withProgress } from './display/progress.js';
import { createShow } from './display/show.js';
import { createWriter, type Writer } from './display/writer.js';
import { installInterruptSignals } from './evaluation/interrupt.js';
import type { Activity } from './terminal/activity.js';
import type { PromptHost } from './terminal/prompt-region.js';
import { ScreenRows } from './terminal/screen-rows.js';

/** What the rich layer needs from the REPL. */
export interface ToolkitHost extends PromptHost {
  activity: Activity;
  notes: OutputNotes;
  color: boolean;
  /** Line editing is on (stdin and stdout are a terminal). */
  isTerminal: boolean;
  size(): { width: number; height: number };
}

/** The rich layer, ready. */
export interface Toolkit {
  /** The REPL's writer. */
  writer: Writer;
  /** Every export of `scratchlab`, to become globals. */
  sdk: Readonly<Record<string, unknown>>;
  /** `show`, `display`, `plot`, `live`, `withProgress`, `store`, `sql`, `md`, `html`, `svg`, `image`. */
  helpers: Readonly<Record<string, unknown>>;
  /** Whether the REPL awaits an input's value before printing it (a `PagedList`, a helper's promise). */
  awaitsItself(value: unknown): value is PromiseLike<unknown>;
  /** Called when an input has been evaluated: erases progress bars left by a failed call. */
  afterInput(): void;
  /** Stops the running live chart (Ctrl-C); answers how many were running. */
  stopLive(): number;
  /** Closes `store` at exit: its recorders store what they received first. Answers the sets they could not. */
  closeStore(): Promise<number>;
}

/** Builds the rich layer for a REPL. */
export function createToolkit(host: ToolkitHost): Toolkit {
  installAutoProgress();
  installInterruptSignals({
    PagedList: sdk.PagedList,
    Projects: sdk.Projects,
    http: Object.getPrototypeOf(new sdk.Session().http) as Parameters<
      typeof installInterruptSignals
    >[0]['http'],
  });
  const { color, size, notes, output, activity, isTerminal } = host;
  const writer = createWriter({ color, size });
  const screen = new ScreenRows([output, ...(host.others ?? [])], () => output.columns || 80);
  const store = defaultStore();
  return {
    writer,
    sdk: sdk as unknown as Record<string, unknown>,
    helpers: {
      show: createShow({ color, size, notes, write: (text) => output.write(text) }),
      display: createDisplay({
        color,
        size,
        output,
        isTerminal,
        activity,
        notes,
        screen,
        writer,
        redrawPrompt: host.redrawPrompt,
      }),
      plot,
      live: createLive({ ...host, store }),
      withProgress,
      store,
      sql: store.sql,
      md,
      html,
      svg,
      image,
    },
    // Plain promises too: `list.save('x.csv')` and `chart.save('x.png')` answer one.
    // A proxy is not asked (`instanceof` runs its `getPrototypeOf` trap): it is shown as it is.
    awaitsItself: (value): value is PromiseLike<unknown> =>
      !types.isProxy(value) &&
      (value instanceof sdk.PagedList || value instanceof Promise || isAwaitedByRepl(value)),
    afterInput: finishProgressBars,
    stopLive: stopLiveCharts,
    closeStore: () => store.close(),
  };
}
