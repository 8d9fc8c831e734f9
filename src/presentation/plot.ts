/**
 * `plot(data)` for both front ends: cloud log entries, projects (or a user's project rows),
 * messages or activity rows, a remix tree, project analyses, or a Vega-Lite spec of one's own, made into a {@link Chart}.
 */
import type { ProjectAnalysis } from '../analysis/analyze-project.js';
import type { ForumPost } from '../records/forum-records.js';
import type { CloudLogEntry, Project, UserProjectRow } from '../records/records.js';
import type { RemixTreeNode } from '../resources/remix-tree.js';
import { activityChart } from './activity-chart.js';
import { analysesChart, analysisChart } from './analysis-chart.js';
import {
  type ProjectMetric,
  projectBars,
  projectStatsChartSpec,
  renderBarChart,
  summarizeBars,
} from './bar-chart.js';
import { Chart } from './chart.js';
import { renderLogsChart } from './chart-terminal.js';
import { type LogsChartOptions, logsChartSpec } from './charts.js';
import { type ActivityRow, recordKind } from './detect.js';
import { forumPostsChart } from './forum-chart.js';
import { summarizeLogs } from './log-summary.js';
import { isRemixTree, remixTreeChart } from './remix-tree-chart.js';
import { isChartableTable, tableChart } from './table-chart.js';
import type { VegaLiteSpec } from './vega-lite-spec.js';

/** Options of {@link chartOf}. */
export interface PlotOptions extends LogsChartOptions {
  /** For projects: the numbers drawn, one panel each (default views and loves). */
  metrics?: readonly ProjectMetric[];
  /** In a terminal: most variables drawn (default: as many as fit, at least 3). */
  terminalVariables?: number;
  /** In a terminal: most users listed (default 5). */
  terminalUsers?: number;
  /** In a terminal: lines the drawing may take (default: the terminal's height less 4, 12 to 30). */
  terminalHeight?: number;
}

/** What {@link chartOf} draws. */
export type PlotData =
  | readonly CloudLogEntry[]
  | readonly (Project | UserProjectRow)[]
  | readonly ActivityRow[]
  | readonly ForumPost[]
  | RemixTreeNode
  | ProjectAnalysis
  | readonly ProjectAnalysis[]
  | readonly Record<string, unknown>[]
  | VegaLiteSpec;

const SPEC_KEYS = ['mark', 'layer', 'vconcat', 'hconcat', 'concat', 'facet', 'repeat'];

/** A hand-made Vega-Lite spec: a plain object with a Vega-Lite `$schema` or a view's keys. */
export function isVegaLiteSpec(value: unknown): value is VegaLiteSpec {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const spec = value as Record<string, unknown>;
  if (typeof spec.$schema === 'string') return spec.$schema.includes('vega-lite');
  return SPEC_KEYS.some((key) => key in spec);
}

/**
 * The chart of `data`: cloud log entries (values over time and activity per user), projects
 * (their numbers side by side), plain rows such as a query's answer (a line per number over a
 * time column, or bars by a text column), or a Vega-Lite spec as it is.
 * @throws TypeError for anything else
 */
export function chartOf(data: unknown, options: PlotOptions = {}): Chart {
  if (options === null || typeof options !== 'object') throw new TypeError('plot options must be an object');
  if (isRemixTree(data)) return remixTreeChart(data, { title: options.title });
  if (isVegaLiteSpec(data)) return new Chart(data);
  if (!Array.isArray(data) && recordKind(data) === 'projectAnalysis')
    return analysisChart(data as ProjectAnalysis, { title: options.title });
  if (Array.isArray(data)) {
    const kind = data.length === 0 ? 'logEntry' : recordKind(data);
    if (kind === 'projectAnalysis') return analysesChart(data as ProjectAnalysis[], { title: options.title });
    if (kind === 'logEntry') {
      const entries = data as CloudLogEntry[];
      return new Chart(logsChartSpec(entries, options), {
        summary: summarizeLogs(entries),
        terminal: ({ width, height, color }) =>
          renderLogsChart(entries, {
            // One column spare: a line exactly as wide as the terminal makes some terminals wrap.
            width: Math.max(20, width - 1),
            height: options.terminalHeight ?? Math.max(12, Math.min(30, height - 4)),
            color,
            maxVariables: options.terminalVariables,
            topUsers: options.terminalUsers,
          }),
      });
    }
    if (kind === 'activity') return activityChart(data as ActivityRow[], { title: options.title });
    if (kind === 'forumPost') return forumPostsChart(data as ForumPost[], { title: options.title });
    if (kind === 'project') {
      const projects = data as (Project | UserProjectRow)[];
      const bars = projectBars(projects, { metrics: options.metrics });
      return new Chart(projectStatsChartSpec(projects, { metrics: options.metrics, title: options.title }), {
        summary: summarizeBars(bars),
        terminal: ({ width, color }) =>
          renderBarChart(bars, { width: width - 1, color, title: options.title }),
      });
    }
    // Plain rows (a store query's answer): a time column and numbers, or a text column and numbers.
    // Platform records of other kinds (users, studios…) are not tables of numbers to draw.
    if (kind === null && isChartableTable(data))
      return tableChart(data as Record<string, unknown>[], { title: options.title });
  }
  throw new TypeError(
    'plot() draws cloud log entries (cloud.logs()), projects, messages or activity rows, forum posts, a remix tree, project analyses, rows with a time or text column and numbers (a query), or a Vega-Lite spec',
  );
}
