/**
 * The generic fallback of the table model: any array of plain objects (or one object) laid out with
 * a column per key, as `console.table` does, for values that are not platform records (e.g.
 * `projects.map((p) => ({ title: p.title, loves: p.stats.loves }))`).
 */
import { REDACTED } from '../redact.js';
import type { ColumnSpec } from './columns.js';
import { formatCount, oneLine } from './format.js';
import { isSecretViewKey } from './redact-view.js';
import { DEFAULT_MAX_ROWS, type TextTable } from './table.js';

/** Options of {@link toValueTable}. */
export interface ToValueTableOptions {
  /** Show at most this many rows (default 40). */
  maxRows?: number;
  /** Show at most this many columns, the first keys seen (default 20). */
  maxColumns?: number;
}

/** Cells longer than this are cut (the renderer may cut them further to fit). */
const MAX_CELL_WIDTH = 40;
const DEFAULT_MAX_COLUMNS = 20;

type Row = Readonly<Record<string, unknown>>;

function isRow(x: unknown): x is Row {
  return typeof x === 'object' && x !== null && !Array.isArray(x) && !(x instanceof Date);
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : formatCount(value);
  if (typeof value === 'string') return oneLine(value);
  if (typeof value === 'bigint' || typeof value === 'boolean' || typeof value === 'symbol')
    return String(value);
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (Array.isArray(value)) return `[${value.length} ${value.length === 1 ? 'item' : 'items'}]`;
  try {
    // Nested secrets (a session's `user.token`) are redacted like top-level ones.
    const text = JSON.stringify(value, (key, item: unknown) =>
      key !== '' && isSecretViewKey(key) && item !== null && item !== undefined ? REDACTED : item,
    );
    return oneLine(text ?? String(value));
  } catch {
    return '[object]'; // cyclic
  }
}

/**
 * Lay out an array of objects (or one object) as a table with a column per key, in the order the
 * keys are first seen; an array of plain values gets a single `value` column. Answers `null` for
 * anything else (a string, a number, an empty array).
 */
export function toValueTable(values: unknown, options: ToValueTableOptions = {}): TextTable | null {
  const list: readonly unknown[] = Array.isArray(values) ? values : isRow(values) ? [values] : [];
  if (list.length === 0) return null;
  const maxRows = Math.max(0, Math.floor(options.maxRows ?? DEFAULT_MAX_ROWS));
  const maxColumns = Math.max(1, Math.floor(options.maxColumns ?? DEFAULT_MAX_COLUMNS));
  const shown = list.slice(0, maxRows);

  const keys: string[] = [];
  const seen = new Set<string>();
  let plain = false;
  for (const item of shown) {
    if (!isRow(item)) {
      plain = true;
      continue;
    }
    for (const key of Object.keys(item)) {
      if (!seen.has(key) && keys.length < maxColumns) {
        seen.add(key);
        keys.push(key);
      }
    }
  }
  // Plain values share the table with objects in a `value` column.
  const valueKey = plain ? uniqueKey('value', seen) : null;
  const allKeys = valueKey ? [...keys, valueKey] : keys;
  const rows = shown.map((item) =>
    allKeys.map((key) =>
      key === valueKey
        ? isRow(item)
          ? ''
          : cellText(item)
        : !isRow(item)
          ? ''
          : isSecretViewKey(key) && item[key] !== undefined && item[key] !== null
            ? REDACTED
            : cellText(item[key]),
    ),
  );
  const columns: ColumnSpec[] = allKeys.map((key, index) => {
    const numeric = shown.every((item) => {
      const v = key === valueKey ? (isRow(item) ? undefined : item) : isRow(item) ? item[key] : undefined;
      return v === undefined || v === null || typeof v === 'number' || typeof v === 'bigint';
    });
    return {
      key,
      header: oneLine(key),
      align: numeric ? 'right' : 'left',
      maxWidth: MAX_CELL_WIDTH,
      // Earlier keys matter more: when the terminal is narrow, the last ones go first.
      priority: allKeys.length - index,
    };
  });
  return { columns, rows, total: list.length, truncatedRows: list.length - shown.length };
}

function uniqueKey(base: string, taken: ReadonlySet<string>): string {
  let key = base;
  for (let i = 2; taken.has(key); i++) key = `${base}${i}`;
  return key;
}
