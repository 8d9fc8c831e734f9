/**
 * A load writes records of the first batch's shape straight into its data chunks, and sends any
 * batch with a record of another shape through flat rows: against a real DuckDB file, a load in
 * many small batches (the direct way after the first) stores exactly what the same records in one
 * batch (flat rows only) store, whatever changes from batch to batch.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ColumnCaseError, type Store } from '../../src/data/index.js';
import { caught } from '../support/caught.js';
import { useTempStore } from '../support/temp-store.js';

const temp = useTempStore('scratchlab-load-shapes-');
let store: Store;
beforeAll(() => {
  ({ store } = temp);
});

const T0 = Date.UTC(2024, 4, 1);

/** A record of the settled shape. */
function plain(i: number): Record<string, unknown> {
  return {
    id: i,
    title: `t${i}`,
    author: { id: i % 3, username: `u${i % 3}` },
    score: i / 4,
    at: new Date(T0 + i * 1000),
    tags: [`a${i}`],
  };
}

/** Loads `records` in batches of 2 and in one batch; answers both tables' types and rows. */
async function bothWays(name: string, records: readonly unknown[], options: { key?: false } = {}) {
  const small = await store.load(`${name}_small`, records, { ...options, batchSize: 2 });
  const whole = await store.load(`${name}_whole`, records, { ...options, batchSize: 1000 });
  expect(small.rows).toBe(whole.rows);
  const read = async (table: string) => ({
    types: await temp.typesOf(table),
    rows: await store.query(`select * from ${table} order by id`, [], { maxRows: 10_000 }),
  });
  return { small: await read(`${name}_small`), whole: await read(`${name}_whole`) };
}

describe('records whose shape changes after the first batch', () => {
  it('store the same columns, types and rows as one batch does', async () => {
    const records: Record<string, unknown>[] = Array.from({ length: 40 }, (_, i) => plain(i + 1));
    // A key more, a key less, keys in another order, a value that becomes an object and back.
    records[5] = { ...plain(6), extra: 'late' };
    delete records[9]!.score;
    records[12] = {
      title: 't13',
      id: 13,
      author: { username: 'u1', id: 1 },
      score: 3.25,
      at: null,
      tags: [],
    };
    records[15] = { ...plain(16), tags: { nested: 1 } };
    records[16] = { ...plain(17), author: 'someone' };
    // Values that need wider columns (a text in the first batch: a number widened to text later
    // is written as DuckDB casts it, "1.0", in both ways), a list of objects, secrets, an invalid
    // date, a bigint.
    records[1] = { ...plain(2), score: 'many' };
    records[20] = { ...plain(21), author: { id: 2.5, username: 'u2' } };
    records[22] = { ...plain(23), tags: [{ name: 'x', token: 'secret-1' }] };
    records[24] = { ...plain(25), token: 'secret-2' };
    records[26] = { ...plain(27), at: new Date(Number.NaN) };
    records[28] = { ...plain(29), score: 2n ** 70n, title: Number.POSITIVE_INFINITY };
    records[30] = { ...plain(31), author: { id: 1, username: 'u1', project_token: 'secret-3' } };
    // Inherited keys are not the record's: left out both ways.
    records[33] = Object.assign(Object.create({ inherited: 'not stored' }), plain(34));
    // A key only ever null has no column; its first value (a later batch) makes one.
    for (let i = 0; i < 40; i++) records[i]!.later = i === 37 ? 'at last' : null;
    const { small, whole } = await bothWays('changing', records);
    expect(small).toEqual(whole);
    expect(small.rows).toHaveLength(40);
    expect(
      JSON.stringify(small.rows, (_key, value: unknown) =>
        typeof value === 'bigint' ? String(value) : value,
      ),
    ).not.toMatch(/secret/);
    expect(small.types).toMatchObject({
      id: 'BIGINT',
      score: 'VARCHAR',
      extra: 'VARCHAR',
      'author.username': 'VARCHAR',
    });
    expect(small.rows[5]).toMatchObject({ id: 6, extra: 'late' });
    expect(small.rows[26]).toMatchObject({ id: 27, at: null });
    expect(Object.keys(small.types)).not.toContain('inherited');
    expect(small.rows[37]).toMatchObject({ id: 38, later: 'at last' });
  });

  it('of the settled shape store every value as flat rows would, appended (key: false) too', async () => {
    const records = Array.from({ length: 30 }, (_, i) => ({
      ...plain(i + 1),
      // Secrets of the settled shape are left out on the direct way too, in lists as well.
      token: `secret-${i}`,
      items: [{ name: `n${i}`, token: `secret-item-${i}` }],
      flag: i % 2 === 0,
      none: i % 3 === 0 ? null : i,
      // Only ever null: no column, on either way.
      never: null,
    }));
    const { small, whole } = await bothWays('settled', records, { key: false });
    expect(small).toEqual(whole);
    expect(Object.keys(small.types)).not.toContain('token');
    expect(Object.keys(small.types)).not.toContain('never');
    expect(small.rows[1]).toEqual({
      id: 2,
      title: 't2',
      'author.id': 2,
      'author.username': 'u2',
      score: 0.5,
      at: new Date(T0 + 2000),
      tags: ['a2'],
      items: ['{"name":"n1"}'],
      flag: false,
      none: 1,
    });
  });
});

describe('keys named like Object.prototype’s', () => {
  it('__proto__ and constructor are columns like any other, both ways (JSON.parse makes them own keys)', async () => {
    const records = Array.from({ length: 6 }, (_, i) =>
      JSON.parse(`{"id":${i + 1},"__proto__":"p${i}","constructor":[${i},2]}`),
    );
    const { small, whole } = await bothWays('proto_keys', records);
    expect(small).toEqual(whole);
    // A row set with `row.__proto__ = value` had no such key, and a list there became the row's prototype.
    expect(Object.entries(small.types)).toEqual([
      ['id', 'BIGINT'],
      ['__proto__', 'VARCHAR'],
      ['constructor', 'BIGINT[]'],
    ]);
    expect(
      await store.query(
        'select "__proto__" as p, "constructor" as c from proto_keys_small order by id limit 2',
      ),
    ).toEqual([
      { p: 'p0', c: [0, 2] },
      { p: 'p1', c: [1, 2] },
    ]);
    // A query's rows have the column as a key too.
    const [row] = await store.query('select * from proto_keys_small order by id limit 1');
    expect(Object.entries(row!)).toEqual([
      ['id', 1],
      ['__proto__', 'p0'],
      ['constructor', [0, 2]],
    ]);
  });
});

describe('keys of a later batch', () => {
  it('that repeat or go back replace rows by key: the last record of a key wins, once', async () => {
    const records = [
      plain(1),
      plain(2),
      plain(3),
      plain(4),
      { ...plain(4), title: 'again' },
      plain(5),
      plain(6),
      { ...plain(2), title: 'back' },
    ];
    const { small, whole } = await bothWays('rekeyed', records);
    expect(small).toEqual(whole);
    expect(small.rows.map((row) => [row.id, row.title])).toEqual([
      [1, 't1'],
      [2, 'back'],
      [3, 't3'],
      [4, 'again'],
      [5, 't5'],
      [6, 't6'],
    ]);
  });

  it('that are missing fail the load as before, and nothing of it is stored', async () => {
    const records = [plain(1), plain(2), plain(3), { ...plain(4), id: null }];
    const error = await caught<TypeError>(store.load('keyless', records, { batchSize: 2 }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/has no "id"/);
    expect((await store.tables()).map((table) => table.name)).not.toContain('keyless');
  });

  it('with keys that differ by case in a later record: a ColumnCaseError, nothing stored', async () => {
    const records = [plain(1), plain(2), plain(3), { ...plain(4), Title: 'upper' }];
    const error = await caught<ColumnCaseError>(store.load('cased_later', records, { batchSize: 2 }));
    expect(error).toBeInstanceOf(ColumnCaseError);
    expect(error.keys).toEqual(['title', 'Title']);
    expect((await store.tables()).map((table) => table.name)).not.toContain('cased_later');
  });
});

describe('long batches (DuckDB’s appender moves rows into the table by itself every 204,800)', () => {
  it('of 100,000 records: a record of another shape at the end writes no row twice', async () => {
    const n = 200_000;
    const records = Array.from({ length: n }, (_, i) =>
      i === n - 1 ? { v: i, id: i + 1 } : { id: i + 1, v: i },
    );
    const result = await store.load('long_batches', records, { batchSize: n / 2, key: false });
    expect(result).toMatchObject({ rows: n, pages: 2 });
    expect(
      await store.query('select count(*) as n, count(distinct id) as ids, sum(v) as total from long_batches'),
    ).toEqual([{ n, ids: n, total: ((n - 1) * n) / 2 }]);
  }, 120_000);

  it('of more are refused with a RangeError before anything is read', async () => {
    const error = await caught<RangeError>(store.load('too_long', [{ id: 1 }], { batchSize: 100_001 }));
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toMatch(/batchSize/);
    expect((await store.tables()).map((table) => table.name)).not.toContain('too_long');
  });
});
