/**
 * `show` and `plot`, the display helpers cells call (the REPL has the same names). Both accept a
 * value or anything awaitable (a `PagedList`, a promise), send one display bundle to the cell that
 * called them, and return a promise the cell may await; the kernel waits for it either way.
 */
import type { CloudLogEntry, Project } from 'scratchlab';
import {
  type LogsChartOptions,
  logsChartSpec,
  type ProjectMetric,
  projectBars,
  projectStatsChartSpec,
  type RecordKind,
  recordKind,
  summarizeBars,
  summarizeLogs,
  type VegaLiteSpec,
} from 'scratchlab/presentation';
import { chartBundle, sendDisplay, tableBundle, textBundle } from './display.js';
import type { PendingDisplays } from './pending-displays.js';
import { currentWriter, type MimeBundle } from './tslab.js';

/** What the helpers need from the kernel. */
export interface HelperContext {
  pending: PendingDisplays;
  /** The site's base URL, for links in tables. */
  siteUrl(): string | undefined;
}

/** Options of `show` (as in the REPL). */
export interface ShowOptions {
  /** Rows shown at most (default 40; `Infinity` for all). */
  rows?: number;
  /** The kind of the records, when their shape alone does not tell (e.g. an empty array). */
  kind?: RecordKind;
}

/** Options of `plot`: those of the logs chart, and which numbers of projects to draw. */
export interface PlotOptions extends LogsChartOptions {
  /** For projects: the numbers drawn, one panel each (default views and loves). */
  metrics?: readonly ProjectMetric[];
}

/** What `plot` draws: cloud log entries, projects, or a Vega-Lite spec of your own. */
export type PlotInput =
  | readonly CloudLogEntry[]
  | readonly Project[]
  | PromiseLike<readonly CloudLogEntry[]>
  | PromiseLike<readonly Project[]>
  | VegaLiteSpec;

/** `show(value, options?)`. */
export type Show = (value: unknown, options?: ShowOptions) => Promise<void>;
/** `plot(data, options?)`. */
export type Plot = (data: PlotInput, options?: PlotOptions) => Promise<void>;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

const SPEC_KEYS = ['mark', 'layer', 'vconcat', 'hconcat', 'concat', 'facet', 'repeat'];

/** A hand-made Vega-Lite spec: a plain object with a Vega-Lite `$schema` or a view's keys. */
function isVegaLiteSpec(value: unknown): value is VegaLiteSpec {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const spec = value as Record<string, unknown>;
  if (typeof spec.$schema === 'string') return spec.$schema.includes('vega-lite');
  return SPEC_KEYS.some((key) => key in spec);
}

/** What `show` displays: a table of records or of objects, else the value as text. */
export function valueBundle(
  value: unknown,
  siteUrl: string | undefined,
  options: ShowOptions = {},
): MimeBundle {
  const table = tableBundle(value, { siteUrl, rows: options.rows, kind: options.kind, anyValue: true });
  return table ?? textBundle(value);
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

/** The chart bundle of `data`, or a TypeError naming what `plot` accepts. */
export async function plotBundle(data: unknown, options: PlotOptions = {}): Promise<MimeBundle> {
  if (isVegaLiteSpec(data)) {
    const title = typeof data.title === 'string' ? data.title : 'Vega-Lite chart';
    return chartBundle(data, title);
  }
  if (Array.isArray(data)) {
    const kind = data.length === 0 ? 'logEntry' : recordKind(data);
    if (kind === 'logEntry') {
      const entries = data as CloudLogEntry[];
      return chartBundle(logsChartSpec(entries, options), summarizeLogs(entries));
    }
    if (kind === 'project') {
      const projects = data as Project[];
      const spec = projectStatsChartSpec(projects, { metrics: options.metrics, title: options.title });
      return chartBundle(spec, summarizeBars(projectBars(projects, { metrics: options.metrics })));
    }
  }
  throw new TypeError('plot() draws cloud log entries (cloud.logs()), projects, or a Vega-Lite spec');
}

/** Creates `plot`: one bundle of Vega-Lite spec, SVG and text summary. */
export function createPlot(context: HelperContext): Plot {
  return (data, options = {}) => {
    const writer = currentWriter() ?? undefined;
    const work = (async () => {
      const resolved: unknown = isThenable(data) ? await data : data;
      sendDisplay(await plotBundle(resolved, options), { writer });
    })();
    return context.pending.track(work);
  };
}
