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

/** Objects nested deeper than this are written as JSON text (a record's own keys are depth 1). */
export const MAX_FLAT_DEPTH = 6;
const MAX_DEPTH = MAX_FLAT_DEPTH;

/** A flat row whose lists stay arrays and whose dates stay `Date`s (the data store's rows). */
export type FlatRecord = Record<string, FlatValue | Date | readonly unknown[]>;

/** How leaves are written: as plain text (CSV, dataframes) or kept as lists and dates (the data store). */
interface FlattenStyle {
  keepLists: boolean;
}

const TEXT: FlattenStyle = { keepLists: false };
const LISTS: FlattenStyle = { keepLists: true };

/**
 * The flat names under one prefix, by key, each with the names under it: a tree that a record's
 * walk descends, so each key of each record costs one lookup (a load flattens millions of records
 * with the same few keys), and a name is neither built nor hashed again.
 */
class Names {
  readonly #entries = new Map<string, NameEntry>();

  /** The entry of `key` under `prefix` (this node's name); its name is null for a secret key. */
  entry(prefix: string, key: string): NameEntry {
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      entry = { name: isSecretKey(key) ? null : prefix === '' ? key : `${prefix}.${key}`, under: undefined };
      // Records with ever new keys must not grow the tree without end: past the cap, uncached.
      if (names < MAX_NAMES) {
        this.#entries.set(key, entry);
        names++;
      }
    }
    return entry;
  }
}

interface NameEntry {
  /** The flat name, or null for a secret key (left out). */
  readonly name: string | null;
  /** The names under it, made when it first holds an object. */
  under: Names | undefined;
}

/** Names kept at most. */
const MAX_NAMES = 10_000;
let names = 0;
const ROOT = new Names();

/** Writes `value` as `prefix` (or its keys under it); answers the names under it, made if needed. */
/** One record's walk: where its flat values go, and how leaves are written. */
interface Walk {
  out: FlatRecord;
  style: FlattenStyle;
}

function flatten(
  value: unknown,
  prefix: string,
  under: Names | undefined,
  depth: number,
  walk: Walk,
): Names | undefined {
  const { out, style } = walk;
  if (style.keepLists) {
    const leaf = recordLeaf(value);
    if (leaf !== undefined) {
      put(out, prefix, leaf);
      return under;
    }
  }
  if (value === null || value === undefined) {
    put(out, prefix, null);
  } else if (typeof value === 'string' || typeof value === 'boolean') {
    put(out, prefix, value);
  } else if (typeof value === 'number') {
    put(out, prefix, Number.isFinite(value) ? value : String(value));
  } else if (typeof value === 'bigint') {
    put(out, prefix, String(value));
  } else if (value instanceof Date) {
    put(out, prefix, Number.isNaN(value.getTime()) ? null : value.toISOString());
  } else if (Array.isArray(value) || depth >= MAX_DEPTH) {
    put(out, prefix, jsonText(value));
  } else if (typeof value === 'object') {
    const node = under ?? new Names();
    flattenObject(value as Record<string, unknown>, prefix, node, depth, walk);
    return node;
  } else {
    put(out, prefix, String(value));
  }
  return under;
}

/**
 * Sets `out[name]`. A record's own `__proto__` key (JSON.parse makes one) is a name like any other:
 * assigned, it would set the row's prototype (a list's items became columns) or vanish.
 */
function put(out: FlatRecord, name: string, value: FlatRecord[string]): void {
  if (name === '__proto__')
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  else out[name] = value;
}

/** The keys of one object under `prefix` (for…in over own keys: no entry arrays per object). */
function flattenObject(
  record: Record<string, unknown>,
  prefix: string,
  node: Names,
  depth: number,
  walk: Walk,
): void {
  for (const key in record) {
    if (Object.hasOwn(record, key)) flattenKey(record[key], key, prefix, node, depth, walk);
  }
}

function flattenKey(
  value: unknown,
  key: string,
  prefix: string,
  node: Names,
  depth: number,
  walk: Walk,
): void {
  const entry = node.entry(prefix, key);
  if (entry.name === null) return;
  entry.under = flatten(value, entry.name, entry.under, depth + 1, walk);
}

/**
 * A value of a record as {@link toFlatRecord} writes it (lists kept, dates kept), or undefined for
 * an object, whose keys become names of their own (the data store writes records with it directly).
 */
export function recordLeaf(value: unknown): FlatRecord[string] | undefined {
  // The common kinds first (a load asks this of every value).
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return keptList(value);
  if (value instanceof Date) return value;
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'object') return undefined;
  return String(value);
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
  const walk: Walk = { out: {}, style };
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    flatten(record, 'value', undefined, 0, walk);
    return walk.out;
  }
  const r = record as Record<string, unknown>;
  const author = r.author as Record<string, unknown> | undefined;
  if (options.owner && author && typeof author === 'object' && typeof author.username !== 'string') {
    // Put the name where a full record has it: right after the author's id (no copy of the record).
    for (const key in r) {
      if (!Object.hasOwn(r, key)) continue;
      if (key === 'author') flattenAuthor(author, options.owner, walk);
      else flattenKey(r[key], key, '', ROOT, 0, walk);
    }
  } else {
    flattenObject(r, '', ROOT, 0, walk);
  }
  return walk.out;
}

/** An author without a username, as `{ id, username: owner, ...the rest }`. */
function flattenAuthor(author: Record<string, unknown>, owner: string, walk: Walk): void {
  const entry = ROOT.entry('', 'author');
  if (entry.name === null) return;
  entry.under ??= new Names();
  flattenKey(author.id, 'id', entry.name, entry.under, 1, walk);
  flattenKey(owner, 'username', entry.name, entry.under, 1, walk);
  for (const key in author) {
    if (key === 'id' || key === 'username' || !Object.hasOwn(author, key)) continue;
    flattenKey(author[key], key, entry.name, entry.under, 1, walk);
  }
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
