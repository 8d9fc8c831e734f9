/**
 * `plot()` of messages or activity rows: how many things happened per day, stacked by type, so a
 * studio's busy weeks or a bot's inbox over time show at a glance.
 */
import type { Chart } from './chart.js';
import { countPerDay, type DayChartOptions, type DayCount, dayChart, dayChartSpec } from './day-chart.js';
import type { ActivityRow } from './detect.js';
import type { VegaLiteSpec } from './vega-lite-spec.js';

/** Rows of one day and type. */
export interface ActivityCount {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  type: string;
  count: number;
}

const perDay = (rows: readonly ActivityRow[]): DayCount[] =>
  countPerDay(
    rows,
    (row) => Date.parse(row.datetime_created),
    (row) => row.type,
  );

const labels = (title?: string): DayChartOptions => ({
  title: title ?? 'Activity per day',
  series: 'type',
  unit: 'items',
});

/** Counts per day and type, oldest day first (rows without a valid date are left out). */
export function countActivity(rows: readonly ActivityRow[]): ActivityCount[] {
  return perDay(rows).map((c) => ({ day: c.day, type: c.series, count: c.count }));
}

/** A Vega-Lite spec: bars per day, stacked and coloured by type. */
export function activityChartSpec(
  rows: readonly ActivityRow[],
  options: { title?: string } = {},
): VegaLiteSpec {
  return dayChartSpec(perDay(rows), labels(options.title));
}

/** The chart of activity rows: the spec, a terminal drawing of the last days, and a summary. */
export function activityChart(rows: readonly ActivityRow[], options: { title?: string } = {}): Chart {
  return dayChart(perDay(rows), labels(options.title));
}
