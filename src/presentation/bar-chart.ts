/**
 * Bar charts of numbers per record, e.g. the views and loves of a user's projects: one panel per
 * series, side by side, each with its own scale (views run in thousands where loves run in tens,
 * a shared axis would flatten the loves), sharing the rows so a record reads across.
 */

import { Chalk } from 'chalk';
import type { Project, UserProjectRow } from '../records/records.js';
import { Chart } from './chart.js';
import { bar } from './chart-terminal.js';
import { formatCompact, formatCount, oneLine } from './format.js';
import { padToWidth, textWidth, truncateToWidth } from './text-width.js';
import { type JsonObject, VEGA_LITE_SCHEMA, type VegaLiteSpec } from './vega-lite-spec.js';

/** One bar: which row (`label`), which panel (`series`), how long (`value`). */
export interface Bar {
  label: string;
  series: string;
  value: number;
}

/** Options of {@link barChartSpec}. */
export interface BarChartOptions {
  /** Chart title (default none). */
  title?: string;
  /** Width of each panel in pixels (default 220). */
  width?: number;
  /** Most rows drawn, the first ones in `order` (default 20). */
  maxRows?: number;
  /**
   * Row order: `largest` first by the first series (default), or `given`, the order in which
   * labels first appear in the bars (e.g. hours of the day).
   */
  order?: 'largest' | 'given';
  /** Longest row label in characters; longer ones are cut with `…` (default 32). */
  maxLabelWidth?: number;
}

/** The numbers of a project that {@link projectStatsChartSpec} can draw. */
export type ProjectMetric = 'views' | 'loves' | 'favorites' | 'remixes';

/** Options of {@link projectStatsChartSpec}. */
export interface ProjectStatsChartOptions extends BarChartOptions {
  /** Which numbers, one panel each (default views and loves). */
  metrics?: readonly ProjectMetric[];
}

interface Tabulated {
  /** Series names in order of first appearance. */
  series: string[];
  /** label → series → value (bars with the same label and series add up). */
  rows: Map<string, Map<string, number>>;
  /** Labels shown, in order, at most `maxRows`. */
  order: string[];
}

function tabulate(bars: readonly Bar[], maxRows: number, order: 'largest' | 'given' = 'largest'): Tabulated {
  const series: string[] = [];
  const rows = new Map<string, Map<string, number>>();
  for (const bar of bars) {
    if (!series.includes(bar.series)) series.push(bar.series);
    let row = rows.get(bar.label);
    if (!row) {
      row = new Map();
      rows.set(bar.label, row);
    }
    row.set(bar.series, (row.get(bar.series) ?? 0) + bar.value);
  }
  const first = series[0] ?? '';
  const labels = [...rows.keys()];
  if (order === 'largest')
    labels.sort((a, b) => (rows.get(b)!.get(first) ?? 0) - (rows.get(a)!.get(first) ?? 0));
  return { series, rows, order: labels.slice(0, Math.max(0, Math.floor(maxRows))) };
}

/**
 * A Vega-Lite spec of horizontal bars, one panel per series (in the order they first appear), one
 * row per label (by default sorted by the first series, largest first). Bars with the same label
 * and series add up, so counting is just one bar per item (e.g. per follower, labelled by country).
 */
export function barChartSpec(bars: readonly Bar[], options: BarChartOptions = {}): VegaLiteSpec {
  const { series, rows, order } = tabulate(bars, options.maxRows ?? 20, options.order);
  const values: JsonObject[] = [];
  for (const label of order) {
    for (const name of series) values.push({ label, series: name, value: rows.get(label)!.get(name) ?? 0 });
  }
  const maxLabel = options.maxLabelWidth ?? 32;
  const spec: VegaLiteSpec = {
    $schema: VEGA_LITE_SCHEMA,
    data: { values },
    facet: {
      column: {
        field: 'series',
        type: 'nominal',
        title: null,
        sort: series,
        header: { labelFontWeight: 'bold' },
      },
    },
    spec: {
      width: options.width ?? 220,
      mark: { type: 'bar', tooltip: true },
      encoding: {
        y: {
          field: 'label',
          type: 'nominal',
          title: null,
          sort: order,
          axis: { labelLimit: (maxLabel + 4) * 7 },
        },
        x: { field: 'value', type: 'quantitative', title: null, axis: { format: ',~f' } },
        color: { field: 'series', type: 'nominal', legend: null, scale: { domain: series } },
      },
    },
    resolve: { scale: { x: 'independent' } },
    config: { font: 'sans-serif' },
  };
  if (options.title) spec.title = options.title;
  return spec;
}

/**
 * Projects as {@link Bar}s: one row per project labelled by its title (cut to `maxLabelWidth`,
 * repeated titles numbered), one series per metric (default views and loves).
 */
export function projectBars(
  projects: readonly (Project | UserProjectRow)[],
  options: Pick<ProjectStatsChartOptions, 'metrics' | 'maxLabelWidth'> = {},
): Bar[] {
  const metrics = options.metrics ?? ['views', 'loves'];
  const maxLabel = options.maxLabelWidth ?? 32;
  const seen = new Map<string, number>();
  const bars: Bar[] = [];
  for (const p of projects) {
    const title = truncateToWidth(
      String(p.title ?? '')
        .replace(/\s+/g, ' ')
        .trim() || `#${p.id}`,
      maxLabel,
    );
    const n = (seen.get(title) ?? 0) + 1;
    seen.set(title, n);
    const label = n === 1 ? title : `${title} (${n})`;
    for (const m of metrics) bars.push({ label, series: m, value: p.stats?.[m] ?? 0 });
  }
  return bars;
}

/** A bar chart of projects' numbers (see {@link projectBars}), e.g. views and loves side by side. */
export function projectStatsChartSpec(
  projects: readonly (Project | UserProjectRow)[],
  options: ProjectStatsChartOptions = {},
): VegaLiteSpec {
  return barChartSpec(projectBars(projects, options), options);
}

/** The plain-text fallback of a bar chart: one line per row, in the chart's order. */
export function summarizeBars(
  bars: readonly Bar[],
  options: Pick<BarChartOptions, 'maxRows' | 'order'> = {},
): string {
  const { series, rows, order } = tabulate(bars, options.maxRows ?? 20, options.order);
  if (order.length === 0) return 'Bar chart: no data';
  const lines = order.map(
    (label) =>
      `${label}: ${series.map((s) => `${s} ${formatCount(rows.get(label)!.get(s) ?? 0)}`).join(', ')}`,
  );
  if (rows.size > order.length) lines.push(`+${formatCount(rows.size - order.length)} more`);
  return lines.join('\n');
}

/** Options of {@link renderBarChart}. */
export interface TerminalBarChartOptions {
  /** Columns available (default 80); no line is wider. */
  width?: number;
  /** Most rows drawn (default 20). */
  maxRows?: number;
  /** Row order, as in {@link barChartSpec}. */
  order?: 'largest' | 'given';
  /** Whether to use ANSI colours (default false). */
  color?: boolean;
  /** A title line (default none). */
  title?: string;
}

/**
 * Bars for a terminal: one row per label, one panel per series side by side, each panel scaled to
 * its own largest value (as in the Vega-Lite chart), the number after each bar.
 */
export function renderBarChart(bars: readonly Bar[], options: TerminalBarChartOptions = {}): string {
  const width = Math.max(30, Math.floor(options.width ?? 80));
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const { series, rows, order } = tabulate(bars, options.maxRows ?? 20, options.order);
  if (order.length === 0) return 'Bar chart: no data';
  const labelWidth = Math.min(24, Math.max(...order.map((l) => textWidth(oneLine(l)))));
  const valueText = (v: number) => formatCompact(v);
  const numberWidth = series.map((s) =>
    Math.max(textWidth(s), ...order.map((l) => valueText(rows.get(l)!.get(s) ?? 0).length)),
  );
  const room = width - labelWidth - series.length * 3 - numberWidth.reduce((a, b) => a + b, 0);
  const barWidth = Math.max(1, Math.floor(room / series.length));
  const max = series.map((s) => Math.max(0, ...order.map((l) => rows.get(l)!.get(s) ?? 0)));
  const out: string[] = [];
  if (options.title) out.push(chalk.bold(truncateToWidth(oneLine(options.title), width)));
  out.push(
    chalk.bold(
      truncateToWidth(
        ' '.repeat(labelWidth) +
          series.map((s, i) => `  ${padToWidth(s, barWidth + 1 + numberWidth[i]!)}`).join(' '),
        width,
      ),
    ),
  );
  for (const label of order) {
    const cells = series.map((s, i) => {
      const v = rows.get(label)!.get(s) ?? 0;
      const drawn = padToWidth(bar(v, max[i]!, barWidth), barWidth);
      return `  ${chalk.cyan(drawn)} ${valueText(v).padStart(numberWidth[i]!)}`;
    });
    out.push(`${padToWidth(oneLine(label), labelWidth)}${cells.join(' ')}`);
  }
  if (rows.size > order.length) out.push(chalk.dim(`+${formatCount(rows.size - order.length)} more`));
  return out.join('\n');
}

/** A bar chart of {@link Bar}s (see `barChartSpec`) with its terminal drawing and summary. */
export function barChart(bars: readonly Bar[], options: BarChartOptions = {}): Chart {
  return new Chart(barChartSpec(bars, options), {
    summary: summarizeBars(bars, options),
    terminal: ({ width, color }) =>
      renderBarChart(bars, { ...options, width: width - 1, color, title: options.title }),
  });
}
