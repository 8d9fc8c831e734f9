/**
 * Values crossing between JavaScript and SQL: query parameters going in (numbers, texts, dates,
 * lists…) and result values coming out as plain JavaScript (a BIGINT as a number when it is
 * safe, else as text; timestamps as `Date`; lists as arrays; structs as objects).
 */
import type { DuckDBValue } from '@duckdb/node-api';
import { describe } from '../records/validate.js';
import type { DuckDB } from './duckdb-module.js';

/** A value a query parameter takes. */
export type SqlValue = string | number | bigint | boolean | Date | null | readonly SqlValue[];

/** `value` as a DuckDB parameter. */
function toParameter(duck: DuckDB, value: unknown): DuckDBValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return value;
    case 'number':
      // Whole numbers go in as BIGINT: `LIMIT $1` and integer comparisons take them as they are.
      return Number.isSafeInteger(value) ? BigInt(value) : value;
    default:
      break;
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new RangeError('a query parameter is an invalid Date');
    return duck.timestampValue(BigInt(value.getTime()) * 1000n);
  }
  if (Array.isArray(value)) return duck.listValue(value.map((item) => toParameter(duck, item)));
  throw new TypeError(
    `a query parameter must be a text, number, boolean, Date, null or array, got ${describe(value)}`,
  );
}

/** Parameters given as a list (`$1`, `$2`…) or by name (`$name`). */
export function toParameters(
  duck: DuckDB,
  params: readonly unknown[] | Record<string, unknown>,
): DuckDBValue[] | Record<string, DuckDBValue> {
  if (Array.isArray(params)) return params.map((value) => toParameter(duck, value));
  if (params === null || typeof params !== 'object') {
    throw new TypeError('query parameters must be an array or an object of named values');
  }
  const named: Record<string, DuckDBValue> = {};
  for (const [name, value] of Object.entries(params)) named[name] = toParameter(duck, value);
  return named;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A result value as plain JavaScript (see the file's comment). */
function plainValue(value: unknown): unknown {
  if (typeof value === 'bigint')
    return value <= MAX_SAFE && value >= -MAX_SAFE ? Number(value) : String(value);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  if (Array.isArray(value)) return value.map(plainValue);
  if (value instanceof Uint8Array) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = plainValue(item);
  return out;
}

/** A result row as a plain object. */
export function plainRow(row: Record<string, unknown>): Record<string, unknown> {
  for (const key in row) {
    const value = row[key];
    if (value !== null && (typeof value === 'bigint' || typeof value === 'object'))
      row[key] = plainValue(value);
  }
  return row;
}
