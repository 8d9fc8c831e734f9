/**
 * SqlDatabase against real engines: SQLite (better-sqlite3, a temp file) and private PostgreSQL
 * and MariaDB servers started for this file (test/support/db-servers.ts). MariaDB is driven
 * twice: through mysql2 as dialect `mysql` and through the mariadb connector as `mariadb`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import mariadb from 'mariadb';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlDatabase, type SqlDialect, type SqlQuery } from '../../src/databases/sql-database.js';
import { databaseContract } from '../support/database-contract.js';
import { startMariaDb, startPostgres, type TestServer } from '../support/db-servers.js';

/** One engine as the tests see it. */
interface Engine {
  dialect: SqlDialect;
  /** The glue a user would write (the README's snippets). */
  query: SqlQuery;
  /** The same driver answering with rows as arrays of cells instead of objects. */
  arrayQuery: SqlQuery;
  /** Runs SQL directly, to look at the tables behind the adapter's back. */
  raw(sql: string): Promise<Record<string, unknown>[]>;
  /** Quotes an identifier the way the engine does. */
  quote(name: string): string;
}

let dir: string;
let postgres: TestServer;
let maria: TestServer;
const closers: (() => unknown)[] = [];
const engines = new Map<string, Engine>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scratchlab-sql-'));
  [postgres, maria] = await Promise.all([startPostgres(), startMariaDb()]);

  // SQLite through better-sqlite3: statements without rows go through run().
  const sqlite = new BetterSqlite3(join(dir, 'test.db'));
  closers.push(() => sqlite.close());
  const sqliteQuery: SqlQuery = (sql, params) => {
    const statement = sqlite.prepare(sql);
    return statement.reader ? statement.all(...params) : statement.run(...params);
  };
  engines.set('sqlite', {
    dialect: 'sqlite',
    query: sqliteQuery,
    arrayQuery: (sql, params) => {
      const statement = sqlite.prepare(sql);
      return statement.reader ? statement.raw(true).all(...params) : statement.run(...params);
    },
    raw: async (sql) => sqlite.prepare(sql).all() as Record<string, unknown>[],
    quote: (name) => `"${name}"`,
  });

  // PostgreSQL through pg: the result object carries `rows`.
  const pool = new pg.Pool({ ...postgres, max: 8 });
  // An idle client whose server goes away reports it here instead of crashing the run.
  pool.on('error', () => undefined);
  closers.push(() => pool.end());
  engines.set('postgres', {
    dialect: 'postgres',
    query: (sql, params) => pool.query(sql, params),
    arrayQuery: (sql, params) => pool.query({ text: sql, values: params, rowMode: 'array' }),
    raw: async (sql) => (await pool.query(sql)).rows,
    quote: (name) => `"${name}"`,
  });

  // MariaDB through mysql2 (dialect mysql): answers are [rows, fields].
  const mysqlPool = mysql.createPool({ ...maria, connectionLimit: 8 });
  closers.push(() => mysqlPool.end());
  engines.set('mysql', {
    dialect: 'mysql',
    query: (sql, params) => mysqlPool.query(sql, params),
    arrayQuery: (sql, params) => mysqlPool.query({ sql, values: params, rowsAsArray: true }),
    raw: async (sql) => (await mysqlPool.query(sql))[0] as Record<string, unknown>[],
    quote: (name) => `\`${name}\``,
  });

  // MariaDB through the mariadb connector: answers are row arrays.
  const mariaPool = mariadb.createPool({ ...maria, connectionLimit: 8 });
  closers.push(() => mariaPool.end());
  engines.set('mariadb', {
    dialect: 'mariadb',
    query: (sql, params) => mariaPool.query(sql, params),
    arrayQuery: (sql, params) => mariaPool.query({ sql, rowsAsArray: true }, params),
    raw: async (sql) => (await mariaPool.query(sql)) as Record<string, unknown>[],
    quote: (name) => `\`${name}\``,
  });
}, 60_000);

afterAll(async () => {
  // Every pool is closed before the servers stop, even if one of them fails to close.
  const closed = await Promise.allSettled(closers.map(async (close) => close()));
  const failed = closed.filter((result) => result.status === 'rejected');
  await Promise.all([postgres?.stop(), maria?.stop()]);
  if (dir) await rm(dir, { recursive: true, force: true });
  expect(failed).toEqual([]);
}, 30_000);

describe('SqlDatabase options', () => {
  const query: SqlQuery = () => [];

  it('defaults the table and names the database after it', () => {
    const db = new SqlDatabase({ dialect: 'sqlite', query });
    expect(db.table).toBe('scratchlab_storage');
    expect(db.name).toBe('scratchlab_storage');
    expect(new SqlDatabase({ dialect: 'postgres', query, table: 'scores' }).name).toBe('scores');
    expect(new SqlDatabase({ dialect: 'mysql', query, table: 'scores', name: 'top' }).name).toBe('top');
  });

  it('refuses unknown dialects, missing query functions and weird table names', () => {
    expect(() => new SqlDatabase({ dialect: 'oracle' as SqlDialect, query })).toThrow(
      /dialect must be one of/,
    );
    expect(() => new SqlDatabase({ dialect: 'sqlite' } as { dialect: SqlDialect; query: SqlQuery })).toThrow(
      /query must be a function/,
    );
    const weird = [
      '',
      'a-b',
      'x; DROP TABLE y',
      '1abc',
      'a.b',
      '"x"',
      '`x`',
      'a b',
      'é',
      'a'.repeat(64),
      "t'",
    ];
    for (const table of weird) {
      expect(() => new SqlDatabase({ dialect: 'postgres', query, table }), table).toThrow(
        /is not a plain name/,
      );
    }
    expect(() => new SqlDatabase({ dialect: 'postgres', query, table: 5 as unknown as string })).toThrow(
      TypeError,
    );
    expect(() => new SqlDatabase({ dialect: 'postgres', query, table: 'SQLite_master' })).toThrow(/reserves/);
    expect(() => new SqlDatabase({ dialect: 'sqlite', query, name: '' })).toThrow(RangeError);
    expect(new SqlDatabase({ dialect: 'sqlite', query, table: `_${'a'.repeat(62)}` }).table).toHaveLength(63);
  });
});

for (const label of ['sqlite', 'postgres', 'mysql', 'mariadb']) {
  describe(`SqlDatabase (${label})`, () => {
    // mysql and mariadb share one server: every table name carries the label.
    let n = 0;
    const engine = () => engines.get(label)!;
    const fresh = (table = `t_${label}_${++n}`) =>
      new SqlDatabase({ dialect: engine().dialect, query: engine().query, table });

    databaseContract(() => fresh());

    it('creates its table once, lazily, and reuses an existing one', async () => {
      const seen: string[] = [];
      const counting: SqlQuery = (sql, params) => {
        seen.push(sql);
        return engine().query(sql, params);
      };
      const db = new SqlDatabase({ dialect: engine().dialect, query: counting, table: `t_${label}_once` });
      expect(seen).toEqual([]);
      await Promise.all([db.get('a'), db.set('a', '1'), db.keys(), db.set('b', '2')]);
      await db.get('a');
      expect(seen.filter((sql) => sql.startsWith('CREATE TABLE'))).toHaveLength(1);
      // A second adapter on the same table finds it and its data.
      const again = new SqlDatabase({ dialect: engine().dialect, query: counting, table: `t_${label}_once` });
      expect(await again.get('a')).toBe('1');
      expect(await again.keys()).toEqual(['a', 'b']);
      expect(seen.filter((sql) => sql.startsWith('CREATE TABLE'))).toHaveLength(2);
    });

    it('tries the table creation again after a failure', async () => {
      let fail = true;
      const flaky: SqlQuery = (sql, params) => {
        if (fail && sql.startsWith('CREATE TABLE')) {
          fail = false;
          return Promise.reject(new Error('connection lost'));
        }
        return engine().query(sql, params);
      };
      const db = new SqlDatabase({ dialect: engine().dialect, query: flaky, table: `t_${label}_flaky` });
      await expect(db.set('a', '1')).rejects.toThrow('connection lost');
      await db.set('a', '1');
      expect(await db.get('a')).toBe('1');
    });

    it('quotes custom table names, reserved words and mixed case included', async () => {
      const reserved = label === 'mariadb' ? ['order', 'Group'] : ['select', 'Order'];
      for (const table of [...reserved, `MixedCase_${label}`, `_${label}`]) {
        const db = fresh(table);
        await db.set('k', table);
        expect(await db.get('k')).toBe(table);
        const rows = await engine().raw(`SELECT ${engine().quote('value')} FROM ${engine().quote(table)}`);
        expect(rows.map((row) => String(row.value))).toEqual([table]);
      }
    });

    it('keeps adapters on different tables independent', async () => {
      const a = fresh(`t_${label}_a`);
      const b = fresh(`t_${label}_b`);
      await a.set('k', 'in a');
      await b.set('k', 'in b');
      await b.set('only b', 'x');
      expect(await a.get('k')).toBe('in a');
      expect(await b.get('k')).toBe('in b');
      expect(await a.keys()).toEqual(['k']);
      expect(await b.keys()).toEqual(['k', 'only b']);
    });

    it('leaves the table standing after injection-looking keys', async () => {
      const victim = `t_${label}_victim`;
      const db = fresh(victim);
      await db.set('safe', '1');
      await db.set(`'; DROP TABLE ${victim}; --`, '2');
      await db.set('x', `1'); DROP TABLE ${victim}; --`);
      const rows = await engine().raw(`SELECT COUNT(*) AS n FROM ${engine().quote(victim)}`);
      expect(Number(rows[0]!.n)).toBe(3);
    });

    it('reads rows answered as arrays of cells', async () => {
      const table = `t_${label}_array_rows`;
      await fresh(table).set('k', 'v 😀');
      const db = new SqlDatabase({ dialect: engine().dialect, query: engine().arrayQuery, table });
      expect(await db.get('k')).toBe('v 😀');
      expect(await db.get('none')).toBeUndefined();
      await db.set('j', 'w');
      expect(await db.keys()).toEqual(['j', 'k']);
    });

    it('writes one row per key with the declared key column', async () => {
      const db = fresh(`t_${label}_layout`);
      await db.set('k', 'v');
      await db.set('k', 'w');
      const rows = await engine().raw(`SELECT * FROM ${engine().quote(`t_${label}_layout`)}`);
      expect(rows).toHaveLength(1);
      expect(Object.keys(rows[0]!).sort()).toEqual(['key', 'value']);
    });
  });
}
