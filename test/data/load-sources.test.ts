import { describe, expect, it } from 'vitest';
import { ColumnCaseError, ColumnTypeError } from '../../src/data/load-errors.js';
import { batchesOf, checkSource } from '../../src/data/load-sources.js';
import { PagedList } from '../../src/http/paging.js';

// What `store.load()` reads, batch by batch, before any table is touched: the batches of each kind
// of source with and without records to pass over, and the refusals' exact messages.
async function batches(
  source: Parameters<typeof batchesOf>[0],
  skip: number,
  size: number,
  signal?: AbortSignal,
) {
  const out: { records: unknown[]; owner?: string }[] = [];
  for await (const batch of batchesOf(source, skip, size, signal))
    out.push({ ...batch, records: [...batch.records] });
  return out;
}

function* numbers(n: number) {
  for (let i = 0; i < n; i++) yield i;
}

async function* later(n: number) {
  for (let i = 0; i < n; i++) yield i;
}

describe('load sources', () => {
  it('cuts an array into slices, from the first record not yet stored', async () => {
    expect(await batches([0, 1, 2, 3, 4], 0, 2)).toEqual([
      { records: [0, 1], owner: undefined },
      { records: [2, 3], owner: undefined },
      { records: [4], owner: undefined },
    ]);
    expect(await batches([0, 1, 2, 3, 4], 3, 2)).toEqual([{ records: [3, 4], owner: undefined }]);
    expect(await batches([0, 1], 2, 2)).toEqual([]);
    expect(await batches([], 0, 2)).toEqual([]);
  });

  it('reads other iterables, sync or async, in chunks, passing over the stored ones', async () => {
    for (const source of [() => numbers(7), () => later(7)]) {
      expect(await batches(source(), 0, 3)).toEqual([
        { records: [0, 1, 2] },
        { records: [3, 4, 5] },
        { records: [6] },
      ]);
      expect(await batches(source(), 2, 3)).toEqual([{ records: [2, 3, 4] }, { records: [5, 6] }]);
      expect(await batches(source(), 1, 3)).toEqual([{ records: [1, 2, 3] }, { records: [4, 5, 6] }]);
      expect(await batches(source(), 7, 3)).toEqual([]);
      expect(await batches(source(), 0, 7)).toEqual([{ records: [0, 1, 2, 3, 4, 5, 6] }]);
    }
    expect(await batches(new Set(['a', 'b']), 0, 5)).toEqual([{ records: ['a', 'b'] }]);
  });

  it('reads a paged list page by page with its owner, from the row to resume at', async () => {
    const rows = Array.from({ length: 7 }, (_, i) => ({ id: i }));
    const list = new PagedList(
      async (limit, offset) => rows.slice(offset, offset + limit),
      { limit: 7 },
      {},
      {
        owner: 'ann',
        pageSize: 3,
      },
    );
    expect(await batches(list, 0, 100)).toEqual([
      { records: [{ id: 0 }, { id: 1 }, { id: 2 }], owner: 'ann' },
      { records: [{ id: 3 }, { id: 4 }, { id: 5 }], owner: 'ann' },
      { records: [{ id: 6 }], owner: 'ann' },
    ]);
    expect((await batches(list, 4, 100)).map((b) => b.records.map((r) => (r as { id: number }).id))).toEqual([
      [4, 5, 6],
    ]);
  });

  it('stops between batches when the signal aborts', async () => {
    for (const source of [() => [0, 1, 2, 3, 4, 5], () => numbers(6), () => later(6)]) {
      const stop = new AbortController();
      const seen: unknown[] = [];
      const walk = (async () => {
        for await (const batch of batchesOf(source(), 0, 2, stop.signal)) {
          seen.push(...batch.records);
          stop.abort(new Error('stopped'));
        }
      })();
      await expect(walk).rejects.toThrow('stopped');
      expect(seen).toEqual([0, 1]);
    }
  });

  it('refuses what it cannot read before anything is written', () => {
    const message =
      'load() takes a paged list (e.g. session.studios.projects(id)), a record list, an array or an iterable of records';
    for (const source of [null, undefined, 5, 'text', { length: 2 }, () => []]) {
      expect(() => checkSource(source)).toThrow(new TypeError(message));
    }
    for (const source of [[], new Set(), numbers(1), later(1)])
      expect(() => checkSource(source)).not.toThrow();
  });
});

describe('load refusals', () => {
  it('quote the refused value briefly, whatever it is', () => {
    const error = (value: unknown) => new ColumnTypeError('price', 'DECIMAL(38,10)', value).message;
    const tail = ': convert the value, or load into another table';
    expect(error('a lot')).toBe(
      `column "price" is DECIMAL(38,10), which the store does not change (it did not create it), and cannot hold "a lot"${tail}`,
    );
    expect(error(12n)).toContain('cannot hold 12n:');
    expect(error({ a: [1] })).toContain('cannot hold {"a":[1]}:');
    expect(error(undefined)).toContain('cannot hold undefined:');
    expect(error(() => 1)).toContain('cannot hold () => 1:');
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    expect(error(cyclic)).toContain('cannot hold [object Object]:');
    expect(error('x'.repeat(100))).toContain(`cannot hold "${'x'.repeat(59)}…:`);
    expect(error('x'.repeat(58))).toContain(`cannot hold "${'x'.repeat(58)}":`);
    const typed = new ColumnTypeError('price', 'INTEGER', 'a', new Error('why'));
    expect([
      typed.name,
      typed.column,
      typed.columnType,
      (typed.cause as Error).message,
      typed instanceof TypeError,
    ]).toEqual(['ColumnTypeError', 'price', 'INTEGER', 'why', true]);
    expect(new ColumnTypeError('c', 'INTEGER', 1).cause).toBeUndefined();
    const cased = new ColumnCaseError('Title', 'title');
    expect([cased.name, cased.keys, cased.message]).toEqual([
      'ColumnCaseError',
      ['Title', 'title'],
      'a record has the keys "Title" and "title", which a table cannot tell apart (its column names ignore case): rename one before loading',
    ]);
  });
});
