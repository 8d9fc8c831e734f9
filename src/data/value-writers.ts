/**
 * How one value goes into a column of each of the store's types. A converter checks and converts
 * in one pass: it answers the value as DuckDB takes it (numbers and booleans as text in a
 * `VARCHAR` column, lists of objects as JSON text, ISO times as microseconds, each parsed once),
 * null for a value stored as null (an invalid `Date`), and undefined for a value that needs a wider
 * column. So a load checks its values' types only while it converts them, and infers types again
 * only for a batch that needs it. Converted values fill typed column vectors (a data chunk), or the
 * row appender of a table that has a column the store did not create.
 *
 * A column the store did not create (a `DECIMAL(38,10)` made by SQL) takes every value as DuckDB
 * casts it; a value it cannot hold is a {@link ColumnTypeError}, never a change of the column.
 */
import type { DuckDBAppender, DuckDBType, DuckDBValue } from '@duckdb/node-api';
import { type ColumnType, isIsoTime, isList, itemType, type ScalarType } from './column-types.js';
import type { DuckDB } from './duckdb-module.js';
import { ColumnTypeError } from './load-errors.js';

/**
 * Appends one value (never null: the caller appends nulls) to the current row of a column of a
 * type the store did not create.
 */
export type ValueWriter = (appender: DuckDBAppender, value: unknown) => boolean;

/** A value (never null) as its column takes it; null to store null; undefined when it does not fit. */
export type ValueConverter = (value: unknown) => DuckDBValue | undefined;

/** The vector type and the converter of one column of the store's own types. */
export interface ColumnConverter {
  type: DuckDBType;
  convert: ValueConverter;
}

/** A value as text: lists and objects as JSON, dates as ISO 8601. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  if (typeof value === 'object' && value !== null) {
    try {
      return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? String(item) : item));
    } catch {
      return '[unserializable]';
    }
  }
  return String(value);
}

const MIN_BIGINT = -(2n ** 63n);
const MAX_BIGINT = 2n ** 63n;

/**
 * Milliseconds since the epoch of a value a `TIMESTAMP` column holds: a `Date` (NaN for an invalid
 * one, stored as null) or an ISO 8601 text with a zone; undefined for any other value.
 */
function timeOf(value: unknown): number | undefined {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string' && isIsoTime(value)) return Date.parse(value);
  return undefined;
}

/**
 * The converter of a scalar column (or of a list's items) of `type`: null stays null; undefined
 * for a value that does not fit. One closure per type, so a value costs no switch.
 */
function scalarConverter(duck: DuckDB, type: ScalarType): ValueConverter {
  switch (type) {
    case 'BOOLEAN':
      return (value) =>
        value === null || value === undefined ? null : typeof value === 'boolean' ? value : undefined;
    case 'BIGINT':
      return (value) => {
        if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : undefined;
        if (value === null || value === undefined) return null;
        return typeof value === 'bigint' && value >= MIN_BIGINT && value < MAX_BIGINT ? value : undefined;
      };
    case 'DOUBLE':
      return (value) => {
        if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
        if (value === null || value === undefined) return null;
        return typeof value === 'bigint' && value >= MIN_BIGINT && value < MAX_BIGINT
          ? Number(value)
          : undefined;
      };
    case 'TIMESTAMP':
      return (value) => {
        if (value === null || value === undefined) return null;
        const ms = timeOf(value);
        if (ms === undefined) return undefined;
        return Number.isNaN(ms) ? null : duck.timestampValue(BigInt(Math.round(ms * 1000)));
      };
    default:
      // Lists and objects are kept as JSON text.
      return (value) => (value === null || value === undefined ? null : textOf(value));
  }
}

/** The converter of a column of the store's type `type`. */
export function converterFor(duck: DuckDB, type: ColumnType): ColumnConverter {
  if (!isList(type)) {
    const scalar = type as ScalarType;
    return { type: scalarDuckType(duck, scalar), convert: scalarConverter(duck, scalar) };
  }
  const item = itemType(type as `${ScalarType}[]`);
  const convertItem = scalarConverter(duck, item);
  return {
    type: duck.LIST(scalarDuckType(duck, item)),
    convert: (value) => {
      if (!Array.isArray(value)) return undefined;
      const items = new Array<DuckDBValue>(value.length);
      for (let i = 0; i < value.length; i++) {
        const converted = convertItem(value[i]);
        if (converted === undefined) return undefined;
        items[i] = converted;
      }
      return duck.listValue(items);
    },
  };
}

/**
 * The writer of column `name` of a type the store did not create (`sqlType`, as DuckDB names it):
 * every value goes in as text, which DuckDB casts to the column's type (a number's text is exact,
 * a `DECIMAL` keeps its digits); one it cannot cast is a {@link ColumnTypeError}.
 */
export function foreignWriter(name: string, sqlType: string): ValueWriter {
  return (appender, value) => {
    try {
      if (typeof value === 'boolean') appender.appendBoolean(value);
      else appender.appendVarchar(textOf(value));
    } catch (error) {
      throw new ColumnTypeError(name, sqlType, value, error);
    }
    return true;
  };
}

function scalarDuckType(duck: DuckDB, type: ScalarType) {
  switch (type) {
    case 'BOOLEAN':
      return duck.BOOLEAN;
    case 'BIGINT':
      return duck.BIGINT;
    case 'DOUBLE':
      return duck.DOUBLE;
    case 'TIMESTAMP':
      return duck.TIMESTAMP;
    default:
      return duck.VARCHAR;
  }
}
