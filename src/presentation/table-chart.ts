/**
 * Charts of plain rows, such as a query's answer: a time column and numbers make a line per
 * number over time; a text column and numbers make bars. Nothing else is guessed: other rows are
 * not drawn (a Vega-Lite spec of one's own draws anything).
 */
import { bucketMinMax } from './aggregate.js';
import { type Bar, barChartSpec, renderBarChart, summarizeBars } from './bar-chart.js';
import { Chart } from './chart.js';
import { renderSeriesChart, type TimeSeries } from './chart-terminal.js';
import { AXIS_NUMBER_FORMAT, timeFormatFor } from './charts.js';
import { formatCount } from './format.js';
import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from './vega-lite-spec.js';

type Row = Record<string, unknown>;

/**
 * Buckets of a series drawn in a chart (each gives its lowest and highest point): more than a
 * chart's width in pixels, few enough that a notebook holds the spec and Vega draws it quickly.
 */
const MAX_DRAWN_BUCKETS = 1000;

/** The columns of plain rows that chart: a time or label column, and the numeric ones. */
interface TableShape {
  time: string | null;
  label: string | null;
  numbers: string[];
}

function isPlainRow(row: unknown): row is Row {
  return (
    typeof row === 'object' &&
    row !== null &&
    !Array.isArray(row) &&
    Object.getPrototypeOf(row) === Object.prototype
  );
}

/** Which columns of `rows` make a chart; null when they make none. */
function tableShape(rows: readonly unknown[]): TableShape | null {
  if (rows.length === 0 || !rows.every(isPlainRow)) return null;
  const columns = Object.keys(rows[0] as Row);
  const every = (column: string, test: (value: unknown) => boolean) =>
    (rows as Row[]).every((row) => row[column] === null || row[column] === undefined || test(row[column]));
  const some = (column: string) =>
    (rows as Row[]).some((row) => row[column] !== null && row[column] !== undefined);
  const time =
    columns.find((c) => some(c) && every(c, (v) => v instanceof Date && !Number.isNaN(v.getTime()))) ?? null;
  const numbers = columns.filter(
    (c) => c !== time && some(c) && every(c, (v) => typeof v === 'number' && Number.isFinite(v)),
  );
  if (numbers.length === 0) return null;
  const label =
    time === null ? (columns.find((c) => some(c) && every(c, (v) => typeof v === 'string')) ?? null) : null;
  if (time === null && label === null) return null;
  return { time, label, numbers };
}

/** Whether `rows` make a chart of their own (see the file's comment). */
export function isChartableTable(rows: readonly unknown[]): boolean {
  return tableShape(rows) !== null;
}

/** The chart of plain rows; throws TypeError when they make none. */
export function tableChart(rows: readonly Row[], options: { title?: string } = {}): Chart {
  const shape = tableShape(rows);
  if (shape === null) {
    throw new TypeError('plot() draws rows with a time column and numbers, or a text column and numbers');
  }
  if (shape.time !== null) return timeChart(rows, shape.time, shape.numbers, options.title);
  const bars: Bar[] = [];
  for (const row of rows) {
    for (const series of shape.numbers) {
      const value = row[series];
      if (typeof value === 'number') bars.push({ label: String(row[shape.label!]), series, value });
    }
  }
  const barOptions = { title: options.title, order: 'given' as const };
  return new Chart(barChartSpec(bars, barOptions), {
    summary: summarizeBars(bars, barOptions),
    terminal: ({ width, color }) => renderBarChart(bars, { width: width - 1, color, title: options.title }),
  });
}

function timeChart(rows: readonly Row[], time: string, numbers: readonly string[], title?: string): Chart {
  const series: TimeSeries[] = numbers.map((name) => ({
    name,
    points: rows
      .filter((row) => row[time] instanceof Date && typeof row[name] === 'number')
      .map((row) => ({ time: (row[time] as Date).getTime(), value: row[name] as number }))
      .sort((a, b) => a.time - b.time),
  }));
  // Each series is sorted: its ends are its first and last points (a spread would overflow the stack).
  const ends = series.filter((s) => s.points.length > 0);
  const span =
    ends.length > 0
      ? Math.max(...ends.map((s) => s.points.at(-1)!.time)) - Math.min(...ends.map((s) => s.points[0]!.time))
      : 0;
  // The chart draws each series thinned to its peaks and dips per bucket; the rows are untouched.
  const drawn = series.map((s) => ({ name: s.name, points: bucketMinMax(s.points, MAX_DRAWN_BUCKETS) }));
  const values = drawn.flatMap((s) =>
    s.points.map((p) => ({ time: p.time, series: s.name, value: p.value })),
  );
  const spec: VegaLiteSpec = {
    $schema: VEGA_LITE_SCHEMA,
    ...(title ? { title } : {}),
    width: 600,
    height: 220,
    data: { values },
    mark: { type: 'line', point: values.length <= 200, interpolate: 'linear' },
    encoding: {
      x: {
        field: 'time',
        type: 'temporal',
        title: time,
        scale: { type: 'utc' },
        axis: { format: timeFormatFor(span) },
      },
      y: { field: 'value', type: 'quantitative', title: null, axis: { format: AXIS_NUMBER_FORMAT } },
      color: { field: 'series', type: 'nominal', title: null },
      tooltip: [
        { field: 'time', type: 'temporal', timeUnit: 'utcyearmonthdatehoursminutesseconds' },
        { field: 'series', type: 'nominal' },
        { field: 'value', type: 'quantitative' },
      ],
    },
  };
  const thinned = values.length < series.reduce((sum, s) => sum + s.points.length, 0);
  const summary = `${title ? `${title}: ` : ''}${numbers.join(', ')} over ${time} (${formatCount(rows.length)} rows${thinned ? `, drawn from ${formatCount(values.length)} points: each bucket's lowest and highest` : ''})`;
  return new Chart(spec, {
    summary,
    terminal: ({ width, height, color }) =>
      renderSeriesChart(series, {
        width: width - 1,
        height: Math.max(12, Math.min(30, height - 4)),
        color,
        title,
      }),
  });
}
