/**
 * How one value goes into the appender for each column type. Values that a widened column
 * receives from narrower kinds are converted here: numbers and booleans to text in a `VARCHAR`
 * column, lists to JSON text, ISO times to microseconds.
 */
import type { DuckDBAppender } from '@duckdb/node-api';
import { type ColumnType, isList, itemType, type ScalarType } from './column-types.js';
import type { DuckDB } from './duckdb-module.js';

/** Appends one value (never null: the caller appends nulls) to the current row. */
export type ValueWriter = (appender: DuckDBAppender, value: unknown) => void;

/** Milliseconds since the epoch of a `Date` or an ISO text, or NaN. */
function millisOf(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string') return Date.parse(value);
  if (typeof value === 'number') return value;
  return Number.NaN;
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

function bigintOf(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  return BigInt(value as number);
}

/** The DuckDB value of one list item of type `type` (null stays null). */
function itemValue(duck: DuckDB, type: ScalarType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'BOOLEAN':
      return Boolean(value);
    case 'BIGINT':
      return bigintOf(value);
    case 'DOUBLE':
      return Number(value);
    case 'TIMESTAMP': {
      const ms = millisOf(value);
      return Number.isNaN(ms) ? null : duck.timestampValue(BigInt(Math.round(ms * 1000)));
    }
    default:
      return textOf(value);
  }
}

/** The writer of a column of type `type`. */
export function writerFor(duck: DuckDB, type: ColumnType): ValueWriter {
  if (isList(type)) {
    const item = itemType(type as `${ScalarType}[]`);
    const listType = duck.LIST(scalarDuckType(duck, item));
    return (appender, value) => {
      const items = (value as unknown[]).map((element) => itemValue(duck, item, element));
      appender.appendList(items as Parameters<DuckDBAppender['appendList']>[0], listType);
    };
  }
  switch (type as ScalarType) {
    case 'BOOLEAN':
      return (appender, value) => appender.appendBoolean(Boolean(value));
    case 'BIGINT':
      return (appender, value) => appender.appendBigInt(bigintOf(value));
    case 'DOUBLE':
      return (appender, value) => appender.appendDouble(Number(value));
    case 'TIMESTAMP':
      return (appender, value) => {
        const ms = millisOf(value);
        if (Number.isNaN(ms)) appender.appendNull();
        else appender.appendTimestamp(duck.timestampValue(BigInt(Math.round(ms * 1000))));
      };
    default:
      return (appender, value) => appender.appendVarchar(textOf(value));
  }
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
