/**
 * The words of a progress display, shared by the REPL's bar and the kernel's updating output so
 * both count alike: `1,240 rows · 31 pages`, `12/100 assets · 3.0 MB`.
 */
import type { ProgressReport } from './auto-progress.js';
import { formatCount } from './format.js';

const BYTE_UNITS = ['kB', 'MB', 'GB'] as const;

/** `512` -> `"512 B"`, `3 * 1024 * 1024` -> `"3.0 MB"` (one decimal below 10 of a unit). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${BYTE_UNITS[unit]}`;
}

/** True for the report of a transfer (a known total of assets), false for a walk of pages. */
export function isTransferReport(
  report: ProgressReport,
): report is Extract<ProgressReport, { total: number }> {
  return 'total' in report;
}

/** The counts of a report: `starting`, `1,240 rows · 31 pages` or `12/100 assets · 3.0 MB`. */
export function progressCounts(report: ProgressReport | null): string {
  if (report === null) return 'starting';
  if (isTransferReport(report))
    return `${formatCount(report.done)}/${formatCount(report.total)} assets · ${formatBytes(report.bytes)}`;
  const rows = `${formatCount(report.items)} ${report.items === 1 ? 'row' : 'rows'}`;
  return `${rows} · ${formatCount(report.pages)} ${report.pages === 1 ? 'page' : 'pages'}`;
}
