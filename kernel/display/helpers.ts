/**
 * `show` and `plot`, the display helpers cells call (the REPL has the same names). Both accept a
 * value or anything awaitable (a `PagedList`, a promise) and send one display bundle to the cell
 * that called them; the kernel waits for it whether or not the cell awaits. `plot` answers the
 * {@link Chart} (`.save('chart.png')`, `.spec`); `show` answers nothing.
 */
import {
  type CellPlotOptions,
  chartOf,
  JUPYTER_DISPLAY,
  mimeBundleOf,
  type Plot,
  type Show,
  type ShowOptions,
} from 'scratchlab/presentation';
import { isThenable } from '../execution/thenable.js';
import { currentWriter, type MimeBundle, type WriteDisplayData } from '../tslab.js';
import { sendDisplay, tableBundle, textBundle } from './display.js';
import type { PendingDisplays } from './pending-displays.js';

/** What the helpers need from the kernel. */
export interface HelperContext {
  pending: PendingDisplays;
  /** The site's base URL, for links in tables (only the real site's pages are linked). */
  siteUrl(): string | undefined;
}

/**
 * What `show` displays: a table of records (with links on the real site), else a value's own bundle
 * (a chart, an empty list's "no results"), else a table of objects, else the value as text.
 */
export function valueBundle(
  value: unknown,
  siteUrl: string | undefined,
  options: ShowOptions = {},
): MimeBundle {
  const records = tableBundle(value, { siteUrl, rows: options.rows, kind: options.kind });
  if (records) return records;
  const own = mimeBundleOf(value);
  if (own) return own;
  return tableBundle(value, { siteUrl, rows: options.rows, anyValue: true }) ?? textBundle(value);
}

/**
 * Creates `show`: a table for platform records (one or an array) and for other arrays of objects,
 * text for anything else.
 */
export function createShow(context: HelperContext): Show {
  return (value, options = {}) => {
    // Bound now: the output belongs to the calling cell even if it arrives after an await.
    const writer = currentWriter() ?? undefined;
    const work = (async () => {
      const resolved = isThenable(value) ? await value : value;
      sendDisplay(valueBundle(resolved, context.siteUrl(), options), { writer });
    })();
    return context.pending.track(work);
  };
}

/** The chart bundle of `data` (Vega-Lite, SVG, text), or a TypeError naming what `plot` accepts. */
export async function plotBundle(data: unknown, options: CellPlotOptions = {}): Promise<MimeBundle> {
  const chart = await chartOf(data, options).ready();
  return chart[JUPYTER_DISPLAY]();
}

/** The cell each chart of `plot` was shown in: shown again only as another cell's value. */
const shownIn = new WeakMap<object, WriteDisplayData>();

/** Whether `value` is a chart `plot` already showed in the cell running now (so its value shows nothing). */
export function shownByPlot(value: unknown): boolean {
  return typeof value === 'object' && value !== null && shownIn.get(value) === currentWriter();
}

/** Creates `plot`: shows one bundle of Vega-Lite spec, SVG and text summary, and answers the chart. */
export function createPlot(context: HelperContext): Plot {
  return (data, options = {}) => {
    const writer = currentWriter() ?? undefined;
    const work = (async () => {
      const resolved: unknown = isThenable(data) ? await data : data;
      const chart = await chartOf(resolved, options).ready();
      sendDisplay(chart[JUPYTER_DISPLAY](), { writer });
      if (writer) shownIn.set(chart, writer);
      return chart;
    })();
    return context.pending.track(work);
  };
}
