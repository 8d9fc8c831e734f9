/**
 * `plot()` of messages or activity rows: how many things happened per day, stacked by type, so a
 * studio's busy weeks or a bot's inbox over time show at a glance.
 */
import { type Bar, renderBarChart } from './bar-chart.js';
import { Chart } from './chart.js';
import type { ActivityRow } from './detect.js';
import { formatCount } from './format.js';
import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from './vega-lite-spec.js';

/** Rows of one day and type. */
export interface ActivityCount {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  type: string;
  count: number;
}

/** Counts per day and type, oldest day first (rows without a valid date are left out). */
export function countActivity(rows: readonly ActivityRow[]): ActivityCount[] {
  const counts = new Map<string, ActivityCount>();
  for (const row of rows) {
    const ms = Date.parse(row.datetime_created);
    if (Number.isNaN(ms)) continue;
    const day = new Date(ms).toISOString().slice(0, 10);
    const key = `${day}\u0000${row.type}`;
    const entry = counts.get(key) ?? { day, type: row.type, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => a.day.localeCompare(b.day) || a.type.localeCompare(b.type));
}

/** A Vega-Lite spec: bars per day, stacked and coloured by type. */
export function activityChartSpec(
  rows: readonly ActivityRow[],
  options: { title?: string } = {},
): VegaLiteSpec {
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: options.title ?? 'Activity per day',
    width: 600,
    height: 220,
    data: { values: countActivity(rows).map((c) => ({ ...c })) },
    mark: { type: 'bar', tooltip: true },
    encoding: {
      x: { field: 'day', type: 'temporal', timeUnit: 'utcyearmonthdate', title: 'day (UTC)' },
      y: { field: 'count', type: 'quantitative', aggregate: 'sum', title: 'items' },
      color: { field: 'type', type: 'nominal', title: 'type' },
    },
  };
}

/** The chart of activity rows: the spec, a terminal drawing of the last days, and a summary. */
export function activityChart(rows: readonly ActivityRow[], options: { title?: string } = {}): Chart {
  const counts = countActivity(rows);
  const days = new Set(counts.map((c) => c.day));
  const byType = new Map<string, number>();
  for (const c of counts) byType.set(c.type, (byType.get(c.type) ?? 0) + c.count);
  const total = [...byType.values()].reduce((a, b) => a + b, 0);
  const summary = [
    `${options.title ?? 'Activity per day'}: ${formatCount(total)} items over ${formatCount(days.size)} days`,
    ...[...byType].sort((a, b) => b[1] - a[1]).map(([type, n]) => `${type}: ${formatCount(n)}`),
  ].join('\n');
  return new Chart(activityChartSpec(rows, options), {
    summary,
    terminal: ({ width, height, color }) => {
      // The latest days that fit, one bar each (all types together).
      const shown = [...days].slice(-Math.max(5, height - 6));
      const bars: Bar[] = counts
        .filter((c) => shown.includes(c.day))
        .map((c) => ({ label: c.day, series: 'items', value: c.count }));
      const drawing = renderBarChart(bars, {
        width: width - 1,
        color,
        order: 'given',
        maxRows: shown.length,
        title: options.title ?? 'Activity per day',
      });
      return `${drawing}\n${summary.split('\n').slice(1).join(', ')}`;
    },
  });
}
