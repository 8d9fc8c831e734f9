/**
 * The presentation layer shared by the REPL and the Jupyter kernel: records as tables (terminal
 * text, HTML, plain text) and cloud logs as charts (Vega-Lite, SVG, terminal plots, summaries).
 *
 * Importing it is cheap: vega and vega-lite load only when {@link renderSvg} is first called.
 * Importing it also teaches the SDK's record lists to show themselves as tables.
 */
import './list-display.js';

export {
  type FlatRow,
  type FlatRowsOptions,
  type FlatValue,
  toCsv,
  toFlatRow,
  toFlatRows,
} from '../rows/flat-rows.js';
export { kListWindow, type ListWindow, listWindowOf, windowNote } from '../rows/list-window.js';
export { extensionOf, JUPYTER_DISPLAY, REPL_DISPLAY, SavedFile, writeWhole } from '../rows/saved-file.js';
export { type ActivityCount, activityChart, activityChartSpec, countActivity } from './activity-chart.js';
export { type ActivityLine, describeActivity } from './activity-rows.js';
export {
  type AggregateOptions,
  addLivePoint,
  aggregateLogs,
  bucketLast,
  DEFAULT_MAX_POINTS,
  type LivePoint,
  type LiveSeries,
  type LogAggregate,
  liveBounds,
  liveWindow,
  MAX_LIVE_POINTS,
  parseCloudNumber,
  resampleSteps,
  type TimePoint,
  type UserActivity,
  type VariableActivity,
} from './aggregate.js';
export { installAutoProgress, type ProgressReport, type ProgressSink } from './auto-progress.js';
export {
  type Bar,
  type BarChartOptions,
  barChart,
  barChartSpec,
  type ProjectMetric,
  type ProjectStatsChartOptions,
  projectBars,
  projectStatsChartSpec,
  renderBarChart,
  summarizeBars,
  type TerminalBarChartOptions,
} from './bar-chart.js';
export type {
  CellPlotOptions,
  Display,
  DisplayHandle,
  DisplayOptions,
  Live,
  LiveHandle,
  LiveOptions,
  LiveQueryArguments,
  LiveQueryHandle,
  Plot,
  PlotInput,
  Show,
  ShowOptions,
} from './cell-helpers.js';
export {
  Chart,
  type ChartOptions,
  type ChartTerminal,
  type PngOptions,
  VEGA_LITE_MIME,
  VEGA_MIME,
} from './chart.js';
export { type ChartGrammar, renderSvg } from './chart-svg.js';
export {
  renderLiveChart,
  renderLogsChart,
  type TerminalLiveChartOptions,
  type TerminalLogsChartOptions,
} from './chart-terminal.js';
export {
  AXIS_NUMBER_FORMAT,
  type LiveChartOptions,
  type LogsChartOptions,
  liveChartSpec,
  logsChartSpec,
} from './charts.js';
export { type Cell, type Column, type ColumnContext, type ColumnSpec, columnsFor } from './columns.js';
export {
  type ActivityRow,
  isRecordOfKind,
  type RecordKind,
  type RecordOfKind,
  recordKind,
} from './detect.js';
export { compactAxisFormat, formatCompact, formatCount } from './format.js';
export { jupyterDisplayOf, type MimeBundle, mimeBundleOf } from './jupyter-display.js';
export { knownUsername, learnUsers, rememberUser, userLabel } from './known-users.js';
export { type LiveQueryChartOptions, liveQueryChart } from './live-query-chart.js';
export {
  checkLiveArguments,
  type LiveChange,
  LiveRecorder,
  type LiveRecorderOptions,
  type LiveSetEvent,
  type LiveSource,
} from './live-recorder.js';
export { type SummarizeLiveOptions, summarizeLive } from './live-summary.js';
export { type SummarizeLogsOptions, summarizeLogs } from './log-summary.js';
export { chartOf, isVegaLiteSpec, type PlotData, type PlotOptions } from './plot.js';
export { ProgressPacer, type ProgressPacerOptions } from './progress-pacer.js';
export { formatBytes, isTransferReport, progressCounts } from './progress-text.js';
export { redactForView } from './redact-view.js';
export { isRemixTree, remixTreeChart, remixTreeOutline, remixTreeSpec } from './remix-tree-chart.js';
export { escapeHtml, type RenderHtmlOptions, renderHtmlTable } from './render-html.js';
export {
  type RenderPlainTableOptions,
  type RenderTableOptions,
  renderPlainTable,
  renderTable,
  truncationLine,
} from './render-terminal.js';
export {
  html,
  image,
  MAX_IMAGE_BYTES,
  MAX_RICH_TEXT,
  md,
  RichOutput,
  type RichTemplate,
  svg,
} from './rich-output.js';
export { DEFAULT_MAX_ROWS, type Table, type TextTable, type ToTableOptions, toTable } from './table.js';
export { padToWidth, textWidth, truncateToWidth } from './text-width.js';
export { type ToValueTableOptions, toValueTable } from './value-table.js';
export { type JsonObject, type JsonValue, VEGA_LITE_SCHEMA, type VegaLiteSpec } from './vega-lite-spec.js';
