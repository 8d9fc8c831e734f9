/**
 * Vega-Lite specs for cloud activity. Data is aggregated in JS first (see `aggregate.ts`), so a
 * spec stays small however long the log is, and renders quickly both in a notebook and in Node.
 */
import type { CloudLogEntry } from '../records/records.js';
import { aggregateLogs, DEFAULT_MAX_POINTS, type LivePoint, liveBounds, liveWindow } from './aggregate.js';
import { type JsonObject, type JsonValue, VEGA_LITE_SCHEMA, type VegaLiteSpec } from './vega-lite-spec.js';

/** Options of {@link logsChartSpec}. */
export interface LogsChartOptions {
  /** Chart title (default `Cloud activity`). */
  title?: string;
  /** Width of each view in pixels (default 600). */
  width?: number;
  /** Height of each variable's plot in pixels (default 100). */
  height?: number;
  /** Most points per variable (default 500). */
  maxPoints?: number;
  /** Most variables drawn, the most active ones (default 10). */
  maxVariables?: number;
  /** Most users in the activity view, the most active ones (default 15). */
  topUsers?: number;
}

/** Options of {@link liveChartSpec}. */
export interface LiveChartOptions {
  /** Seconds of history shown (default 60). */
  window?: number;
  /** End of the window in ms since the epoch (default: the latest point's time). */
  now?: number;
  /** Chart title (default `Live cloud values`). */
  title?: string;
  /** Width in pixels (default 600). */
  width?: number;
  /** Height of each variable's plot in pixels (default 100). */
  height?: number;
  /** Most points per variable (default 500). */
  maxPoints?: number;
}

/**
 * Vega multi-format specifier (the unit a tick falls on picks its format): Vega's default uses a
 * 12-hour clock, tables show 24-hour UTC times.
 */
const TIME_FORMATS: JsonObject = {
  year: '%Y',
  quarter: '%b %Y',
  month: '%b %Y',
  week: '%b %d',
  date: '%b %d',
  hours: '%H:%M',
  minutes: '%H:%M',
  seconds: '%H:%M:%S',
  milliseconds: '%H:%M:%S.%L',
};

/**
 * The time axis format for a span of `ms`. Over more than a day a bare "12:00" repeats on every
 * tick (Vega picks the multi-format unit in local time while the scale is UTC), so those ticks
 * carry the date too.
 */
export function timeFormatFor(spanMs: number): JsonValue {
  if (spanMs <= 36 * 3_600_000) return TIME_FORMATS;
  return { ...TIME_FORMATS, hours: '%b %d %H:%M', minutes: '%b %d %H:%M', seconds: '%b %d %H:%M:%S' };
}

interface ValuesViewOptions {
  width: number;
  height: number;
  /** Fixed time domain (ms), for live windows. */
  domain?: [number, number];
  /** Time axis label format. */
  timeFormat: JsonValue;
}

/** Up to this many data rows, each real value also gets a dot (with a tooltip). */
const MAX_MARKED_POINTS = 300;

/**
 * Number format of value axes: grouped, no trailing zeros (`59,660`, `0.5`, never
 * `59,660.000000`), decimals as the tick step needs (Vega picks them).
 */
export const AXIS_NUMBER_FORMAT = ',~f';

/**
 * Rows that give a constant series a range around its value, so its axis shows a few round ticks
 * instead of one tick with six decimals: `value ± 10%` (or ± 1 around 0), drawn invisibly.
 */
function paddingRows(values: readonly JsonObject[], names: readonly string[]): JsonObject[] {
  const pads: JsonObject[] = [];
  for (const name of names) {
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    let time = 0;
    for (const row of values) {
      if (row.name !== name) continue;
      const v = row.value as number;
      if (v < min) {
        min = v;
        time = row.time as number;
      }
      if (v > max) max = v;
    }
    if (min !== max || !Number.isFinite(min)) continue;
    const d = Math.abs(min) / 10 || 1;
    pads.push({ time, name, value: min - d, event: false, pad: true });
    pads.push({ time, name, value: min + d, event: false, pad: true });
  }
  return pads;
}

/** Which variables have rows for each layer of {@link valuesView}: the line, the padding, the marked events. */
function rowsPerLayer(values: readonly JsonObject[]): Record<'line' | 'pad' | 'event', Set<unknown>> {
  const rows = { line: new Set<unknown>(), pad: new Set<unknown>(), event: new Set<unknown>() };
  for (const value of values) {
    if (value.pad) rows.pad.add(value.name);
    else rows.line.add(value.name);
    if (value.event) rows.event.add(value.name);
  }
  return rows;
}

/**
 * One view per variable, stacked, each with its own value scale and its name as the axis title:
 * cloud variables of one project range from flags (0/1) to scores in the millions, which a shared
 * axis would flatten. Cloud variables hold a value until the next set, so the lines are steps.
 * Rows are `{time, name, value, event}`, where `event` is false for points added only to draw the
 * line (window edges), and `pad` marks the invisible rows of {@link paddingRows}.
 */
function valuesView(values: JsonObject[], names: string[], options: ValuesViewOptions): JsonObject {
  const data = { values: [...values, ...paddingRows(values, names)] };
  if (names.length === 0) {
    return {
      data,
      width: options.width,
      height: 30,
      mark: { type: 'text', align: 'left', x: 0, y: 15 },
      encoding: { text: { value: 'no numeric values' } },
    };
  }
  const marked = values.length <= MAX_MARKED_POINTS;
  const rows = rowsPerLayer(data.values);
  const views = names.map((name, i): JsonObject => {
    // Only layers that have rows: a layer with none makes Vega warn "Infinite extent for field"
    // (JupyterLab's Vega 5 logs it in the browser's console on every render).
    const layer: JsonObject[] = [];
    if (rows.line.has(name))
      layer.push({
        transform: [{ filter: '!datum.pad' }],
        mark: { type: 'line', interpolate: 'step-after' },
      });
    // Invisible, but part of the scale's domain.
    if (rows.pad.has(name))
      layer.push({ transform: [{ filter: 'datum.pad' }], mark: { type: 'point', opacity: 0 } });
    if (marked && rows.event.has(name)) {
      layer.push({
        transform: [{ filter: 'datum.event' }],
        mark: { type: 'point', filled: true, size: 20 },
        encoding: {
          tooltip: [
            {
              field: 'time',
              type: 'temporal',
              title: 'Time (UTC)',
              timeUnit: 'utcyearmonthdatehoursminutesseconds',
              format: '%Y-%m-%d %H:%M:%S',
            },
            { field: 'value', type: 'quantitative', title: name, format: AXIS_NUMBER_FORMAT },
          ],
        },
      });
    }
    const last = i === names.length - 1;
    return {
      width: options.width,
      height: options.height,
      transform: [{ filter: { field: 'name', equal: name } }],
      encoding: {
        x: {
          field: 'time',
          type: 'temporal',
          // One time title, under the last view.
          title: last ? 'Time (UTC)' : null,
          scale: options.domain ? { type: 'utc', domain: options.domain } : { type: 'utc' },
          // With a `utc` scale, Vega applies the format in UTC.
          axis: { format: options.timeFormat },
        },
        y: {
          field: 'value',
          type: 'quantitative',
          title: name,
          scale: { zero: false, nice: true },
          axis: { format: AXIS_NUMBER_FORMAT, tickCount: Math.max(2, Math.floor(options.height / 25)) },
        },
        color: { field: 'name', type: 'nominal', legend: null, scale: { domain: names } },
      },
      layer,
    };
  });
  // One time axis for all (a change reads across the views); each its own value scale.
  return { data, vconcat: views, spacing: 12, resolve: { scale: { x: 'shared', y: 'independent' } } };
}

/**
 * A Vega-Lite spec of a cloud log in two views: each variable's numeric value over time (step
 * lines; non-numeric values skipped) and the number of entries per user (bars, most active first).
 */
export function logsChartSpec(
  entries: readonly CloudLogEntry[],
  options: LogsChartOptions = {},
): VegaLiteSpec {
  const width = options.width ?? 600;
  const agg = aggregateLogs(entries, { maxPoints: options.maxPoints ?? DEFAULT_MAX_POINTS });
  const shown = agg.variables.filter((x) => x.points.length > 0).slice(0, options.maxVariables ?? 10);
  const values: JsonObject[] = [];
  for (const v of shown) {
    for (const p of v.points) values.push({ time: p.time, name: v.name, value: p.value, event: true });
  }
  const users: JsonObject[] = agg.users
    .slice(0, options.topUsers ?? 15)
    .map((u) => ({ user: u.user, count: u.count }));
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: options.title ?? 'Cloud activity',
    vconcat: [
      {
        title: 'Values over time',
        ...valuesView(
          values,
          shown.map((v) => v.name),
          { width, height: options.height ?? 100, timeFormat: timeFormatFor(timeSpan(values)) },
        ),
      },
      users.length === 0
        ? // No bars: a bar layer with no rows makes Vega warn of an infinite extent.
          {
            title: 'Activity per user',
            width,
            height: 30,
            mark: { type: 'text', align: 'left', x: 0, y: 15 },
            encoding: { text: { value: 'no entries' } },
          }
        : {
            title: 'Activity per user',
            width,
            data: { values: users },
            mark: 'bar',
            encoding: {
              y: { field: 'user', type: 'nominal', title: 'User', sort: '-x' },
              x: {
                field: 'count',
                type: 'quantitative',
                title: 'Entries',
                axis: { format: AXIS_NUMBER_FORMAT },
              },
              tooltip: [
                { field: 'user', type: 'nominal', title: 'User' },
                { field: 'count', type: 'quantitative', title: 'Entries' },
              ],
            },
          },
    ],
    config: { font: 'sans-serif' },
  };
}

/**
 * A Vega-Lite spec of live values: each variable's value over the last `window` seconds, on a
 * time axis fixed to the window so successive renders scroll steadily.
 */
export function liveChartSpec(points: readonly LivePoint[], options: LiveChartOptions = {}): VegaLiteSpec {
  const { start, end } = liveBounds(points, options.window ?? 60, options.now);
  const series = liveWindow(points, start, end, options.maxPoints ?? DEFAULT_MAX_POINTS);
  const values: JsonObject[] = [];
  for (const s of series) {
    for (const p of s.points)
      values.push({ time: p.time, name: s.name, value: p.value, event: p.time > start });
    // Extend each step line to the window's end: the value still holds now.
    const last = s.points[s.points.length - 1];
    if (last && last.time < end) values.push({ time: end, name: s.name, value: last.value, event: false });
  }
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: options.title ?? 'Live cloud values',
    ...valuesView(
      values,
      series.map((s) => s.name),
      {
        width: options.width ?? 600,
        height: options.height ?? 100,
        domain: [start, end],
        timeFormat: '%H:%M:%S',
      },
    ),
    config: { font: 'sans-serif' },
  };
}

/** Milliseconds between the first and last point. */
function timeSpan(values: JsonObject[]): number {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const value of values) {
    const time = value.time as number;
    if (time < first) first = time;
    if (time > last) last = time;
  }
  return values.length === 0 ? 0 : last - first;
}
