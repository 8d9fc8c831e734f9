/**
 * `store.load()` never damages or leaks what the store holds, against a real DuckDB file: columns
 * of types the store did not create keep their type (values are converted on the way in, or the
 * load is refused with a named error and nothing is written), lists of objects lose their
 * secrets like records do, and keys that differ only by case get a clear error.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ColumnCaseError, ColumnTypeError, type Store } from '../../src/data/index.js';
import { toFlatRecord } from '../../src/rows/flat-rows.js';
import { caught } from '../support/caught.js';
import { useTempStore } from '../support/temp-store.js';

const temp = useTempStore('scratchlab-load-integrity-');
let store: Store;
beforeAll(() => {
  ({ store } = temp);
});
const typesOf = temp.typesOf;

describe('columns the store did not create', () => {
  const made = {
    id: 'BIGINT',
    amount: 'DECIMAL(38,10)',
    big: 'HUGEINT',
    small: 'INTEGER',
    note: 'VARCHAR',
    day: 'DATE',
  };

  it('keep their type, the records’ values converted into it, the columns they never touch too', async () => {
    await store.query(
      `create table ledger (id BIGINT, amount DECIMAL(38,10), big HUGEINT, small INTEGER, note VARCHAR, day DATE)`,
    );
    await store.query(
      `insert into ledger values (1, 12345678901234567890.0123456789, 170141183460469231731687303715884105727, 7, 'kept', DATE '2024-05-01')`,
    );
    await store.load('ledger', [
      { id: 2, amount: 0.5, big: 12n ** 30n, small: 3, note: 'new', day: '2024-05-02' },
      { id: 3, amount: '1.0000000001', big: 5, small: 4, note: 'n3' },
    ]);
    // A load that touches only some columns leaves the others as they are too.
    await store.load('ledger', [{ id: 4, note: 'only a note' }]);
    expect(await typesOf('ledger')).toEqual(made);
    const rows = await store.query(
      'select id, amount::VARCHAR as amount, big::VARCHAR as big, small, note, day::VARCHAR as day from ledger order by id',
    );
    expect(rows).toEqual([
      {
        id: 1,
        amount: '12345678901234567890.0123456789',
        big: '170141183460469231731687303715884105727',
        small: 7,
        note: 'kept',
        day: '2024-05-01',
      },
      {
        id: 2,
        amount: '0.5000000000',
        big: String(12n ** 30n),
        small: 3,
        note: 'new',
        day: '2024-05-02',
      },
      { id: 3, amount: '1.0000000001', big: '5', small: 4, note: 'n3', day: null },
      { id: 4, amount: null, big: null, small: null, note: 'only a note', day: null },
    ]);
  });

  it('refuse a value they cannot hold with a ColumnTypeError naming the column, and nothing is written', async () => {
    const before = await store.query('select * from ledger order by id');
    const error = await caught<ColumnTypeError>(
      store.load('ledger', [
        { id: 5, amount: 1, note: 'fine' },
        { id: 6, amount: 'a lot', note: 'not a number' },
      ]),
    );
    expect(error).toBeInstanceOf(ColumnTypeError);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.column).toBe('amount');
    expect(error.columnType).toBe('DECIMAL(38,10)');
    expect(error.message).toMatch(/"amount".*DECIMAL\(38,10\).*"a lot"/);
    // A text where a number was: the column is not widened to VARCHAR, and the load left no row.
    expect(await typesOf('ledger')).toEqual(made);
    expect(await store.query('select * from ledger order by id')).toEqual(before);
    // A resumable load (a transaction per batch) refuses the batch whole as well.
    const resumed = await caught(
      store.load('ledger', [{ id: 7, big: 'huge' }], { resume: 'bad big', batchSize: 1 }),
    );
    expect(resumed).toBeInstanceOf(ColumnTypeError);
    expect(await store.query('select * from ledger order by id')).toEqual(before);
  });
});

describe('secrets', () => {
  it('are left out of lists of objects, as out of records', async () => {
    const record = {
      id: 1,
      token: 'top-level-secret',
      items: [
        { name: 'a', token: 'list-secret-1' },
        { name: 'b', nested: { project_token: 'list-secret-2' } },
      ],
      deep: [[{ password: 'list-secret-3', keep: 1 }]],
      plain: ['x', 'y'],
    };
    const flat = toFlatRecord(record);
    expect(JSON.stringify(flat)).not.toMatch(/secret/);
    await store.load('with_lists', [record]);
    const [row] = await store.query('select * from with_lists');
    expect(JSON.stringify(row)).not.toMatch(/secret/);
    expect(row).toEqual({
      id: 1,
      items: ['{"name":"a"}', '{"name":"b","nested":{}}'],
      deep: ['[{"keep":1}]'],
      plain: ['x', 'y'],
    });
  });
});

describe('keys that differ only by case', () => {
  it('in one record: a ColumnCaseError naming both, before anything is written', async () => {
    const error = await caught<ColumnCaseError>(
      store.load('cased', [
        { id: 1, title: 'fine' },
        { id: 2, Title: 'Upper', title: 'lower' },
      ]),
    );
    expect(error).toBeInstanceOf(ColumnCaseError);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.keys).toEqual(['Title', 'title']);
    expect(error.message).toMatch(/"Title" and "title"/);
    expect((await store.tables()).map((table) => table.name)).not.toContain('cased');
  });

  it('in different records: one column, as SQL names it (its name ignores case)', async () => {
    await store.load('cased', [{ id: 1, Title: 'first' }]);
    await store.load('cased', [
      { id: 2, title: 'second' },
      { id: 3, TITLE: 'third' },
    ]);
    expect(await typesOf('cased')).toEqual({ id: 'BIGINT', Title: 'VARCHAR' });
    expect(await store.query('select id, title from cased order by id')).toEqual([
      { id: 1, Title: 'first' },
      { id: 2, Title: 'second' },
      { id: 3, Title: 'third' },
    ]);
  });
});

describe('a batch that needs a wider table', () => {
  it('after earlier batches of the same load: none of their rows is lost or written twice', async () => {
    const records = Array.from({ length: 25 }, (_, i) => ({
      id: i + 1,
      n: i === 17 ? 'seventeen' : i,
      ...(i >= 21 ? { late: true } : {}),
    }));
    const result = await store.load('widened_later', records, { batchSize: 4 });
    expect(result).toMatchObject({ rows: 25, pages: 7 });
    expect(await typesOf('widened_later')).toEqual({ id: 'BIGINT', n: 'VARCHAR', late: 'BOOLEAN' });
    const rows = await store.query('select * from widened_later order by id');
    expect(rows).toEqual(records.map((r) => ({ id: r.id, n: String(r.n), late: r.late ?? null })));
    // Again by key, the same ids with wider values: each row replaced once.
    await store.load(
      'widened_later',
      records.map((r) => ({ ...r, n: r.id === 3 ? 3.5 : r.n })),
      { batchSize: 4 },
    );
    const again = await store.query('select id, n from widened_later order by id');
    expect(again).toHaveLength(25);
    expect(again[2]).toEqual({ id: 3, n: '3.5' });
  });
});

describe('batches longer than a data chunk (2048 rows)', () => {
  it('store every value of every type across chunk ends, nulls and lists included, and a late misfit rewrites the batch whole', async () => {
    const t0 = Date.UTC(2024, 4, 1);
    const records = Array.from({ length: 5000 }, (_, i) => ({
      id: i + 1,
      title: i % 7 === 0 ? null : `t${i}`,
      score: i % 3 === 0 ? null : i / 4,
      ok: i % 2 === 0,
      at: i % 11 === 0 ? null : new Date(t0 + i * 1000),
      tags: i % 5 === 0 ? null : i % 5 === 1 ? [] : [`a${i}`, `b${i}`],
      counts: [i, i + 1],
      // Row 4097 of the first batch needs a wider column: the batch's earlier chunks are dropped and written again.
      n: i === 4097 ? 'many' : i,
    }));
    const result = await store.load('chunked', records, { batchSize: 4500 });
    expect(result).toMatchObject({ rows: 5000, pages: 2 });
    expect(await typesOf('chunked')).toEqual({
      id: 'BIGINT',
      title: 'VARCHAR',
      score: 'DOUBLE',
      ok: 'BOOLEAN',
      at: 'TIMESTAMP',
      tags: 'VARCHAR[]',
      counts: 'BIGINT[]',
      n: 'VARCHAR',
    });
    const rows = await store.query('select * from chunked order by id', [], { maxRows: 5000 });
    expect(rows).toHaveLength(5000);
    expect([...rows]).toEqual(records.map((r) => ({ ...r, n: String(r.n) })));
  });
});
