/**
 * How one value goes into the appender for each column type. A writer checks and writes in one
 * pass: it appends a value its column holds (converted on the way: numbers and booleans to text
 * in a `VARCHAR` column, lists to JSON text, ISO times to microseconds, each parsed once) and
 * answers false, appending nothing, for a value that needs a wider column. So a load checks its
 * values' types only while it writes them, and infers types again only for a batch that needs it.
 *
 * A column the store did not create (a `DECIMAL(38,10)` made by SQL) takes every value as DuckDB
 * casts it; a value it cannot hold is a {@link ColumnTypeError}, never a change of the column.
 */
import type { DuckDBAppender } from '@duckdb/node-api';
import { type ColumnType, isIsoTime, isList, itemType, type ScalarType } from './column-types.js';
import type { DuckDB } from './duckdb-module.js';
import { ColumnTypeError } from './load-errors.js';

/**
 * Appends one value (never null: the caller appends nulls) to the current row; false (and
 * nothing appended) when the column's type cannot hold it.
 */
export type ValueWriter = (appender: DuckDBAppender, value: unknown) => boolean;

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

/** A list item a list of `type` holds, as DuckDB takes it (null stays null); undefined when it does not fit. */
function itemValue(duck: DuckDB, type: ScalarType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'BOOLEAN':
      return typeof value === 'boolean' ? value : undefined;
    case 'BIGINT':
      if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : undefined;
      return typeof value === 'bigint' && value >= MIN_BIGINT && value < MAX_BIGINT ? value : undefined;
    case 'DOUBLE':
      if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
      return typeof value === 'bigint' && value >= MIN_BIGINT && value < MAX_BIGINT
        ? Number(value)
        : undefined;
    case 'TIMESTAMP': {
      const ms = timeOf(value);
      if (ms === undefined) return undefined;
      return Number.isNaN(ms) ? null : duck.timestampValue(BigInt(Math.round(ms * 1000)));
    }
    default:
      return textOf(value); // lists and objects inside a list are kept as JSON text
  }
}

/** The writer of a column of the store's type `type`. */
export function writerFor(duck: DuckDB, type: ColumnType): ValueWriter {
  if (isList(type)) {
    const item = itemType(type as `${ScalarType}[]`);
    const listType = duck.LIST(scalarDuckType(duck, item));
    return (appender, value) => {
      if (!Array.isArray(value)) return false;
      const items = new Array<unknown>(value.length);
      for (let i = 0; i < value.length; i++) {
        const converted = itemValue(duck, item, value[i]);
        if (converted === undefined) return false;
        items[i] = converted;
      }
      appender.appendList(items as Parameters<DuckDBAppender['appendList']>[0], listType);
      return true;
    };
  }
  switch (type as ScalarType) {
    case 'BOOLEAN':
      return (appender, value) => {
        if (typeof value !== 'boolean') return false;
        appender.appendBoolean(value);
        return true;
      };
    case 'BIGINT':
      return (appender, value) => {
        if (typeof value === 'number') {
          if (!Number.isSafeInteger(value)) return false;
          appender.appendBigInt(BigInt(value));
          return true;
        }
        if (typeof value !== 'bigint' || value < MIN_BIGINT || value >= MAX_BIGINT) return false;
        appender.appendBigInt(value);
        return true;
      };
    case 'DOUBLE':
      return (appender, value) => {
        const number = itemValue(duck, 'DOUBLE', value);
        if (number === undefined) return false;
        appender.appendDouble(number as number);
        return true;
      };
    case 'TIMESTAMP':
      return (appender, value) => {
        const ms = timeOf(value);
        if (ms === undefined) return false;
        if (Number.isNaN(ms)) appender.appendNull();
        else appender.appendTimestamp(duck.timestampValue(BigInt(Math.round(ms * 1000))));
        return true;
      };
    default:
      return (appender, value) => {
        appender.appendVarchar(textOf(value));
        return true;
      };
  }
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
