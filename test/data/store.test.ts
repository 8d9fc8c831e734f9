/**
 * The DuckDB store against the sandbox and a real database file: loads of every list kind
 * (paged list, record list, array, iterable, async iterable), columns named as `toRows()` names
 * them, lists kept, type widening, upsert by key, queries with parameters, exports read back.
 */
import { existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LiveQuery, openStore, type Store } from '../../src/data/index.js';
import { stagingFolder } from '../../src/data/staged-load.js';
import { RecordList } from '../../src/index.js';
import { useSandbox } from '../support/sandbox.js';
import { useTempStore } from '../support/temp-store.js';

const ctx = useSandbox();
const temp = useTempStore('scratchlab-store-');
let dir: string;
let store: Store;
beforeAll(() => {
  ({ store, dir } = temp);
});
const typesOf = temp.typesOf;

describe('load', () => {
  it('walks a paged list into a table page by page, columns named as toRows() names them', async () => {
    const session = ctx.anonymous();
    const studio = ctx.sandbox.samples.studio;
    const progress: number[] = [];
    const result = await store.load('studio_projects', session.studios.projects(studio), {
      onProgress: (p) => progress.push(p.rows),
    });
    const expected = await session.studios.projects(studio).all();
    expect(result.rows).toBe(expected.length);
    expect(result.pages).toBe(Math.ceil(expected.length / 40));
    expect(progress.at(-1)).toBe(expected.length);
    const rows = await store.query('select * from studio_projects order by id');
    expect(rows).toBeInstanceOf(RecordList);
    expect(rows.map((r) => r.id)).toEqual(expected.map((p) => p.id).sort((a, b) => a - b));
    // The same flat names and values as toRows(), except that times are Dates here.
    const flat = expected.toRows().find((r) => r.id === rows[0]!.id)!;
    for (const [name, value] of Object.entries(flat)) {
      const stored = rows[0]![name];
      expect(stored instanceof Date ? stored.toISOString() : stored, name).toEqual(
        typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value) ? new Date(value).toISOString() : value,
      );
    }
  });

  it('loads a record list (await list) with nested objects flattened, and an owner’s rows with their author', async () => {
    const session = ctx.anonymous();
    const user = ctx.sandbox.samples.demoUser;
    const list = await session.users.projects(user, { limit: 15 });
    await store.load('user_projects', list);
    const rows =
      await store.sql`select "author.username" as who, count(*) as n from user_projects group by 1`;
    expect(rows).toEqual([{ who: user, n: list.length }]);
    const types = await typesOf('user_projects');
    expect(types.id).toBe('BIGINT');
    expect(types['stats.views']).toBe('BIGINT');
    expect(types['history.created']).toBe('TIMESTAMP');
  });

  it('loads arrays, iterables and async iterables; lists stay lists, dates stay times', async () => {
    const record = (i: number) => ({
      id: i,
      name: `n${i}`,
      tags: [`t${i}`, 'all'],
      scores: [i, i * 2],
      at: new Date(Date.UTC(2024, 0, 1, 0, i)),
      meta: { ok: i % 2 === 0, ratio: i / 4 },
    });
    await store.load('arr', [record(1), record(2)]);
    function* sync() {
      for (let i = 3; i <= 4; i++) yield record(i);
    }
    async function* later() {
      for (let i = 5; i <= 6; i++) yield record(i);
    }
    expect(await store.load('arr', sync())).toMatchObject({ rows: 2, pages: 1 });
    expect(await store.load('arr', later(), { batchSize: 1 })).toMatchObject({ rows: 2, pages: 2 });
    const rows = await store.query('select * from arr order by id');
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rows[1]).toEqual({
      id: 2,
      name: 'n2',
      tags: ['t2', 'all'],
      scores: [2, 4],
      at: new Date(Date.UTC(2024, 0, 1, 0, 2)),
      'meta.ok': true,
      'meta.ratio': 0.5,
    });
    expect(await typesOf('arr')).toEqual({
      id: 'BIGINT',
      name: 'VARCHAR',
      tags: 'VARCHAR[]',
      scores: 'BIGINT[]',
      at: 'TIMESTAMP',
      'meta.ok': 'BOOLEAN',
      'meta.ratio': 'DOUBLE',
    });
  });

  it('widens a column when a later value does not fit, and adds columns that appear later', async () => {
    await store.load('wide', [{ k: 1, n: 1, t: '2024-01-01T00:00:00.000Z', l: [1] }], { key: false });
    expect(await typesOf('wide')).toEqual({ k: 'BIGINT', n: 'BIGINT', t: 'TIMESTAMP', l: 'BIGINT[]' });
    await store.load('wide', [{ k: 2, n: 2.5, t: 'soon', l: [1.5], extra: true }], { key: false });
    expect(await typesOf('wide')).toEqual({
      k: 'BIGINT',
      n: 'DOUBLE',
      t: 'VARCHAR',
      l: 'DOUBLE[]',
      extra: 'BOOLEAN',
    });
    await store.load('wide', [{ k: 3, n: 'many', l: 'none' }], { key: false });
    expect(await typesOf('wide')).toEqual({
      k: 'BIGINT',
      n: 'VARCHAR',
      t: 'VARCHAR',
      l: 'VARCHAR',
      extra: 'BOOLEAN',
    });
    const rows = await store.query('select * from wide order by k');
    expect(rows).toEqual([
      { k: 1, n: '1.0', t: '2024-01-01T00:00:00.000Z', l: '[1.0]', extra: null },
      { k: 2, n: '2.5', t: 'soon', l: '[1.5]', extra: true },
      { k: 3, n: 'many', t: null, l: 'none', extra: null },
    ]);
  });

  it('updates rows by key on a reload (default id; any flat column by option) instead of adding them', async () => {
    await store.load('people', [
      { id: 1, name: 'a', stats: { n: 1 } },
      { id: 2, name: 'b', stats: { n: 2 } },
    ]);
    await store.load('people', [
      { id: 2, name: 'B', stats: { n: 20 } },
      { id: 3, name: 'c', stats: { n: 3 } },
      { id: 3, name: 'C', stats: { n: 30 } },
    ]);
    expect(await store.query('select id, name, "stats.n" as n from people order by id')).toEqual([
      { id: 1, name: 'a', n: 1 },
      { id: 2, name: 'B', n: 20 },
      { id: 3, name: 'C', n: 30 },
    ]);
    await store.load('by_name', [{ who: { name: 'x' }, v: 1 }], { key: 'who.name' });
    await store.load('by_name', [{ who: { name: 'x' }, v: 2 }], { key: 'who.name' });
    expect(await store.query('select * from by_name')).toEqual([{ 'who.name': 'x', v: 2 }]);
    await expect(store.load('people', [{ name: 'no id' }], { key: 'id' })).rejects.toThrow(/has no "id"/);
    await expect(store.load('people', 42 as never)).rejects.toThrow(TypeError);
  });
});

describe('query', () => {
  it('binds parameters: positional, named, and the values of the sql template (never text in the SQL)', async () => {
    const name = "B'; drop table people; --";
    expect(await store.query('select id from people where id > $1 order by id', [1])).toEqual([
      { id: 2 },
      { id: 3 },
    ]);
    expect(await store.query('select id from people where name = $who', { who: 'C' })).toEqual([{ id: 3 }]);
    expect(await store.sql`select count(*) as n from people where name = ${name}`).toEqual([{ n: 0 }]);
    expect(await store.sql`select count(*) as n from people`).toEqual([{ n: 3 }]);
    const at = new Date(Date.UTC(2024, 0, 1, 0, 3));
    expect(
      await store.sql`select id from arr where "at" <= ${at} and ${'all'} = any(tags) order by id`,
    ).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it('answers BIGINT as a number when safe, else as text; timestamps as Date; a table, CSV and JSON', async () => {
    const [row] = await store.query(
      "select 42::BIGINT as small, 9007199254740993::BIGINT as big, timestamp '2024-05-01 12:00:00' as at, [1, 2]::BIGINT[] as l",
    );
    expect(row).toEqual({
      small: 42,
      big: '9007199254740993',
      at: new Date('2024-05-01T12:00:00Z'),
      l: [1, 2],
    });
    const rows = await store.query('select id, name from people order by id');
    expect(rows.toCSV()).toBe('id,name\r\n1,a\r\n2,B\r\n3,C\r\n');
    const saved = await rows.save(join(dir, 'people.json'));
    expect(JSON.parse(readFileSync(saved.path, 'utf8'))).toEqual([
      { id: 1, name: 'a' },
      { id: 2, name: 'B' },
      { id: 3, name: 'C' },
    ]);
    await expect(store.query('select * from range(10)', [], { maxRows: 5 })).rejects.toThrow(
      /more than 5 rows/,
    );
    await expect(store.query('select nope from people')).rejects.toThrow(/nope/);
  });
});

describe('export and import', () => {
  it('writes Parquet, CSV and JSON that read back to the same rows', async () => {
    const original = await store.query('select * from arr order by id');
    for (const file of ['arr.parquet', 'arr.csv', 'arr.json', 'arr.jsonl']) {
      const saved = await store.export('arr', join(dir, file));
      expect(saved.bytes).toBeGreaterThan(0);
      const table = `back_${file.replace('.', '_')}`;
      const imported = await store.import(join(dir, file), table);
      expect(imported.rows).toBe(original.length);
      const back = await store.query(`select id, name from ${table} order by id`);
      expect(back).toEqual(original.map((r) => ({ id: r.id, name: r.name })));
    }
    const parquet = await store.query('select * from back_arr_parquet order by id');
    expect(parquet).toEqual(original);
    await expect(store.export('arr', join(dir, 'arr.xlsx'))).rejects.toThrow(/\.parquet/);
  });

  it('exports a query with parameters as a Hive-partitioned folder by day, which imports back whole', async () => {
    const folder = join(dir, 'by_day');
    await store.exportQuery(`select *, strftime("at", '%Y-%m-%d') as day from arr where id <= $1`, folder, {
      params: [4],
      partitionBy: 'day',
    });
    expect(readdirSync(folder).sort()).toEqual(['day=2024-01-01']);
    await store.import(folder, 'by_day');
    expect(
      (await store.query('select id, day::VARCHAR as day from by_day order by id')).map(
        (r) => `${r.id} ${r.day}`,
      ),
    ).toEqual(['1 2024-01-01', '2 2024-01-01', '3 2024-01-01', '4 2024-01-01']);
    // Exporting again replaces the folder.
    await store.exportQuery('select 1 as x, 2 as day', folder, { partitionBy: ['day'] });
    expect(readdirSync(folder)).toEqual(['day=2']);
  });

  it('takes a table name as a name, whatever it starts with, and never runs it as SQL', async () => {
    await store.load('selections', [{ id: 1, name: 'a' }]);
    await store.load('withdrawals', [{ id: 2, name: 'b' }]);
    await store.load('values_by_day', [{ id: 3, name: 'c' }]);
    for (const table of ['selections', 'withdrawals', 'values_by_day']) {
      const saved = await store.export(table, join(dir, `${table}.json`));
      expect(JSON.parse(readFileSync(saved.path, 'utf8'))).toHaveLength(1);
    }
    await expect(store.export('select * from arr', join(dir, 'x.json'))).rejects.toThrow(
      'export(): the store has no table "select * from arr" (a query is exported with exportQuery(sql, file))',
    );
    // A query longer than a table name may be is still a query.
    const long = `select id from arr where ${Array.from({ length: 40 }, (_, i) => `id <> ${1000 + i}`).join(' and ')}`;
    expect(long.length).toBeGreaterThan(200);
    const saved = await store.exportQuery(long, join(dir, 'long.json'));
    expect(JSON.parse(readFileSync(saved.path, 'utf8')).length).toBe(
      (await store.query('select * from arr')).length,
    );
  });

  it('never writes over its own files (the database, its log, lock and staging folder, through a link too)', async () => {
    await store.load('kept', [{ id: 1 }]);
    const own = join(dir, 'test.duckdb');
    symlinkSync(own, join(dir, 'link.parquet'));
    for (const [file, options] of [
      [own, { format: 'parquet' }],
      [`${own}.wal`, { format: 'csv' }],
      [join(`${own}.lock`, 'x.csv'), {}],
      [`${own}.loads`, { partitionBy: 'id' }],
      [join(dir, 'link.parquet'), {}],
    ] as const) {
      await expect(store.export('kept', file, options)).rejects.toThrow(
        /cannot write over the store's own file/,
      );
      await expect(store.exportQuery('select 1 as id', file, options)).rejects.toThrow(TypeError);
    }
    expect((await store.query('select count(*)::int as n from kept'))[0]).toEqual({ n: 1 });
  });

  it('names a target it cannot write: a missing folder, or a folder where the file goes', async () => {
    await expect(store.export('kept', join(dir, 'no-such-folder', 'x.parquet'))).rejects.toThrow(
      /export\(\): the folder .*no-such-folder does not exist/,
    );
    await expect(store.exportQuery('select 1 as id', dir, { format: 'csv' })).rejects.toThrow(
      /is a folder; name a file/,
    );
    expect((await store.query('select count(*)::int as n from kept'))[0]).toEqual({ n: 1 });
  });

  it('lists its tables without its own bookkeeping', async () => {
    const tables = await store.tables();
    const names = tables.map((t) => t.name);
    expect(names).toContain('people');
    expect(names.some((n) => n.startsWith('_scratchlab'))).toBe(false);
    expect(tables.find((t) => t.name === 'people')).toMatchObject({ rows: 3, columns: 3 });
  });
});

describe('close', () => {
  it('answers once every queued operation has run, twice at once included; nothing opens the file after it', async () => {
    const other = await openStore(join(dir, 'closing.duckdb'));
    await other.query('create table t as select range i from range(1000)');
    let done = 0;
    const queued = Array.from({ length: 200 }, () =>
      other.query('select sum(i) from t, range(20000)').then(() => done++),
    );
    // Closed while the queue runs: some answered, most still queued.
    while (done === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBeLessThan(200);
    await Promise.all([other.close(), other.close().then(() => expect(done).toBe(200))]);
    expect(done).toBe(200);
    await Promise.all(queued);
    await expect(other.query('select 1')).rejects.toThrow(/is closed/);
    expect(existsSync(join(dir, 'closing.duckdb.lock'))).toBe(false);
  });
});

describe('close during a load', () => {
  it("refuses the load's move into the closed store and removes its staging file", async () => {
    const file = join(dir, 'loading.duckdb');
    const other = await openStore(file);
    await other.load('t', [{ id: 0 }]);
    let closing: Promise<number> | undefined;
    async function* rows() {
      for (let id = 1; id <= 20_000; id++) {
        yield { id };
        if (id === 10_000) closing = other.close();
      }
    }
    await expect(other.load('t', rows())).rejects.toThrow(/is closed/);
    await closing;
    expect(readdirSync(stagingFolder(file))).toEqual([]);
    const again = await openStore(file);
    expect((await again.query('select count(*)::int as n from t'))[0]).toEqual({ n: 1 });
    await again.close();
  });
});

describe('live queries', () => {
  it('refuse a period no timer keeps (it would query every millisecond), as a recorder does, and a window past any date', async () => {
    const onRows = () => {};
    expect(() => new LiveQuery(store, { sql: 'select 1', every: 1e7 }, onRows)).toThrow(RangeError);
    expect(() => new LiveQuery(store, { table: 'kept', window: 1e300 }, onRows)).toThrow(RangeError);
    const cloud = { connect: async () => {} } as unknown as Parameters<Store['recordCloud']>[0];
    await expect(store.recordCloud(cloud, { interval: 1e7 })).rejects.toThrow(/interval must be at most/);
    const query = new LiveQuery(store, { sql: 'select 1 as n', every: 86_400 }, onRows);
    await query.start();
    await query.stop();
    expect(query.rows).toEqual([{ n: 1 }]);
  });
});
