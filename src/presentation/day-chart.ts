/**
 * Bars per day, stacked by a series (an activity's type, a post's author): the chart that
 * `plot()` draws for messages, activity rows and forum posts.
 */
import { type Bar, renderBarChart } from './bar-chart.js';
import { Chart } from './chart.js';
import { formatCount } from './format.js';
import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from './vega-lite-spec.js';

/** Rows of one day and series. */
export interface DayCount {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  series: string;
  count: number;
}

/** How a day chart is labelled. */
export interface DayChartOptions {
  title: string;
  /** What the series are, as the legend's title and the data's field (`type`, `author`). */
  series: string;
  /** What is counted (`items`, `posts`). */
  unit: string;
}

/** Counts per UTC day and series, oldest day first; rows whose time is not a number are left out. */
export function countPerDay<T>(
  rows: readonly T[],
  timeOf: (row: T) => number,
  seriesOf: (row: T) => string,
): DayCount[] {
  const counts = new Map<string, DayCount>();
  for (const row of rows) {
    const ms = timeOf(row);
    if (Number.isNaN(ms)) continue;
    const day = new Date(ms).toISOString().slice(0, 10);
    const series = seriesOf(row);
    const key = `${day}\u0000${series}`;
    const entry = counts.get(key) ?? { day, series, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => a.day.localeCompare(b.day) || a.series.localeCompare(b.series));
}

/** A Vega-Lite spec: bars per day, stacked and coloured by series. */
export function dayChartSpec(counts: readonly DayCount[], options: DayChartOptions): VegaLiteSpec {
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: options.title,
    width: 600,
    height: 220,
    data: { values: counts.map((c) => ({ day: c.day, [options.series]: c.series, count: c.count })) },
    mark: { type: 'bar', tooltip: true },
    encoding: {
      x: { field: 'day', type: 'temporal', timeUnit: 'utcyearmonthdate', title: 'day (UTC)' },
      y: { field: 'count', type: 'quantitative', aggregate: 'sum', title: options.unit },
      color: { field: options.series, type: 'nominal', title: options.series },
    },
  };
}

/** The day chart: the spec, a terminal drawing of the last days, and a summary. */
export function dayChart(counts: readonly DayCount[], options: DayChartOptions): Chart {
  const days = [...new Set(counts.map((c) => c.day))];
  const bySeries = new Map<string, number>();
  for (const c of counts) bySeries.set(c.series, (bySeries.get(c.series) ?? 0) + c.count);
  const total = [...bySeries.values()].reduce((a, b) => a + b, 0);
  const summary = [
    `${options.title}: ${formatCount(total)} ${options.unit} over ${formatCount(days.length)} days`,
    ...[...bySeries].sort((a, b) => b[1] - a[1]).map(([series, n]) => `${series}: ${formatCount(n)}`),
  ].join('\n');
  return new Chart(dayChartSpec(counts, options), {
    summary,
    terminal: ({ width, height, color }) => {
      // The latest days that fit, one bar each (every series together).
      const shown = new Set(days.slice(-Math.max(5, height - 6)));
      const bars: Bar[] = counts
        .filter((c) => shown.has(c.day))
        .map((c) => ({ label: c.day, series: options.unit, value: c.count }));
      const drawing = renderBarChart(bars, {
        width: width - 1,
        color,
        order: 'given',
        maxRows: shown.size,
        title: options.title,
      });
      return `${drawing}\n${summary.split('\n').slice(1).join(', ')}`;
    },
  });
}
