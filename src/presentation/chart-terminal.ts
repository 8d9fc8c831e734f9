/**
 * Cloud activity as terminal text: an `asciichart` step plot per variable and a bar per user.
 * `height` is the budget for the whole drawing, shared out between the plots and the bars.
 */
import { plot } from 'asciichart';
import { Chalk, type ChalkInstance } from 'chalk';
import type { CloudLogEntry } from '../records/records.js';
import {
  aggregateLogs,
  DEFAULT_MAX_POINTS,
  type LivePoint,
  liveBounds,
  liveWindow,
  resampleSteps,
  type TimePoint,
} from './aggregate.js';
import {
  compactAxisFormat,
  formatCompact,
  formatCount,
  formatDuration,
  formatTimestamp,
  oneLine,
} from './format.js';
import { padToWidth, textWidth, truncateToWidth } from './text-width.js';

/** Options of {@link renderLogsChart}. */
export interface TerminalLogsChartOptions {
  /** Columns available (default 80); no line is wider. */
  width?: number;
  /** Lines available for the whole drawing (default 24); very small budgets may overrun by a few. */
  height?: number;
  /** Whether to use ANSI colours (default false). */
  color?: boolean;
  /** Most variables plotted, the most active numeric ones (default 3). */
  maxVariables?: number;
  /** Most users listed, the most active ones (default 5). */
  topUsers?: number;
}

/** Options of {@link renderLiveChart}. */
export interface TerminalLiveChartOptions {
  /** Columns available (default 80); no line is wider. */
  width?: number;
  /** Lines available for the whole drawing (default 16). */
  height?: number;
  /** Seconds of history shown (default 60). */
  window?: number;
  /** End of the window in ms since the epoch (default: the latest point's time). */
  now?: number;
  /** Whether to use ANSI colours (default false). */
  color?: boolean;
  /**
   * Most variables plotted, those that changed most in the window (default: as many as fit);
   * the others are listed with their values.
   */
  maxVariables?: number;
}

/** Width of the value labels left of each plot. */
const LABEL_WIDTH = 8;
/** Lines a plot needs at least besides its title: a plot of 2 rows draws 3 lines. */
const MIN_PLOT_ROWS = 2;
const SERIES_COLORS = ['cyan', 'magenta', 'yellow', 'green', 'blue'] as const;

function axisLabel(format: (n: number) => string, n: number): string {
  let s = format(n);
  if (s.length > LABEL_WIDTH) s = n.toPrecision(2);
  return s.slice(0, LABEL_WIDTH).padStart(LABEL_WIDTH);
}

interface PlotOptions {
  rows: number;
  chalk: ChalkInstance;
  color: (typeof SERIES_COLORS)[number];
}

/**
 * Plot sampled values (one per column; `null` before the variable had a value) as `rows + 1`
 * lines of `LABEL_WIDTH + 1 + values.length` columns.
 */
function plotSteps(values: readonly (number | null)[], { rows, chalk, color }: PlotOptions): string[] {
  const first = values.findIndex((v) => v !== null);
  if (first < 0 || values.length < 2) return [];
  const firstValue = values[first]!;
  // asciichart cannot skip values: fill the leading gap, then blank it out of the drawing below.
  const filled = values.map((v) => v ?? firstValue);
  // Shifting the series to start at 0 makes asciichart draw exactly `rows + 1` lines.
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const v of filled) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const shifted = filled.map((v) => v - min);
  // One style for every label of the axis (`59.07k` … `59.65k`): the same unit and decimals.
  const format = compactAxisFormat(min, max, rows);
  const text = plot(shifted, {
    height: rows,
    offset: 2,
    min: 0,
    format: (x: number) => axisLabel(format, x + min),
  });
  const lead = LABEL_WIDTH + 1; // label, then the axis column
  return text.split('\n').map((line) => {
    let body = line.slice(lead);
    // Column x draws the step from sample x to x + 1: nothing before the first real value.
    if (first > 0) body = ' '.repeat(Math.min(first, body.length)) + body.slice(first);
    // asciichart marks some axis rows with `┼` (its own start marker and row "0"): a plain axis reads better.
    return line.slice(0, LABEL_WIDTH) + chalk.dim('┤') + body.replace(/\S+/g, (run) => chalk[color](run));
  });
}

/** How many plots fit in `lines`, and how many rows each gets. */
function sharePlots(lines: number, wanted: number): { count: number; rows: number } {
  if (wanted <= 0) return { count: 0, rows: 0 };
  const per = MIN_PLOT_ROWS + 2; // title line + rows + 1
  const count = Math.max(1, Math.min(wanted, Math.floor(lines / per)));
  const rows = Math.max(MIN_PLOT_ROWS, Math.floor(lines / count) - 2);
  return { count, rows };
}

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A horizontal bar of `value` out of `max` in `width` columns, to an eighth of a column. */
export function bar(value: number, max: number, width: number): string {
  if (max <= 0 || width <= 0 || !(value > 0)) return '';
  const eighths = Math.max(1, Math.round((value / max) * width * 8));
  return '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8];
}

function userBars(
  users: readonly { user: string; count: number }[],
  shownCount: number,
  width: number,
  chalk: ChalkInstance,
): string[] {
  const shown = users.slice(0, shownCount);
  if (shown.length === 0) return [];
  const nameWidth = Math.min(16, Math.max(...shown.map((u) => textWidth(oneLine(u.user)))));
  const countWidth = Math.max(...shown.map((u) => formatCount(u.count).length));
  const barWidth = width - nameWidth - countWidth - 2;
  const max = shown[0]!.count;
  const lines = shown.map((u) => {
    const name = padToWidth(oneLine(u.user), nameWidth);
    const count = formatCount(u.count).padStart(countWidth);
    if (barWidth < 1) return truncateToWidth(`${name} ${count}`, width);
    return `${name} ${chalk.cyan(padToWidth(bar(u.count, max, barWidth), barWidth))} ${count}`;
  });
  if (users.length > shown.length) {
    const rest = users.slice(shown.length).reduce((sum, u) => sum + u.count, 0);
    lines.push(
      chalk.dim(
        truncateToWidth(
          `+${formatCount(users.length - shown.length)} more users (${formatCount(rest)} entries)`,
          width,
        ),
      ),
    );
  }
  return lines;
}

/** The line under the plots: the window's start at the left edge, its end at the right. */
function timeAxis(left: string, right: string, width: number, chalk: ChalkInstance): string {
  const columns = width - LABEL_WIDTH - 1;
  const gap = Math.max(1, columns - left.length - right.length);
  return chalk.dim(truncateToWidth(`${' '.repeat(LABEL_WIDTH)}└${left}${' '.repeat(gap)}${right}`, width));
}

/** A time short enough for an axis end: the clock within a day, with the date beyond. */
function axisTime(ms: number, span: number): string {
  const full = formatTimestamp(ms);
  return span < 86_400_000 ? full.slice(11) : full.slice(0, 16);
}

function timeRange(start: number, end: number): string {
  return `${formatTimestamp(start)} → ${formatTimestamp(end)} UTC (${formatDuration(end - start)})`;
}

/**
 * Draw a cloud log for a terminal: the most active numeric variables as step plots over the log's
 * time span (resampled to the width), then the most active users as bars.
 */
export function renderLogsChart(
  entries: readonly CloudLogEntry[],
  options: TerminalLogsChartOptions = {},
): string {
  const width = Math.max(LABEL_WIDTH + 10, Math.floor(options.width ?? 80));
  const height = Math.max(1, Math.floor(options.height ?? 24));
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const agg = aggregateLogs(entries, { maxPoints: Math.max(DEFAULT_MAX_POINTS, width) });
  if (agg.start === null || agg.end === null) return 'Cloud log: no entries';
  const { start, end } = agg;
  const clip = (s: string): string => truncateToWidth(s, width);

  const numeric = agg.variables.filter((v) => v.points.length > 0);
  const wanted = Math.min(options.maxVariables ?? 3, numeric.length);
  // Users get at most a quarter of the budget, plots the rest.
  const userRows = Math.min(options.topUsers ?? 5, agg.users.length, Math.max(1, Math.floor(height / 4)));
  const noteRows = agg.variables.length > wanted ? 1 : 0;
  const axisRows = wanted > 0 ? 1 : 0;
  const fixed = 1 + axisRows + 1 + userRows + (agg.users.length > userRows ? 1 : 0) + noteRows;
  const { count, rows } = sharePlots(height - fixed, wanted);
  const plotted = numeric.slice(0, count);

  const out: string[] = [
    chalk.bold(
      clip(
        `${formatCount(agg.entries)} cloud log ${agg.entries === 1 ? 'entry' : 'entries'}, ${timeRange(start, end)}`,
      ),
    ),
  ];
  const columns = width - LABEL_WIDTH - 1;
  plotted.forEach((v, i) => {
    const last = v.points[v.points.length - 1]!;
    out.push(
      chalk.bold(
        clip(`${oneLine(v.name)} · ${formatCount(v.entries)} entries · last ${formatCompact(last.value)}`),
      ),
    );
    const samples = resampleSteps(v.points, start, end, columns);
    out.push(...plotSteps(samples, { rows, chalk, color: SERIES_COLORS[i % SERIES_COLORS.length]! }));
  });
  if (plotted.length > 0)
    out.push(timeAxis(axisTime(start, end - start), axisTime(end, end - start), width, chalk));
  const others = agg.variables.filter((v) => !plotted.includes(v));
  if (others.length > 0) {
    const names = others.map(
      (v) => `${oneLine(v.name)} (${formatCount(v.entries)}${v.points.length === 0 ? ', text' : ''})`,
    );
    out.push(chalk.dim(clip(`not plotted: ${names.join(', ')}`)));
  }
  out.push(chalk.bold(clip(`Activity per user (${formatCount(agg.users.length)})`)));
  out.push(...userBars(agg.users, userRows, width, chalk));
  return out.join('\n');
}

/**
 * Draw live values for a terminal: each variable's value over the last `window` seconds as a step
 * plot, the window's end at the right edge.
 */
export function renderLiveChart(
  points: readonly LivePoint[],
  options: TerminalLiveChartOptions = {},
): string {
  const width = Math.max(LABEL_WIDTH + 10, Math.floor(options.width ?? 80));
  const height = Math.max(1, Math.floor(options.height ?? 16));
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const windowSeconds = options.window ?? 60;
  const { start, end } = liveBounds(points, windowSeconds, options.now);
  const clip = (s: string): string => truncateToWidth(s, width);
  const header = `Live: last ${formatDuration(windowSeconds * 1000)} until ${formatTimestamp(end)} UTC`;

  const series = liveWindow(points, start, end, Math.max(DEFAULT_MAX_POINTS, width));
  if (series.length === 0) return clip(`${header}: no values`);
  const wanted = Math.min(options.maxVariables ?? series.length, series.length);
  // Plots get at least MIN_PLOT_ROWS each; the variables that do not fit are listed in one line.
  const budget = height - 2;
  let { count, rows } = sharePlots(budget, wanted);
  if (count < series.length) ({ count, rows } = sharePlots(budget - 1, wanted));
  const out = [chalk.bold(clip(header))];
  const columns = width - LABEL_WIDTH - 1;
  series.slice(0, count).forEach((s, i) => {
    const last: TimePoint = s.points[s.points.length - 1]!;
    out.push(
      chalk.bold(
        clip(
          `${oneLine(s.name)} · ${formatCount(s.changes)} ${s.changes === 1 ? 'change' : 'changes'} · now ${formatCompact(last.value)}`,
        ),
      ),
    );
    out.push(
      ...plotSteps(resampleSteps(s.points, start, end, columns), {
        rows,
        chalk,
        color: SERIES_COLORS[i % SERIES_COLORS.length]!,
      }),
    );
  });
  out.push(timeAxis(`-${formatDuration(end - start)}`, 'now', width, chalk));
  if (series.length > count) {
    const rest = series
      .slice(count)
      .map((s) => `${oneLine(s.name)} ${formatCompact(s.points.at(-1)!.value)}`);
    out.push(chalk.dim(clip(`also ${rest.join(', ')}`)));
  }
  return out.join('\n');
}

/** One named series of numbers over time (a numeric column of a query's rows). */
export interface TimeSeries {
  name: string;
  points: readonly TimePoint[];
}

/**
 * Draw series over time for a terminal (a query's time column and numbers): one step plot per
 * series over the whole span, as many as fit in `height`, the others named on one line.
 */
export function renderSeriesChart(
  series: readonly TimeSeries[],
  options: { width?: number; height?: number; color?: boolean; title?: string } = {},
): string {
  const width = Math.max(LABEL_WIDTH + 10, Math.floor(options.width ?? 80));
  const height = Math.max(1, Math.floor(options.height ?? 24));
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const clip = (s: string): string => truncateToWidth(s, width);
  // A loop, not a spread into Math.min: a query's series may hold a million points.
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const s of series) {
    for (const p of s.points) {
      if (p.time < start) start = p.time;
      if (p.time > end) end = p.time;
    }
  }
  if (start > end) return clip(`${options.title ?? 'Chart'}: no values`);
  const out = [
    chalk.bold(clip(`${options.title ? `${oneLine(options.title)}, ` : ''}${timeRange(start, end)}`)),
  ];
  let { count, rows } = sharePlots(height - 2, series.length);
  if (count < series.length) ({ count, rows } = sharePlots(height - 3, series.length));
  const columns = width - LABEL_WIDTH - 1;
  series.slice(0, count).forEach((s, i) => {
    const values = s.points.map((p) => p.value);
    out.push(
      chalk.bold(
        clip(
          `${oneLine(s.name)} · ${formatCount(values.length)} points · last ${formatCompact(values.at(-1) ?? 0)}`,
        ),
      ),
    );
    out.push(
      ...plotSteps(resampleSteps(s.points, start, Math.max(end, start + 1), columns), {
        rows,
        chalk,
        color: SERIES_COLORS[i % SERIES_COLORS.length]!,
      }),
    );
  });
  out.push(timeAxis(axisTime(start, end - start), axisTime(end, end - start), width, chalk));
  if (series.length > count) {
    out.push(
      chalk.dim(
        clip(
          `not plotted: ${series
            .slice(count)
            .map((s) => oneLine(s.name))
            .join(', ')}`,
        ),
      ),
    );
  }
  return out.join('\n');
}
