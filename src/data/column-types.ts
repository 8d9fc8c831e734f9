/**
 * The column types a load gives the store, inferred from the values and widened when a later
 * value does not fit: `BOOLEAN`, `BIGINT` (safe integers), `DOUBLE`, `TIMESTAMP` (dates and ISO
 * 8601 texts with a zone), `VARCHAR`, and lists of those (`BIGINT[]`…). A mix of kinds widens to
 * the narrowest type holding both (`BIGINT` and `DOUBLE` → `DOUBLE`), anything else to `VARCHAR`.
 */

/** A scalar column type of the store. */
export type ScalarType = 'BOOLEAN' | 'BIGINT' | 'DOUBLE' | 'TIMESTAMP' | 'VARCHAR';
/** A column type of the store: a scalar or a list of one. */
export type ColumnType = ScalarType | `${ScalarType}[]`;
/** What one value says about its column: a type, or a list too empty to tell its items' type. */
export type ValueType = ColumnType | 'EMPTY[]';

const SCALARS: ReadonlySet<string> = new Set(['BOOLEAN', 'BIGINT', 'DOUBLE', 'TIMESTAMP', 'VARCHAR']);

/** A text the store reads as a time: an ISO 8601 date-time with a zone (what the platform sends). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Whether `text` is a time the store keeps as `TIMESTAMP`. */
export function isIsoTime(text: string): boolean {
  // The cheap checks first: most texts are not times.
  return (
    text.length >= 17 &&
    text.length <= 35 &&
    text.charCodeAt(4) === 45 &&
    ISO_TIME.test(text) &&
    !Number.isNaN(Date.parse(text))
  );
}

function scalarType(value: unknown): ScalarType | null {
  switch (typeof value) {
    case 'boolean':
      return 'BOOLEAN';
    case 'number':
      if (!Number.isFinite(value)) return 'VARCHAR';
      return Number.isSafeInteger(value) ? 'BIGINT' : 'DOUBLE';
    case 'bigint':
      return value >= -(2n ** 63n) && value < 2n ** 63n ? 'BIGINT' : 'VARCHAR';
    case 'string':
      return isIsoTime(value) ? 'TIMESTAMP' : 'VARCHAR';
    case 'undefined':
      return null;
    default:
      if (value === null) return null;
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : 'TIMESTAMP';
      return 'VARCHAR'; // objects inside lists are kept as JSON text
  }
}

/** The type a value asks of its column; null for null (it fits every column). */
export function typeOfValue(value: unknown): ValueType | null {
  if (!Array.isArray(value)) return scalarType(value);
  let item: ScalarType | null = null;
  for (const element of value) {
    const type = scalarType(Array.isArray(element) ? 'list' : element);
    if (type !== null) item = item === null ? type : widenScalar(item, type);
  }
  return item === null ? 'EMPTY[]' : `${item}[]`;
}

function widenScalar(a: ScalarType, b: ScalarType): ScalarType {
  if (a === b) return a;
  if ((a === 'BIGINT' && b === 'DOUBLE') || (a === 'DOUBLE' && b === 'BIGINT')) return 'DOUBLE';
  return 'VARCHAR';
}

/** Whether `type` is a list type. */
export function isList(type: ValueType): type is `${ScalarType}[]` | 'EMPTY[]' {
  return type.endsWith('[]');
}

/** The item type of a list type. */
export function itemType(type: `${ScalarType}[]`): ScalarType {
  return type.slice(0, -2) as ScalarType;
}

/** The narrowest type that holds values of both types. */
export function widen(a: ValueType, b: ValueType): ValueType {
  if (a === b) return a;
  const listA = isList(a);
  const listB = isList(b);
  if (listA && listB) {
    if (a === 'EMPTY[]') return b;
    if (b === 'EMPTY[]') return a;
    return `${widenScalar(itemType(a as `${ScalarType}[]`), itemType(b as `${ScalarType}[]`))}[]`;
  }
  if (listA || listB) return 'VARCHAR'; // a list among scalars: kept as JSON text
  return widenScalar(a as ScalarType, b as ScalarType);
}

/** The type a column gets: a list that was always empty holds texts. */
export function columnTypeOf(type: ValueType): ColumnType {
  return type === 'EMPTY[]' ? 'VARCHAR[]' : type;
}

/**
 * The store's type for a type DuckDB reports of an existing column (a table made by SQL or an
 * import), or null for a type the store does not create (such a column is never altered).
 */
export function storeTypeOf(duckType: string): ColumnType | null {
  const type = duckType.toUpperCase();
  if (SCALARS.has(type)) return type as ScalarType;
  if (type.endsWith('[]') && SCALARS.has(type.slice(0, -2))) return type as ColumnType;
  return null;
}

/**
 * The SQL expression that converts column `name` (quoted) of type `from` to type `to`: times as
 * ISO 8601 text and lists as JSON text, so widened columns read as the values that came in.
 */
export function widenExpression(name: string, from: string, to: ColumnType): string {
  const source = from.toUpperCase();
  if (to === 'VARCHAR') {
    if (source.startsWith('TIMESTAMP') || source === 'DATE') {
      return `strftime(${name}::TIMESTAMP, '%Y-%m-%dT%H:%M:%S.%gZ')`;
    }
    if (source.endsWith('[]') || source.startsWith('STRUCT') || source.startsWith('MAP')) {
      return `to_json(${name})::VARCHAR`;
    }
  }
  return `${name}::${to}`;
}
