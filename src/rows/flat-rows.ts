/**
 * Records as flat rows of plain values (`{ id, title, "author.username", "stats.views", … }`), the
 * form dataframe and charting libraries take, and as CSV. Nested objects become dotted keys,
 * arrays JSON text; secrets (`project_token`, `token`, …) are left out.
 */
import { isSecretKey } from '../redact.js';

/** A value of a flat row. */
export type FlatValue = string | number | boolean | null;
/** A flat row: dotted keys to plain values. */
export type FlatRow = Record<string, FlatValue>;

/** Options of {@link toFlatRows}. */
export interface FlatRowsOptions {
  /** Whose list it is: rows whose `author` has no `username` get this one (WIRE.md §10). */
  owner?: string;
}

/** Objects nested deeper than this are written as JSON text. */
const MAX_DEPTH = 6;

/** A flat row whose lists stay arrays and whose dates stay `Date`s (the data store's rows). */
export type FlatRecord = Record<string, FlatValue | Date | readonly unknown[]>;

/** How leaves are written: as plain text (CSV, dataframes) or kept as lists and dates (the data store). */
interface FlattenStyle {
  keepLists: boolean;
}

const TEXT: FlattenStyle = { keepLists: false };
const LISTS: FlattenStyle = { keepLists: true };

function flatten(value: unknown, prefix: string, out: FlatRecord, depth: number, style: FlattenStyle): void {
  if (style.keepLists && Array.isArray(value)) {
    out[prefix] = keptList(value);
  } else if (style.keepLists && value instanceof Date) {
    out[prefix] = value;
  } else if (value === null || value === undefined) {
    out[prefix] = null;
  } else if (typeof value === 'string' || typeof value === 'boolean') {
    out[prefix] = value;
  } else if (typeof value === 'number') {
    out[prefix] = Number.isFinite(value) ? value : String(value);
  } else if (typeof value === 'bigint') {
    out[prefix] = String(value);
  } else if (value instanceof Date) {
    out[prefix] = Number.isNaN(value.getTime()) ? null : value.toISOString();
  } else if (Array.isArray(value) || depth >= MAX_DEPTH) {
    out[prefix] = jsonText(value);
  } else if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // for…in over own keys: no entry arrays per object (a load flattens millions of records).
    for (const key in record) {
      const name = flatName(prefix, key);
      if (name === null || !Object.hasOwn(record, key)) continue;
      flatten(record[key], name, out, depth + 1, style);
    }
  } else {
    out[prefix] = String(value);
  }
}

/** Flat names already made, by prefix and key (records of a list share their keys). */
const NAMES = new Map<string, Map<string, string | null>>();
/** Names kept at most: records with ever new keys must not grow the cache without end. */
const MAX_NAMES = 10_000;
let names = 0;

/**
 * The flat name of `key` under `prefix` (null for a secret key), made once: a load flattens
 * millions of records with the same few keys, and a name reused is neither built nor hashed again.
 */
function flatName(prefix: string, key: string): string | null {
  let byKey = NAMES.get(prefix);
  const known = byKey?.get(key);
  if (known !== undefined) return known;
  const name = isSecretKey(key) ? null : prefix === '' ? key : `${prefix}.${key}`;
  if (names < MAX_NAMES) {
    if (byKey === undefined) {
      byKey = new Map();
      NAMES.set(prefix, byKey);
    }
    byKey.set(key, name);
    names++;
  }
  return name;
}

/**
 * A list as the store keeps it: items that are objects or lists become JSON text without their
 * secrets (as the store would write them, and as a record loses its own); a list of plain values
 * is kept as it is, uncopied.
 */
function keptList(list: readonly unknown[]): readonly unknown[] {
  if (!list.some(isNested)) return list;
  return list.map((item) => (isNested(item) ? jsonText(item) : item));
}

function isNested(item: unknown): boolean {
  return typeof item === 'object' && item !== null && !(item instanceof Date);
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value, (key, item: unknown) =>
      key !== '' && isSecretKey(key) ? undefined : typeof item === 'bigint' ? String(item) : item,
    );
  } catch {
    return '[unserializable]';
  }
}

/** One record as a flat row. */
export function toFlatRow(record: unknown, options: FlatRowsOptions = {}): FlatRow {
  return flattenRecord(record, options, TEXT) as FlatRow;
}

/**
 * One record as a flat row named like {@link toFlatRow}'s, but with arrays kept as arrays and
 * dates as `Date`s: the columns of the data store, which has list and timestamp types.
 */
export function toFlatRecord(record: unknown, options: FlatRowsOptions = {}): FlatRecord {
  return flattenRecord(record, options, LISTS);
}

function flattenRecord(record: unknown, options: FlatRowsOptions, style: FlattenStyle): FlatRecord {
  const out: FlatRecord = {};
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    flatten(record, 'value', out, 0, style);
    return out;
  }
  const r = record as Record<string, unknown>;
  const author = r.author as Record<string, unknown> | undefined;
  if (options.owner && author && typeof author === 'object' && typeof author.username !== 'string') {
    // Put the name where a full record has it: right after the author's id.
    const { id, ...rest } = author;
    flatten({ ...r, author: { id, username: options.owner, ...rest } }, '', out, 0, style);
  } else {
    flatten(r, '', out, 0, style);
  }
  return out;
}

/** Records as flat rows (see the file's comment). */
export function toFlatRows(records: readonly unknown[], options: FlatRowsOptions = {}): FlatRow[] {
  return records.map((record) => toFlatRow(record, options));
}

const NEEDS_QUOTES = /[",\r\n]/;

function csvField(value: FlatValue | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return NEEDS_QUOTES.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Flat rows as CSV (RFC 4180: a header line, fields quoted when they hold a comma, quote or line
 * break, lines ended by CRLF). Columns are every key, in the order first seen.
 */
export function toCsv(rows: readonly FlatRow[]): string {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (!seen.has(key)) {
        seen.add(key);
        keys.push(key);
      }
    }
  }
  if (keys.length === 0) return '';
  const lines = [keys.map(csvField).join(',')];
  for (const row of rows) lines.push(keys.map((key) => csvField(row[key])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
