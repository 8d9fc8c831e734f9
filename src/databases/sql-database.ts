import type { Database } from './database.js';
import { checkKey, checkName, sortedKeys, toStoredValue } from './validation.js';

/** The SQL engines {@link SqlDatabase} speaks to. */
export type SqlDialect = 'sqlite' | 'mysql' | 'mariadb' | 'postgres';

/**
 * Runs one statement with positional parameters, given by the caller so that this package
 * depends on no database driver. It may answer synchronously or with a promise, and in any of
 * the drivers' usual shapes:
 *
 * - an array of row objects (better-sqlite3 `all`, mariadb `query`);
 * - an object with a `rows` array (a `pg` result);
 * - a `[rows, fields]` pair (mysql2 `query` / `execute`);
 * - anything else (`undefined`, an OK packet, a run result) for statements without rows.
 *
 * A row may also be an array of cells (`rowMode: 'array'`, `rowsAsArray`). Cells may be strings,
 * byte buffers (decoded as UTF-8) or numbers.
 */
export type SqlQuery = (sql: string, params: unknown[]) => unknown;

/** Options of {@link SqlDatabase}. */
export interface SqlDatabaseOptions {
  /** Which SQL to write: placeholders, quoting, column types and upsert differ. */
  dialect: SqlDialect;
  /** Runs a statement (see {@link SqlQuery}). */
  query: SqlQuery;
  /**
   * The table (default `scratchlab_storage`): a letter or `_`, then letters, digits or `_`, at
   * most 63 in all, not starting with `sqlite_` (SQLite reserves it). It is created when missing.
   */
  table?: string;
  /** The name served to projects (default: the table name). */
  name?: string;
}

/** The SQL of one dialect for one table. */
interface Statements {
  create: string;
  get: string;
  keys: string;
  set: string;
  /** Builds the parameters of `set`: MySQL repeats the value for its update clause. */
  setParams(key: string, value: string): unknown[];
}

const DIALECTS: readonly SqlDialect[] = ['sqlite', 'mysql', 'mariadb', 'postgres'];
const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const DEFAULT_TABLE = 'scratchlab_storage';

function statements(dialect: SqlDialect, table: string): Statements {
  if (dialect === 'mysql' || dialect === 'mariadb') {
    const t = `\`${table}\``;
    return {
      // The key is bytes (UTF-8): every text collation of MySQL/MariaDB either folds case or
      // pads with spaces ('a' = 'a '), which would merge keys that the other adapters keep
      // apart. 255 characters of up to 4 bytes fit in 1020 bytes, inside the index limit.
      create:
        `CREATE TABLE IF NOT EXISTS ${t} (\`key\` VARBINARY(1020) NOT NULL, ` +
        '`value` LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, PRIMARY KEY (`key`)) ' +
        'DEFAULT CHARSET=utf8mb4',
      get: `SELECT \`value\` FROM ${t} WHERE \`key\` = ?`,
      keys: `SELECT \`key\` FROM ${t}`,
      // VALUES() is deprecated in MySQL 8 and the row alias is unknown to MariaDB: repeat the value.
      set: `INSERT INTO ${t} (\`key\`, \`value\`) VALUES (?, ?) ON DUPLICATE KEY UPDATE \`value\` = ?`,
      setParams: (key, value) => [key, value, value],
    };
  }
  const t = `"${table}"`;
  const p = dialect === 'postgres' ? ['$1', '$2'] : ['?', '?'];
  return {
    create: `CREATE TABLE IF NOT EXISTS ${t} ("key" TEXT NOT NULL PRIMARY KEY, "value" TEXT NOT NULL)`,
    get: `SELECT "value" FROM ${t} WHERE "key" = ${p[0]}`,
    keys: `SELECT "key" FROM ${t}`,
    set:
      `INSERT INTO ${t} ("key", "value") VALUES (${p[0]}, ${p[1]}) ` +
      'ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value"',
    setParams: (key, value) => [key, value],
  };
}

/**
 * A database in one table of an SQL server (SQLite, MySQL, MariaDB or PostgreSQL), reached
 * through a `query` function the caller writes around its own driver.
 *
 * The table has a `key` column (the primary key) and a `value` column, and is created on first
 * use if missing (`CREATE TABLE IF NOT EXISTS`; a failure is retried on the next call). In
 * MySQL/MariaDB the key is `VARBINARY(1020)` holding UTF-8, so keys compare exactly as in the
 * other engines, and the connection must use `utf8mb4` (the default of mysql2 and mariadb).
 * A `set` is a single upsert statement, so concurrent sets are safe.
 */
export class SqlDatabase implements Database {
  /** The name served to projects. */
  readonly name: string;
  /** The dialect the SQL is written in. */
  readonly dialect: SqlDialect;
  /** The table holding the data. */
  readonly table: string;
  readonly #query: SqlQuery;
  readonly #sql: Statements;
  #ready: Promise<void> | undefined;

  /**
   * @throws TypeError for a missing `query` or a malformed option; RangeError for an unknown
   * dialect or a table name outside `[A-Za-z_][A-Za-z0-9_]{0,62}` or starting with `sqlite_`.
   */
  constructor(options: SqlDatabaseOptions) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError('SqlDatabase: options must be an object like { dialect, query, table, name }');
    }
    const { dialect, query } = options;
    if (!DIALECTS.includes(dialect)) {
      throw new RangeError(
        `SqlDatabase: dialect must be one of ${DIALECTS.join(', ')}, got ${JSON.stringify(dialect)}`,
      );
    }
    if (typeof query !== 'function')
      throw new TypeError('SqlDatabase: query must be a function (sql, params)');
    const table = options.table ?? DEFAULT_TABLE;
    if (typeof table !== 'string') throw new TypeError('SqlDatabase: table must be a string');
    if (!TABLE_NAME.test(table)) {
      throw new RangeError(
        `SqlDatabase: table ${JSON.stringify(table)} is not a plain name ` +
          '(a letter or _, then letters, digits or _, at most 63 characters)',
      );
    }
    // SQLite keeps these names for itself; refused everywhere so that a name works in every dialect.
    if (/^sqlite_/i.test(table)) {
      throw new RangeError(
        `SqlDatabase: table ${JSON.stringify(table)} starts with sqlite_, a prefix SQLite reserves`,
      );
    }
    const name = options.name ?? table;
    checkName(name, 'SqlDatabase');
    this.name = name;
    this.dialect = dialect;
    this.table = table;
    this.#query = query;
    this.#sql = statements(dialect, table);
  }

  /** The value under `key`, or `undefined`. */
  async get(key: string): Promise<string | undefined> {
    checkKey(key, 'SqlDatabase.get');
    await this.#ensureTable();
    const rows = rowsOf(await this.#query(this.#sql.get, [key]));
    if (rows.length === 0) return undefined;
    return cellText(rows[0], 'value');
  }

  /** Stores `value` (a number is stored as its string) under `key`. */
  async set(key: string, value: string | number): Promise<void> {
    checkKey(key, 'SqlDatabase.set');
    const stored = toStoredValue(value, 'SqlDatabase.set');
    await this.#ensureTable();
    await this.#query(this.#sql.set, this.#sql.setParams(key, stored));
  }

  /** Every key, sorted (in JavaScript, so the order does not depend on the server's collation). */
  async keys(): Promise<string[]> {
    await this.#ensureTable();
    return sortedKeys(rowsOf(await this.#query(this.#sql.keys, [])).map((row) => cellText(row, 'key')));
  }

  #ensureTable(): Promise<void> {
    if (this.#ready === undefined) {
      this.#ready = (async () => {
        await this.#query(this.#sql.create, []);
      })();
      // Only success is kept: after a failure (server down, no rights) the next call tries again.
      this.#ready.catch(() => {
        this.#ready = undefined;
      });
    }
    return this.#ready;
  }
}

/** The rows of a driver's answer, whatever its shape (see {@link SqlQuery}). */
function rowsOf(result: unknown): readonly unknown[] {
  if (Array.isArray(result)) {
    // mysql2 answers [rows, fields]: a pair whose first item holds rows (objects or arrays),
    // where a list of array-mode rows of our one-column selects starts with a row of one cell.
    const first: unknown = result[0];
    if (result.length === 2 && Array.isArray(first) && (first.length === 0 || isRow(first[0]))) return first;
    return result;
  }
  if (result !== null && typeof result === 'object' && Array.isArray((result as { rows?: unknown }).rows)) {
    return (result as { rows: unknown[] }).rows;
  }
  return [];
}

function isRow(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !(value instanceof Uint8Array);
}

const utf8 = new TextDecoder('utf-8');

/** The text of the single selected column of `row`. */
function cellText(row: unknown, column: 'key' | 'value'): string {
  let cell: unknown;
  if (Array.isArray(row)) cell = row[0];
  else if (row !== null && typeof row === 'object' && column in row)
    cell = (row as Record<string, unknown>)[column];
  else throw new TypeError(`SqlDatabase: query() answered a row without a "${column}" column`);
  if (typeof cell === 'string') return cell;
  if (cell instanceof Uint8Array) return utf8.decode(cell);
  if (typeof cell === 'number' || typeof cell === 'bigint') return String(cell);
  throw new TypeError(
    `SqlDatabase: query() answered a "${column}" cell of type ${cell === null ? 'null' : typeof cell}`,
  );
}
