/**
 * A cloud log in a few lines of plain text: the `text/plain` part of a chart display, and what a
 * reader of a static export sees when the chart cannot be drawn.
 */
import type { CloudLogEntry } from '../records/records.js';
import { aggregateLogs, parseCloudNumber } from './aggregate.js';
import { formatCount, formatDuration, formatTimestamp, oneLine } from './format.js';
import { truncateToWidth } from './text-width.js';

/** Options of {@link summarizeLogs}. */
export interface SummarizeLogsOptions {
  /** Variables named (default 5, the most active). */
  topVariables?: number;
  /** Users named (default 5, the most active). */
  topUsers?: number;
}

/** A value as it reads best: numbers bare, text quoted and cut short. */
function showValue(value: string): string {
  const n = parseCloudNumber(value);
  return n === null ? JSON.stringify(truncateToWidth(oneLine(value), 16)) : String(n);
}

function list<T>(items: readonly T[], top: number, show: (x: T) => string): string {
  const shown = items.slice(0, top).map(show);
  if (items.length > top) shown.push(`+${formatCount(items.length - top)} more`);
  return shown.join(', ');
}

/**
 * Summarize a cloud log, e.g.
 * ```text
 * 1,200 cloud log entries, 2024-05-01 10:00:00 – 2024-05-01 12:00:00 UTC (2h)
 * Variables (2): score 1,000 (last 42), name 200 (last "hello")
 * Users (3): alice 700, bob 400, carol 100
 * ```
 */
export function summarizeLogs(entries: readonly CloudLogEntry[], options: SummarizeLogsOptions = {}): string {
  const agg = aggregateLogs(entries, { maxPoints: 1 });
  if (agg.entries === 0 || agg.start === null || agg.end === null) return 'Cloud log: no entries';
  const noun = agg.entries === 1 ? 'entry' : 'entries';
  const range =
    agg.start === agg.end
      ? `at ${formatTimestamp(agg.start)} UTC`
      : `${formatTimestamp(agg.start)} – ${formatTimestamp(agg.end)} UTC (${formatDuration(agg.end - agg.start)})`;
  const variables = list(agg.variables, options.topVariables ?? 5, (v) => {
    const last = v.lastValue === null ? '' : ` (last ${showValue(v.lastValue)})`;
    return `${oneLine(v.name)} ${formatCount(v.entries)}${last}`;
  });
  const users = list(agg.users, options.topUsers ?? 5, (u) => `${oneLine(u.user)} ${formatCount(u.count)}`);
  return [
    `${formatCount(agg.entries)} cloud log ${noun}, ${range}`,
    `Variables (${formatCount(agg.variables.length)}): ${variables}`,
    `Users (${formatCount(agg.users.length)}): ${users}`,
  ].join('\n');
}
