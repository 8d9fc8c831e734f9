/**
 * Live cloud values in one or two lines of plain text: the `text/plain` part of a live chart,
 * and what a static export shows when the chart cannot be drawn.
 */
import { type LivePoint, liveBounds, liveWindow } from './aggregate.js';
import { formatCount, formatTimestamp, oneLine } from './format.js';

/** Options of {@link summarizeLive}. */
export interface SummarizeLiveOptions {
  /** Seconds of history considered (default 60), as in the chart. */
  window?: number;
  /** End of the window in ms since the epoch (default: the latest point's time). */
  now?: number;
  /** Variables named (default 5, the most changed). */
  topVariables?: number;
}

/**
 * Summarize live points, e.g.
 * ```text
 * Live cloud values, 60s to 2024-05-01 10:00:00 UTC: 14 changes
 * score 42 (12 changes), level 3 (2 changes)
 * ```
 */
export function summarizeLive(points: readonly LivePoint[], options: SummarizeLiveOptions = {}): string {
  const window = options.window ?? 60;
  if (points.length === 0) return 'Live cloud values: no numeric values yet';
  const { start, end } = liveBounds(points, window, options.now);
  const series = liveWindow(points, start, end, 1);
  const changes = series.reduce((n, s) => n + s.changes, 0);
  const top = options.topVariables ?? 5;
  const parts = series.slice(0, top).map((s) => {
    const last = s.points[s.points.length - 1];
    const value = last === undefined ? '' : ` ${formatCount(last.value)}`;
    return `${oneLine(s.name)}${value} (${formatCount(s.changes)} ${s.changes === 1 ? 'change' : 'changes'})`;
  });
  if (series.length > top) parts.push(`+${formatCount(series.length - top)} more`);
  return [
    `Live cloud values, ${formatCount(window)}s to ${formatTimestamp(end)} UTC: ${formatCount(changes)} ${changes === 1 ? 'change' : 'changes'}`,
    parts.join(', '),
  ].join('\n');
}
