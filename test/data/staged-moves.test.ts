/**
 * `store.load()` through its staging file, in this process against one real DuckDB file: the
 * staging folder (where, its modes, what it refuses), the sweep of staging files of processes that
 * are gone, what a failed load leaves, a walk whose move failed (moved by the next call without
 * reading its source, and never twice), and how a move fits the staged rows to the table as it
 * stands then (columns added and widened, cast to columns the store did not make, replaced by key).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store, StoreBusyError } from '../../src/data/index.js';
import { MOVES_TABLE, stagingFolder } from '../../src/data/staged-load.js';
import { caught } from '../support/caught.js';
import { useTempStore } from '../support/temp-store.js';

const temp = useTempStore('scratchlab-staged-moves-');
let store: Store;
let file: string;
let folder: string;
beforeAll(() => {
  ({ store } = temp);
  file = join(temp.dir, 'test.duckdb');
  folder = stagingFolder(file);
});

const uid = process.getuid!();
const mode = (path: string) => statSync(path).mode & 0o7777;
const staged = () => readdirSync(folder).sort();
const walkFile = (table: string, walk: string) =>
  `walk-${createHash('sha256').update(`${table}\0${walk}`).digest('hex').slice(0, 24)}.duckdb`;

/**
 * A source that yields `records`, then waits before it ends: `started` resolves once they are
 * read, and `open()` lets the source end.
 */
function held(records: readonly unknown[]) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let reached!: () => void;
  const started = new Promise<void>((resolve) => {
    reached = resolve;
  });
  async function* source() {
    yield* records;
    reached();
    await gate;
  }
  return { source: source(), started, open };
}

async function* broken(records: readonly unknown[]) {
  yield* records;
  throw new Error('the walk broke');
}

describe('the staging folder', () => {
  it('is u<uid> in <file>.loads (open to all, sticky) for a file, scratchlab-loads-<uid> in the temporary folder for memory', async () => {
    expect(stagingFolder('/data/s.duckdb')).toBe(`/data/s.duckdb.loads/u${uid}`);
    expect(stagingFolder(':memory:')).toBe(join(tmpdir(), `scratchlab-loads-${uid}`));
    await store.load('first', [{ id: 1 }]);
    expect(mode(`${file}.loads`)).toBe(0o1777);
    expect(mode(folder)).toBe(0o700);
    // Emptied after the load, and made private again when it is not.
    expect(staged()).toEqual([]);
    chmodSync(folder, 0o755);
    await store.load('first', [{ id: 2 }]);
    expect(mode(folder)).toBe(0o700);
    // The shared folder is left as its maker set it.
    chmodSync(`${file}.loads`, 0o755);
    await store.load('first', [{ id: 3 }]);
    expect(mode(`${file}.loads`)).toBe(0o755);
    chmodSync(`${file}.loads`, 0o1777);
    expect(await store.query('select id from first order by id')).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it('that is a link, or another user’s, is refused, and nothing is loaded', async () => {
    const own = `${folder}.own`;
    rmSync(folder, { recursive: true });
    mkdirSync(own, { mode: 0o700 });
    symlinkSync(own, folder);
    const message = `the staging folder ${folder} is not a folder of this user's own: remove it`;
    try {
      expect(await caught(store.load('refused', [{ id: 1 }]))).toEqual(new Error(message));
      rmSync(folder);
      mkdirSync(folder, { mode: 0o700 });
      chownSync(folder, uid + 1, uid + 1);
      expect(await caught(store.load('refused', [{ id: 1 }]))).toEqual(new Error(message));
    } finally {
      rmSync(own, { recursive: true, force: true });
      rmSync(folder, { recursive: true, force: true });
    }
    expect((await store.tables()).map((table) => table.name)).not.toContain('refused');
  });

  it('of an in-memory store, in a temporary folder whose path holds "?", is refused', async () => {
    const memory = await openStore();
    const before = process.env.TMPDIR;
    const odd = mkdtempSync(join(tmpdir(), 'scratchlab-odd?-'));
    process.env.TMPDIR = odd;
    try {
      const error = await caught(memory.load('t', [{ id: 1 }]));
      expect(error).toEqual(
        new RangeError(
          `loads stage their rows in ${join(odd, `scratchlab-loads-${uid}`)}, whose path holds "?", which DuckDB cannot keep (it would write elsewhere): set TMPDIR to another folder`,
        ),
      );
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(odd, { recursive: true, force: true });
      await memory.close();
    }
  });
});

describe('staging files', () => {
  it('of processes that are gone are removed before a load; this process’s, walks’ and others are kept', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const names = [
      `p${gone}-1-2.duckdb`,
      `p${gone}-1-2.duckdb.wal`,
      `p${process.pid}-9-9.duckdb`,
      'walk-0123.duckdb',
      `x${gone}-1.duckdb`,
      `xp${gone}-1.duckdb`,
      `p${gone}.duckdb`,
    ];
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    for (const name of names) writeFileSync(join(folder, name), '');
    mkdirSync(join(folder, `p${gone}-1-2.duckdb.tmp`));
    await store.load('swept', [{ id: 1 }]);
    expect(staged()).toEqual(
      [
        `p${gone}.duckdb`,
        `p${process.pid}-9-9.duckdb`,
        'walk-0123.duckdb',
        `x${gone}-1.duckdb`,
        `xp${gone}-1.duckdb`,
      ].sort(),
    );
    for (const name of staged()) rmSync(join(folder, name));
  });

  it('are named after this process while a load runs, after the table and walk for a walk of a file store', async () => {
    const names: string[][] = [];
    async function* watched(records: readonly unknown[], memory?: Store) {
      yield* records;
      const found = readdirSync(memory ? stagingFolder(':memory:') : folder).filter((name) =>
        name.endsWith('.duckdb'),
      );
      names.push(found);
      // DuckDB's folder of spilled rows, had it needed one: removed with the staging file.
      if (!memory) {
        mkdirSync(join(folder, `${found[0]}.tmp`));
        writeFileSync(join(folder, `${found[0]}.tmp`, 'spill'), '');
      }
    }
    await store.load('named', watched([{ id: 1 }]));
    await store.load('named', watched([{ id: 2 }]), { resume: 'w' });
    const memory = await openStore();
    try {
      await memory.load('named', watched([{ id: 1 }], memory), { resume: 'w' });
    } finally {
      await memory.close();
    }
    expect(names[0]).toHaveLength(1);
    expect(names[0]![0]).toMatch(new RegExp(`^p${process.pid}-\\d+-\\d+\\.duckdb$`));
    expect(names[1]).toEqual([walkFile('named', 'w')]);
    expect(names[2]!.filter((name) => name.startsWith(`p${process.pid}-`))).toHaveLength(1);
    expect(names[2]).not.toContain(walkFile('named', 'w'));
    expect(staged()).toEqual([]);
  });

  it('of nothing move nothing: no table, and no moves table for a load that is not a walk', async () => {
    const memory = await openStore();
    try {
      const tables = async () =>
        (
          await memory.query<{ name: string }>('select table_name as name from duckdb_tables() order by 1')
        ).map((row) => row.name);
      expect(await memory.load('nothing', [])).toEqual({ rows: 0, pages: 0, resumedFrom: 0 });
      expect(await memory.load('nulls', [{ id: null }, { id: null }])).toEqual({
        rows: 2,
        pages: 1,
        resumedFrom: 0,
      });
      await memory.load('plain', [{ id: 1 }]);
      expect(await tables()).toEqual(['plain']);
      expect(await memory.load('nothing', [], { resume: true })).toEqual({
        rows: 0,
        pages: 0,
        resumedFrom: 0,
      });
      expect(await tables()).toEqual([MOVES_TABLE, 'plain']);
    } finally {
      await memory.close();
    }
  });

  it('of a walk staged before walks had tokens get one, and are moved once', async () => {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const old = await DuckDBInstance.create(join(folder, walkFile('untokened', 'w')));
    const setup = await old.connect();
    await setup.run('create table untokened as select 1::BIGINT as id');
    await setup.run('create table _scratchlab_staged as select 1::BIGINT as rows');
    setup.closeSync();
    old.closeSync();
    const moves = async () =>
      (await store.query<{ n: number }>(`select count(*)::INTEGER as n from ${MOVES_TABLE}`))[0]!.n;
    const before = await moves();
    expect(await store.load('untokened', [], { resume: 'w' })).toEqual({ rows: 0, pages: 0, resumedFrom: 1 });
    expect(await store.query('select id from untokened')).toEqual([{ id: 1 }]);
    expect(await moves()).toBe(before + 1);
    expect(staged()).toEqual([]);
  });

  it('of a walk resumed into a table the store has: the staged table is the walk’s, made once', async () => {
    await store.load('resumed', [{ id: 1, n: 'one' }]);
    await caught(store.load('resumed', broken([{ id: 2, n: 2 }]), { resume: 'r', batchSize: 1 }));
    expect(
      await store.load(
        'resumed',
        [
          { id: 2, n: 2 },
          { id: 3, n: 3 },
        ],
        { resume: 'r' },
      ),
    ).toEqual({
      rows: 1,
      pages: 1,
      resumedFrom: 1,
    });
    expect(await store.query('select * from resumed order by id')).toEqual([
      { id: 1, n: 'one' },
      { id: 2, n: '2' },
      { id: 3, n: '3' },
    ]);
  });

  it('of a failed load are removed with it; a failed walk’s stay, named after its table and walk', async () => {
    expect(await caught<Error>(store.load('failed', broken([{ id: 1 }])))).toEqual(
      new Error('the walk broke'),
    );
    expect(staged()).toEqual([]);
    await caught(store.load('failed', broken([{ id: 1 }, { id: 2 }]), { resume: 'w', batchSize: 1 }));
    expect(staged()).toEqual([walkFile('failed', 'w')]);
    await caught(store.load('failed', broken([{ id: 1 }]), { resume: true, batchSize: 1 }));
    expect(staged()).toEqual([walkFile('failed', 'failed'), walkFile('failed', 'w')].sort());
    // Each resumed, and finished: moved in, the staging files gone.
    expect(await store.load('failed', [{ id: 1 }, { id: 2 }, { id: 3 }], { resume: 'w' })).toEqual({
      rows: 1,
      pages: 1,
      resumedFrom: 2,
    });
    expect(await store.load('failed', [{ id: 1 }, { id: 4 }], { resume: true })).toEqual({
      rows: 1,
      pages: 1,
      resumedFrom: 1,
    });
    expect(staged()).toEqual([]);
    expect(await store.query('select id from failed order by id')).toEqual([
      { id: 1 },
      { id: 2 },
      { id: 3 },
      { id: 4 },
    ]);
  });

  it('of a walk whose move failed: moved by the next load of the walk, without reading its source, and never twice', async () => {
    // The walk stages its rows; before its move, the table is made with a column they cannot go into.
    const moves = async () =>
      (await store.query<{ n: number }>(`select count(*)::INTEGER as n from ${MOVES_TABLE}`))[0]!.n;
    const movesBefore = await moves();
    let blocked = false;
    async function* walk() {
      yield { id: 1, v: 10 };
      yield { id: 2, v: 20 };
      await store.query('create table moved (id BIGINT, v STRUCT(a INTEGER))');
      blocked = true;
    }
    // A load that is not a walk removes its staging file when its move fails.
    const plain = await caught<Error>(store.load('moved', walk(), { key: false }));
    expect(plain.message).toMatch(/STRUCT/);
    expect(staged()).toEqual([]);
    await store.query('drop table moved');
    const failed = await caught<Error>(store.load('moved', walk(), { resume: 'once', key: false }));
    expect(blocked).toBe(true);
    expect(failed.message).toMatch(/STRUCT/);
    const name = walkFile('moved', 'once');
    expect(staged()).toEqual([name]);
    // What a load killed between its move's commit and the removal of its staging file leaves.
    const copy = join(temp.dir, 'finished-walk.duckdb');
    copyFileSync(join(folder, name), copy);

    await store.query('drop table moved');
    const never = {
      [Symbol.iterator]() {
        throw new Error('the source of a finished walk is read');
      },
    };
    expect(await store.load('moved', never, { resume: 'once', key: false })).toEqual({
      rows: 0,
      pages: 0,
      resumedFrom: 2,
    });
    expect(staged()).toEqual([]);
    const rows = [
      { id: 1, v: 10 },
      { id: 2, v: 20 },
    ];
    expect(await store.query('select * from moved order by id')).toEqual(rows);
    expect(await moves()).toBe(movesBefore + 1);

    copyFileSync(copy, join(folder, name));
    expect(await store.load('moved', never, { resume: 'once', key: false })).toEqual({
      rows: 0,
      pages: 0,
      resumedFrom: 2,
    });
    expect(staged()).toEqual([]);
    expect(await store.query('select * from moved order by id')).toEqual(rows);
    expect(await moves()).toBe(movesBefore + 1);
  });
});

describe('a walk loaded twice at once in one process', () => {
  it('fails the second at once with a StoreBusyError naming the walk and this process; the first finishes', async () => {
    const { source, started, open } = held([{ id: 1 }, { id: 2 }]);
    const first = store.load('busy', source, { resume: 'all' });
    await started;
    const second = await caught<StoreBusyError>(store.load('busy', [{ id: 3 }], { resume: 'all' }));
    expect(second).toBeInstanceOf(StoreBusyError);
    expect(second.message).toMatch(
      new RegExp(
        `^the walk "all" into table "busy" is being loaded by process ${process.pid} on ${hostname()} \\(since .+\\): wait for it to finish, or give this load another resume name$`,
      ),
    );
    // Its cause is the lock's own refusal, at once (no wait for the first load to end).
    expect((second.cause as Error).message).toMatch(
      new RegExp(
        `^the walk: .+ is locked by pid ${process.pid} on host ${hostname()} \\(since .+\\); gave up after 0 ms\\. `,
      ),
    );
    open();
    expect(await first).toEqual({ rows: 2, pages: 1, resumedFrom: 0 });
    // Another walk's name, or none, is not held.
    expect(await store.load('busy', [{ id: 3 }], { resume: 'other' })).toEqual({
      rows: 1,
      pages: 1,
      resumedFrom: 0,
    });
    expect(await store.query('select id from busy order by id')).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it('of an in-memory store is not held: each load stages in a file of its own', async () => {
    const memory = await openStore();
    try {
      const { source, started, open } = held([{ id: 1 }]);
      const first = memory.load('t', source, { resume: 'all' });
      await started;
      expect(await memory.load('t', [{ id: 2 }], { resume: 'all' })).toEqual({
        rows: 1,
        pages: 1,
        resumedFrom: 0,
      });
      open();
      expect(await first).toEqual({ rows: 1, pages: 1, resumedFrom: 0 });
      expect(await memory.query('select id from t order by id')).toEqual([{ id: 1 }, { id: 2 }]);
    } finally {
      await memory.close();
    }
  });
});

describe('options', () => {
  it('that are not an object are refused before anything is staged', async () => {
    expect(await caught(store.load('refused', [{ id: 1 }], null as never))).toEqual(
      new TypeError('load options must be an object'),
    );
    expect(readdirSync(folder)).toEqual([]);
  });
});

describe('a move', () => {
  it('adds the staged columns the table lacks and widens the ones that cannot hold the staged values', async () => {
    await store.load('grown', [{ id: 1, n: 1, flag: true }]);
    await store.load('grown', [{ id: 2, n: 'two', extra: 2.5 }]);
    expect(await temp.typesOf('grown')).toEqual({
      id: 'BIGINT',
      n: 'VARCHAR',
      flag: 'BOOLEAN',
      extra: 'DOUBLE',
    });
    expect(await store.query('select * from grown order by id')).toEqual([
      { id: 1, n: '1', flag: true, extra: null },
      { id: 2, n: 'two', flag: null, extra: 2.5 },
    ]);
  });

  it('casts narrower staged values to a column widened while they were staged', async () => {
    const at = new Date(Date.UTC(2024, 4, 1, 12, 30));
    await store.load('raced', [{ id: 1, n: 1, m: 1, at }]);
    const { source, started, open } = held([{ id: 2, n: 2, m: 2, at }]);
    const slow = store.load('raced', source);
    await started;
    await store.load('raced', [{ id: 3, n: 'three', m: 3.5, at: 'soon' }]);
    open();
    await slow;
    expect(await temp.typesOf('raced')).toEqual({ id: 'BIGINT', n: 'VARCHAR', m: 'DOUBLE', at: 'VARCHAR' });
    // Times as the widened column reads them (ISO 8601), not as a plain cast would write them.
    expect(await store.query('select * from raced order by id')).toEqual([
      { id: 1, n: '1', m: 1, at: '2024-05-01T12:30:00.000Z' },
      { id: 2, n: '2', m: 2, at: '2024-05-01T12:30:00.000Z' },
      { id: 3, n: 'three', m: 3.5, at: 'soon' },
    ]);
  });

  it('adds a staged column named as one added meanwhile but for the case of non-ASCII letters (two columns to DuckDB)', async () => {
    await store.load('twins', [{ id: 1 }]);
    const { source, started, open } = held([{ id: 2, été: 'lower' }]);
    const slow = store.load('twins', source);
    await started;
    await store.load('twins', [{ id: 3, Été: 'upper' }]);
    open();
    await slow;
    expect(await store.query('select * from twins order by id')).toEqual([
      { id: 1, Été: null, été: null },
      { id: 2, Été: null, été: 'lower' },
      { id: 3, Été: 'upper', été: null },
    ]);
  });

  it('casts staged values to columns the store did not make, never altering them', async () => {
    await store.query('create table made (id INTEGER, amount DECIMAL(10,2), note VARCHAR)');
    await store.load('made', [{ id: 1, amount: 1.5, note: 'a', more: 'x' }]);
    await store.load('made', [{ id: 1, amount: 2.25, note: 'b' }]);
    expect(await temp.typesOf('made')).toEqual({
      id: 'INTEGER',
      amount: 'DECIMAL(10,2)',
      note: 'VARCHAR',
      more: 'VARCHAR',
    });
    expect(await store.query('select id, amount::VARCHAR as amount, note, more from made')).toEqual([
      { id: 1, amount: '2.25', note: 'b', more: null },
    ]);
  });

  it('replaces rows by id, by a key named, or by none (key: false); a key the table lacks replaces nothing', async () => {
    await store.load('keys', [
      { id: 1, name: 'a', v: 1 },
      { id: 2, name: 'b', v: 1 },
    ]);
    await store.load('keys', [{ id: 2, name: 'c', v: 2 }]);
    await store.load('keys', [{ id: 3, name: 'a', v: 3 }], { key: 'name' });
    await store.load('keys', [{ id: 3, name: 'a', v: 4 }], { key: false });
    expect(await store.query('select * from keys order by id, v')).toEqual([
      { id: 2, name: 'c', v: 2 },
      { id: 3, name: 'a', v: 3 },
      { id: 3, name: 'a', v: 4 },
    ]);
    await store.load('keys', [{ id: 9, code: 'x' }], { key: 'code' });
    await store.load('keys', [{ id: 9, code: 'x' }], { key: 'code' });
    expect(await store.query('select id, code from keys where code is not null')).toEqual([
      { id: 9, code: 'x' },
    ]);
    await store.load('nokey', [{ name: 'a' }]);
    await store.load('nokey', [{ name: 'a' }]);
    expect(await store.query('select * from nokey')).toEqual([{ name: 'a' }, { name: 'a' }]);
  });

  it('replaces rows by a key named in another case of a non-ASCII name (DuckDB folds only ASCII)', async () => {
    await store.load(
      'unicase',
      [
        { Ключ: 1, v: 'old' },
        { Ключ: 2, v: 'kept' },
      ],
      { key: 'Ключ' },
    );
    await store.load('unicase', [{ ключ: 1, v: 'new' }], { key: 'ключ' });
    expect(await store.query('select * from unicase order by "Ключ"')).toEqual([
      { Ключ: 1, v: 'new' },
      { Ключ: 2, v: 'kept' },
    ]);
  });

  it('moves into a table named in another case of ASCII letters: the same table, as in DuckDB', async () => {
    await store.load('Cased_Table', [
      { id: 1, name: 'old' },
      { id: 2, name: 'kept' },
    ]);
    await store.load('cased_table', [{ id: 1, name: 'new' }]);
    expect(await store.query('select * from cased_table order by id')).toEqual([
      { id: 1, name: 'new' },
      { id: 2, name: 'kept' },
    ]);
    // DuckDB folds only ASCII letters: these are two tables.
    await store.load('Таблица', [{ id: 1, v: 'upper' }]);
    await store.load('таблица', [{ id: 1, v: 'lower' }]);
    expect(await store.query('select * from "Таблица"')).toEqual([{ id: 1, v: 'upper' }]);
    expect(await store.query('select * from "таблица"')).toEqual([{ id: 1, v: 'lower' }]);
  });

  it('replaces rows by a key whose column is named in another case (names ignore case, as SQL’s do)', async () => {
    await store.query(`create table cased ("ID" BIGINT, "Name" VARCHAR)`);
    await store.query(`insert into cased values (1, 'made'), (2, 'kept')`);
    await store.load('cased', [{ id: 1, name: 'by default' }]);
    expect(await store.query('select * from cased order by "ID"')).toEqual([
      { ID: 1, Name: 'by default' },
      { ID: 2, Name: 'kept' },
    ]);
    await store.load('cased', [{ id: 1, name: 'named' }], { key: 'id' });
    await store.load('cased', [{ ID: 2, Name: 'named in its case' }], { key: 'ID' });
    expect(await store.query('select * from cased order by "ID"')).toEqual([
      { ID: 1, Name: 'named' },
      { ID: 2, Name: 'named in its case' },
    ]);
  });
});
