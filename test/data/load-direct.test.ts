/**
 * `loadInto()`, the load under `store.load()`, straight into one in-memory DuckDB database (no
 * staging file, no store): its options' refusals, its progress reports, a resumable walk's stored
 * progress, the key it chooses and how batches replace rows by it (in a batch, across batches of
 * one load, and against the keys a table already holds), and tables whose columns it did not make.
 * Many small loads on one database: fast enough to run against every mutant of `load.ts`.
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DuckDB, loadDuckDB } from '../../src/data/duckdb-module.js';
import { type LoadOptions, type LoadProgress, loadInto } from '../../src/data/load.js';
import type { LoadSource } from '../../src/data/load-sources.js';
import { WALKS_TABLE } from '../../src/data/walk-progress.js';
import { PagedList } from '../../src/http/paging.js';
import { caught } from '../support/caught.js';

let duck: DuckDB;
let instance: DuckDBInstance;
let tables = 0;

beforeAll(async () => {
  duck = await loadDuckDB();
  instance = await duck.DuckDBInstance.create(':memory:');
});
afterAll(() => instance?.closeSync());

const context = () => ({ duck, connect: () => instance.connect() });

/** A table name no other test uses. */
const fresh = (name: string) => `${name}_${++tables}`;

function load(table: string, source: LoadSource, options?: LoadOptions) {
  return loadInto(context(), table, source, options);
}

/** Runs `sql` and answers its rows as objects (BIGINT as numbers). */
async function rows(sql: string): Promise<Record<string, unknown>[]> {
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(sql);
    return reader
      .getRowObjectsJS()
      .map((row) =>
        Object.fromEntries(
          Object.entries(row).map(([name, value]) => [
            name,
            typeof value === 'bigint' ? Number(value) : value,
          ]),
        ),
      );
  } finally {
    connection.closeSync();
  }
}

const all = (table: string, order = 'id') => rows(`SELECT * FROM ${table} ORDER BY ${order}`);
async function typesOf(table: string): Promise<Record<string, unknown>> {
  const found = await rows(
    `SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = '${table}' ORDER BY column_index`,
  );
  return Object.fromEntries(found.map((row) => [row.column_name, row.data_type]));
}
const exists = async (table: string) =>
  (await rows(`SELECT table_name FROM duckdb_tables() WHERE table_name = '${table}'`)).length === 1;
const walks = (table: string) =>
  rows(
    `SELECT table_name, walk, rows, pages FROM ${WALKS_TABLE} WHERE table_name = '${table}' ORDER BY walk`,
  );

/** An async source of `records` that throws after yielding `upTo` of them. */
async function* failingAfter(records: readonly unknown[], upTo: number) {
  for (const [i, record] of records.entries()) {
    if (i === upTo) throw new Error('the walk broke');
    yield record;
  }
}

/** Records (or rows) of an id and a value: `kv([1, 'a'], [2, 'b'])`. */
const kv = (...pairs: [unknown, unknown][]) => pairs.map(([id, v]) => ({ id, v }));

const numbered = (from: number, to: number, extra: Record<string, unknown> = {}) =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ id: from + i, v: `v${from + i}`, ...extra }));

/**
 * Loads `batches` (each one batch) into `table` and answers, after each batch, how many staging
 * tables the load's own connection holds: a batch that may replace rows goes through one.
 */
async function stagings(
  table: string,
  batches: readonly (readonly unknown[])[],
  options: LoadOptions = {},
): Promise<number[]> {
  let used: DuckDBConnection | undefined;
  const counts: number[] = [];
  const count = async () => {
    const reader = await used!.runAndReadAll(
      "SELECT count(*)::INTEGER FROM duckdb_tables() WHERE temporary AND table_name LIKE '_scratchlab_staging_%'",
    );
    counts.push(reader.getRows()[0]![0] as number);
  };
  async function* source() {
    for (const [i, batch] of batches.entries()) {
      if (i > 0) await count();
      yield* batch;
    }
    await count();
  }
  const connect = async () => {
    used = await instance.connect();
    return used;
  };
  await loadInto({ duck, connect }, table, source(), { ...options, batchSize: batches[0]!.length });
  return counts;
}

const ids = (...keys: (number | string)[]) => keys.map((id) => ({ id, v: `v${id}` }));

describe('options', () => {
  it('are refused with a named error before anything is written', async () => {
    const refusals: [unknown, Error][] = [
      [null, new TypeError('load options must be an object')],
      ['key', new TypeError('load options must be an object')],
      [{ key: '' }, new TypeError('key must be a column name or false, got ""')],
      [{ key: 5 }, new TypeError('key must be a column name or false, got 5')],
      [{ key: true }, new TypeError('key must be a column name or false, got true')],
      [{ resume: '' }, new TypeError('resume must be true, false or the name of a walk, got ""')],
      [{ resume: 1 }, new TypeError('resume must be true, false or the name of a walk, got 1')],
      [{ onProgress: 'log' }, new TypeError('onProgress must be a function, got "log"')],
      [{ signal: {} }, new TypeError('signal must be an AbortSignal')],
      [{ batchSize: 0 }, new RangeError('batchSize must be between 1 and 100,000, got 0')],
      [{ batchSize: 100_001 }, new RangeError('batchSize must be between 1 and 100,000, got 100001')],
      [{ batchSize: 2.5 }, new TypeError('batchSize must be a whole number, got 2.5')],
    ];
    const table = fresh('refused');
    for (const [options, expected] of refusals) {
      const error = await caught<Error>(load(table, [{ id: 1 }], options as LoadOptions));
      expect(error).toEqual(expected);
      expect(error.constructor).toBe(expected.constructor);
    }
    expect(await exists(table)).toBe(false);
  });

  it('take their extremes: a batch of one and of 100,000, a walk by name, key false and a key by name', async () => {
    const table = fresh('extremes');
    expect(await load(table, numbered(1, 3), { batchSize: 1, key: 'v', resume: false })).toEqual({
      rows: 3,
      pages: 3,
      resumedFrom: 0,
    });
    // The file's first load, not a walk: it makes no table of walks' progress.
    expect(await exists(WALKS_TABLE)).toBe(false);
    expect(
      await load(table, numbered(1, 2), {
        batchSize: 100_000,
        key: false,
        resume: 'again',
        signal: undefined,
      }),
    ).toEqual({ rows: 2, pages: 1, resumedFrom: 0 });
    expect((await all(table, 'id, v')).map((row) => row.id)).toEqual([1, 1, 2, 2, 3]);
  });
});

describe('a signal', () => {
  it('stops a load between batches: nothing of it is kept, but a walk’s stored batches', async () => {
    for (const resume of [false, 'w']) {
      const table = fresh('stopped');
      const stop = new AbortController();
      const error = await caught<Error>(
        load(table, numbered(1, 6), {
          batchSize: 2,
          resume,
          signal: stop.signal,
          onProgress: () => stop.abort(new Error('stopped')),
        }),
      );
      expect(error.message).toBe('stopped');
      expect(await exists(table)).toBe(resume !== false);
      if (resume) expect((await all(table)).map((row) => row.id)).toEqual([1, 2]);
    }
  });
});

describe('progress', () => {
  it('is reported after every batch, then once more when done, counting this call’s records', async () => {
    const table = fresh('progress');
    const seen: LoadProgress[] = [];
    const result = await load(table, numbered(1, 5), { batchSize: 2, onProgress: (p) => seen.push(p) });
    expect(result).toEqual({ rows: 5, pages: 3, resumedFrom: 0 });
    expect(seen).toEqual([
      { rows: 2, pages: 1, done: false },
      { rows: 4, pages: 2, done: false },
      { rows: 5, pages: 3, done: false },
      { rows: 5, pages: 3, done: true },
    ]);
    // Nothing to read: only the last report, and no table.
    const none: LoadProgress[] = [];
    expect(await load(fresh('empty'), [], { onProgress: (p) => none.push(p) })).toEqual({
      rows: 0,
      pages: 0,
      resumedFrom: 0,
    });
    expect(none).toEqual([{ rows: 0, pages: 0, done: true }]);
    // An array without a batch size: 5000 records a batch.
    expect(await load(fresh('default'), numbered(1, 5001))).toEqual({ rows: 5001, pages: 2, resumedFrom: 0 });
  });
});

describe('a list with an owner', () => {
  it('names its authors without a username after the owner, in every page', async () => {
    const records = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, author: { id: 7 } }));
    const list = new PagedList(
      async (limit, offset) => records.slice(offset, offset + limit),
      { limit: 5 },
      {},
      { owner: 'ann', pageSize: 2 },
    );
    const table = fresh('owned');
    expect(await load(table, list)).toEqual({ rows: 5, pages: 3, resumedFrom: 0 });
    expect(await all(table)).toEqual(
      records.map((record) => ({ id: record.id, 'author.id': 7, 'author.username': 'ann' })),
    );
  });
});

describe('a resumable walk', () => {
  it('stores each batch with its progress, and goes on from the next record, counting from there', async () => {
    const table = fresh('walked');
    const records = numbered(1, 9);
    const broken = await caught<Error>(load(table, failingAfter(records, 5), { resume: 'w', batchSize: 2 }));
    expect(broken.message).toBe('the walk broke');
    // Two whole batches are in, and say so; the fifth record was read but not stored.
    expect(await walks(table)).toEqual([{ table_name: table, walk: 'w', rows: 4, pages: 2 }]);
    expect((await all(table)).map((row) => row.id)).toEqual([1, 2, 3, 4]);

    // Resumed, broken again: the progress counts the walk's records and pages, not this call's.
    const again = await caught<Error>(load(table, failingAfter(records, 7), { resume: 'w', batchSize: 2 }));
    expect(again.message).toBe('the walk broke');
    expect(await walks(table)).toEqual([{ table_name: table, walk: 'w', rows: 6, pages: 3 }]);

    const seen: LoadProgress[] = [];
    const result = await load(table, records, { resume: 'w', batchSize: 2, onProgress: (p) => seen.push(p) });
    expect(result).toEqual({ rows: 3, pages: 2, resumedFrom: 6 });
    expect(seen.map((p) => p.rows)).toEqual([2, 3, 3]);
    // Finished: forgotten, so the next load of it starts again.
    expect(await walks(table)).toEqual([]);
    expect((await all(table)).map((row) => row.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await load(table, records.slice(0, 1), { resume: 'w' })).toEqual({
      rows: 1,
      pages: 1,
      resumedFrom: 0,
    });
  });

  it('stores the progress of batches of nothing but nulls, which make no table yet', async () => {
    const table = fresh('nulls_first');
    const records = [{ v: null }, { v: null }, { v: 'a' }];
    await caught(load(table, failingAfter(records, 2), { resume: 'w', batchSize: 2 }));
    expect(await walks(table)).toEqual([{ table_name: table, walk: 'w', rows: 2, pages: 1 }]);
    expect(await exists(table)).toBe(false);
    expect(await load(table, records, { resume: 'w', batchSize: 2 })).toEqual({
      rows: 1,
      pages: 1,
      resumedFrom: 2,
    });
    expect(await all(table, 'v')).toEqual([{ v: 'a' }]);
  });

  it('named true is the table’s walk; a load without resume is one transaction, nothing kept when it fails', async () => {
    const table = fresh('named');
    await caught(load(table, failingAfter(numbered(1, 4), 3), { resume: true, batchSize: 1 }));
    expect(await walks(table)).toEqual([{ table_name: table, walk: table, rows: 3, pages: 3 }]);
    expect(await load(table, numbered(1, 4), { resume: true })).toEqual({
      rows: 1,
      pages: 1,
      resumedFrom: 3,
    });

    const whole = fresh('whole');
    await caught(load(whole, failingAfter(numbered(1, 6), 5), { batchSize: 2 }));
    expect(await exists(whole)).toBe(false);
    expect(await walks(whole)).toEqual([]);
  });
});

describe('the key', () => {
  it('is id when the records have one (a null id too, when another record has a value), else none', async () => {
    const keyed = fresh('keyed');
    await load(keyed, kv([1, 'a'], [2, 'b']));
    await load(keyed, kv([2, 'B'], [3, 'c']));
    expect(await all(keyed)).toEqual(kv([1, 'a'], [2, 'B'], [3, 'c']));
    // The first record's id is null: still the key (the second has one), so the null is refused.
    const error = await caught<TypeError>(load(fresh('null_first'), kv([null, 'a'], [1, 'b'])));
    expect(error).toEqual(
      new TypeError('a record has no "id", the key of this load: pass another key, or key: false to append'),
    );
    // Records with no id at all are appended, twice.
    const plain = fresh('plain');
    for (let i = 0; i < 2; i++)
      await load(plain, [
        { name: 'a', id: null },
        { name: 'b', id: null },
      ]);
    expect(await all(plain, 'name')).toEqual([{ name: 'a' }, { name: 'a' }, { name: 'b' }, { name: 'b' }]);
  });

  it('is the table’s id column even when a batch has no id: its records are then refused', async () => {
    const table = fresh('has_id');
    await load(table, [{ id: 1, v: 'a' }]);
    const error = await caught<TypeError>(load(table, [{ v: 'b' }, { v: 'c' }]));
    expect(error.message).toBe(
      'a record has no "id", the key of this load: pass another key, or key: false to append',
    );
    expect(await all(table)).toEqual([{ id: 1, v: 'a' }]);
  });

  it('may be a column the table does not have yet: the batch adds it, and later loads replace by it', async () => {
    const table = fresh('new_key');
    await load(table, [{ id: 1, v: 'a' }]);
    await load(table, [{ id: 2, code: 'x' }], { key: 'code' });
    await load(table, [{ id: 3, code: 'x' }], { key: 'code' });
    expect(await typesOf(table)).toEqual({ id: 'BIGINT', v: 'VARCHAR', code: 'VARCHAR' });
    expect(await all(table)).toEqual([
      { id: 1, v: 'a', code: null },
      { id: 3, v: null, code: 'x' },
    ]);
  });

  it('keeps the last record of a key in a batch, whatever the keys’ kind: equal, falling, mixed, dates', async () => {
    const cases: [string, Record<string, unknown>[], Record<string, unknown>[]][] = [
      ['equal', kv([1, 'a'], [1, 'b']), [{ id: 1, v: 'b' }]],
      ['falling', kv([2, 'a'], [1, 'b'], [2, 'c']), kv([1, 'b'], [2, 'c'])],
      ['mixed', kv([1, 'a'], ['x', 'b'], [1, 'c']), kv(['1', 'c'], ['x', 'b'])],
      ['texts', kv(['a', 'x'], ['b', 'y'], ['a', 'z']), kv(['a', 'z'], ['b', 'y'])],
    ];
    for (const [name, records, expected] of cases) {
      const table = fresh(name);
      for (const batchSize of [1, 3]) {
        await load(table, records, { batchSize });
        expect(await all(table, 'id')).toEqual(expected);
      }
    }
    const day = (d: number) => new Date(Date.UTC(2024, 0, d));
    const dated = fresh('dated');
    await load(
      dated,
      [
        { at: day(2), v: 'a' },
        { at: day(1), v: 'b' },
        { at: day(2), v: 'c' },
      ],
      { key: 'at' },
    );
    expect(await all(dated, '"at"')).toEqual([
      { at: day(1), v: 'b' },
      { at: day(2), v: 'c' },
    ]);
  });

  it('replaces rows of a batch whose keys meet the table’s at either end, in one load and across loads', async () => {
    // Batches of 2, the keys of each overlapping the ones before by one key at an end, rising then falling.
    const table = fresh('edges');
    const records = kv([5, 'a'], [6, 'a'], [6, 'b'], [7, 'b'], [4, 'c'], [5, 'c'], [8, 'd'], [9, 'd']);
    await load(table, records, { batchSize: 2 });
    const expected = kv([4, 'c'], [5, 'c'], [6, 'b'], [7, 'b'], [8, 'd'], [9, 'd']);
    expect(await all(table)).toEqual(expected);
    // A new load reads the table's least and greatest keys: its batches at both ends replace.
    await load(table, kv([9, 'e'], [10, 'e']));
    await load(table, kv([3, 'f'], [4, 'f']));
    await load(table, [{ id: 6, v: 'g' }]);
    expect(await all(table)).toEqual(
      kv([3, 'f'], [4, 'f'], [5, 'c'], [6, 'g'], [7, 'b'], [8, 'd'], [9, 'e'], [10, 'e']),
    );
  });

  it('replaces through the staging table batch after batch, never moving a batch’s rows twice', async () => {
    const table = fresh('restaged');
    await load(table, kv([1, 'a'], [2, 'a'], [2, 'b'], [3, 'b'], [3, 'c'], [1, 'c']), { batchSize: 2 });
    expect(await all(table)).toEqual(kv([1, 'c'], [2, 'b'], [3, 'c']));
    // By a key named: another column than id.
    const named = fresh('by_name');
    await load(named, [{ id: 1, name: 'a' }], { key: 'name' });
    await load(named, [{ id: 2, name: 'a' }], { key: 'name' });
    expect(await all(named)).toEqual([{ id: 2, name: 'a' }]);
  });

  it('replaces by a key named in another case of a non-ASCII name, read and matched by the table’s own name', async () => {
    const table = fresh('unicase');
    await load(
      table,
      [
        { Ключ: 1, v: 'a' },
        { Ключ: 2, v: 'a' },
      ],
      { key: 'Ключ' },
    );
    // DuckDB folds only ASCII case: SQL must name the column "Ключ", not "ключ".
    await load(table, [{ ключ: 3, v: 'b' }], { key: 'ключ' }); // past the table's keys: appended
    await load(table, [{ ключ: 1, v: 'c' }], { key: 'ключ' }); // among them: replaces
    expect(await all(table, '"Ключ"')).toEqual([
      { Ключ: 1, v: 'c' },
      { Ключ: 2, v: 'a' },
      { Ключ: 3, v: 'b' },
    ]);
  });

  it('replaces by text keys too, and by keys whose kind changes (then every batch is looked up)', async () => {
    const table = fresh('text_keys');
    await load(
      table,
      ['m', 'n', 'n', 'o', 'l', 'm', 'a', 'z'].map((id, i) => ({ id, v: i })),
      { batchSize: 2 },
    );
    expect(await all(table)).toEqual(kv(['a', 6], ['l', 4], ['m', 5], ['n', 2], ['o', 3], ['z', 7]));
    const mixed = fresh('mixed_keys');
    await load(mixed, kv([1, 'a'], [2, 'a'], ['x', 'b'], [2, 'c'], [3, 'c'], [1, 'd']), {
      batchSize: 2,
    });
    expect(await all(mixed)).toEqual(kv(['1', 'd'], ['2', 'c'], ['3', 'c'], ['x', 'b']));
  });
});

describe('a batch whose keys lie outside the table’s', () => {
  it('is appended straight into the table, rising or falling; one that meets them takes a staging table', async () => {
    const rising = fresh('rising');
    expect(await stagings(rising, [ids(1, 2), ids(3, 4), ids(5, 6)])).toEqual([0, 0, 0]);
    expect(await stagings(fresh('falling'), [ids(5, 6), ids(3, 4), ids(1, 2)])).toEqual([0, 0, 0]);
    expect(await stagings(fresh('texts'), [ids('c', 'd'), ids('e', 'f'), ids('a', 'b')])).toEqual([0, 0, 0]);
    expect(await stagings(fresh('met_above'), [ids(1, 2), ids(2, 3)])).toEqual([0, 1]);
    expect(await stagings(fresh('met_below'), [ids(3, 4), ids(1, 3)])).toEqual([0, 1]);
    expect(await stagings(fresh('inside'), [ids(1, 9), ids(5, 4)])).toEqual([0, 1]);
    // A batch below (or above) the keys, not rising: the known keys grow to take it in.
    expect(await stagings(fresh('grew_down'), [ids(5, 6), ids(3, 4), ids(4, 3)])).toEqual([0, 0, 1]);
    expect(await stagings(fresh('grew_up'), [ids(5, 6), ids(8, 7), ids(7, 8)])).toEqual([0, 0, 1]);
    // A batch of rising keys with a new column: the table grows, the batch still goes straight in.
    const wider = fresh('wider');
    expect(await stagings(wider, [ids(1, 2), ids(3, 4).map((row) => ({ ...row, extra: true }))])).toEqual([
      0, 0,
    ]);
    expect((await all(wider)).map((row) => row.extra)).toEqual([null, null, true, true]);
    // Keys of another kind than the table's: looked up from then on.
    expect(await stagings(fresh('kinds'), [ids(1, 2), ids('a', 'b'), ids(3, 4)])).toEqual([0, 1, 1]);
    // Keys of mixed kinds in a batch: every later batch is looked up, whatever its keys.
    const mixed = fresh('mixed');
    expect(await stagings(mixed, [ids('a', 'b'), ids(1, 'c'), ids('b', 'd')])).toEqual([0, 1, 1]);
    expect((await all(mixed)).map((row) => row.id)).toEqual(['1', 'a', 'b', 'c', 'd']);
    // A later load knows the table's keys from the table itself.
    expect(await stagings(rising, [ids(7, 8)])).toEqual([0]);
    expect(await stagings(rising, [ids(-1, 0)])).toEqual([0]);
    expect(await stagings(rising, [ids(6, 9)])).toEqual([1]);
    expect(await stagings(rising, [ids(-2, -1)])).toEqual([1]);
    expect((await all(rising)).map((row) => row.id)).toEqual([-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe('keys of other kinds', () => {
  it('true and false replace rows like any key (they have no range: every batch is looked up)', async () => {
    const table = fresh('flags');
    await load(table, [{ flag: true, v: 1 }], { key: 'flag' });
    expect(await stagings(table, [[{ flag: false, v: 2 }]], { key: 'flag' })).toEqual([1]);
    await load(table, [{ flag: true, v: 3 }], { key: 'flag' });
    expect(await all(table, 'flag')).toEqual([
      { flag: false, v: 2 },
      { flag: true, v: 3 },
    ]);
  });

  it('of mixed kinds in a batch are looked up against a table of texts, whatever their order', async () => {
    const table = fresh('mixed_after_texts');
    await load(table, kv(['1', 'a'], ['b', 'a']));
    await load(table, kv(['c', 'b'], [1, 'b']));
    expect(await all(table)).toEqual(kv(['1', 'b'], ['b', 'a'], ['c', 'b']));
  });
});

describe('a table', () => {
  it('that is empty takes a first batch straight in; dates as keys are ranged as times', async () => {
    const empty = fresh('empty_made');
    await rows(`CREATE TABLE ${empty} (id BIGINT, v VARCHAR)`);
    expect(await stagings(empty, [ids(1, 2)])).toEqual([0]);
    const day = (d: number) => ({ id: new Date(Date.UTC(2024, 0, d)), v: `d${d}` });
    const dated = fresh('dated_keys');
    expect(
      await stagings(dated, [
        [day(1), day(2)],
        [day(3), day(4)],
      ]),
    ).toEqual([0, 0]);
    expect(await stagings(dated, [[day(5)]])).toEqual([0]);
    expect(await stagings(dated, [[day(4), day(6)]])).toEqual([1]);
    expect((await all(dated)).map((row) => row.v)).toEqual(['d1', 'd2', 'd3', 'd4', 'd5', 'd6']);
  });

  it('that gains a column after a batch went through a staging table takes the next batches whole', async () => {
    const table = fresh('grown');
    await load(
      table,
      [
        { id: 1, v: 'a' },
        { id: 2, v: 'a' },
        { id: 2, v: 'b' },
        { id: 3, v: 'b' },
        { id: 3, v: 'c', extra: 1 },
        { id: 1, v: 'c', extra: 2 },
        { id: 1, v: 'd', extra: 3 },
        { id: 4, v: 'd', extra: 4 },
      ],
      { batchSize: 2 },
    );
    expect(await all(table)).toEqual([
      { id: 1, v: 'd', extra: 3 },
      { id: 2, v: 'b', extra: null },
      { id: 3, v: 'c', extra: 1 },
      { id: 4, v: 'd', extra: 4 },
    ]);
  });

  it('with a column the store did not make takes rows one by one, widening its own columns when needed', async () => {
    const table = fresh('made');
    await rows(`CREATE TABLE ${table} (id BIGINT, amount DECIMAL(10,2), n BIGINT)`);
    await load(table, [
      { id: 1, amount: 1.5, n: 1 },
      { id: 2, amount: null, n: 'two' },
      { id: 3, n: null, more: true },
    ]);
    expect(await typesOf(table)).toEqual({
      id: 'BIGINT',
      amount: 'DECIMAL(10,2)',
      n: 'VARCHAR',
      more: 'BOOLEAN',
    });
    expect(await rows(`SELECT id, amount::VARCHAR AS amount, n, more FROM ${table} ORDER BY id`)).toEqual([
      { id: 1, amount: '1.50', n: '1', more: null },
      { id: 2, amount: null, n: 'two', more: null },
      { id: 3, amount: null, n: null, more: true },
    ]);
  });
});
