import { describe, expect, it } from 'vitest';
import { PagedList, type PageFetcher } from '../../src/http/paging.js';
import type { RateLimitListener } from '../../src/http/request-budget.js';
import { kListWindow } from '../../src/rows/list-window.js';

// PagedList over a list of its own: the page source is plain data (rows 0..total-1), read the
// way the service reads it (`limit` rows at `offset`), and each request it makes is logged. Where
// a test needs to see what is in flight, the pages are answered by hand (`held`).

/** A page source over rows 0..total-1 that logs each request as `limit@offset`. */
function source(total: number) {
  const calls: string[] = [];
  const signals: AbortSignal[] = [];
  const fetch: PageFetcher<number> = async (limit, offset, signal) => {
    calls.push(`${limit}@${offset}`);
    if (signal) signals.push(signal);
    return Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => offset + i);
  };
  return { fetch, calls, signals };
}

/** A page source whose requests wait until the test answers them (`answer(i)` answers the i-th). */
function held(total: number) {
  const pending: {
    limit: number;
    offset: number;
    resolve: (rows: number[]) => void;
    signal?: AbortSignal;
  }[] = [];
  const fetch: PageFetcher<number> = (limit, offset, signal) =>
    new Promise((resolve) => pending.push({ limit, offset, resolve, signal }));
  const answer = (i: number) => {
    const { limit, offset, resolve } = pending[i]!;
    resolve(Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, k) => offset + k));
  };
  return { fetch, pending, answer };
}

/** Waits (a bounded number of turns) until `condition` holds. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 1000; turn++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('PagedList: the awaited window', () => {
  it('reads one full page of 40 without a limit, and its window says the list may go on', async () => {
    const { fetch, calls } = source(100);
    const list = await new PagedList(fetch);
    expect([...list]).toEqual(range(0, 40));
    expect(calls).toEqual(['40@0']);
    expect(list[kListWindow]).toStrictEqual({ offset: 0, more: true });
  });

  it('reads a limit above the page size in pages of 40 and a last part, from the offset', async () => {
    const { fetch, calls } = source(1000);
    const list = await new PagedList(fetch, { limit: 90, offset: 7 });
    expect([...list]).toEqual(range(7, 97));
    expect(calls).toEqual(['40@7', '40@47', '10@87']);
    expect([list.offset, list.more]).toEqual([7, true]);
  });

  it('ends at the first short page; a window that came back short or empty has no more', async () => {
    const { fetch, calls } = source(45);
    const list = await new PagedList(fetch, { limit: 200 }, { prefetch: 1 });
    expect([...list]).toEqual(range(0, 45));
    expect(calls).toEqual(['40@0', '40@40']);
    expect(list.more).toBe(false);
    const empty = await new PagedList(source(0).fetch, { limit: 5 });
    expect([...empty]).toEqual([]);
    expect(empty[kListWindow]).toStrictEqual({ offset: 0, more: false });
    // Exactly full: the window cannot tell, so it says the list may go on.
    const exact = await new PagedList(source(45).fetch, { limit: 45 });
    expect([exact.length, exact.more]).toEqual([45, true]);
  });

  it('is read once however often it is awaited', async () => {
    const { fetch, calls } = source(100);
    const list = new PagedList(fetch, { limit: 3 });
    expect([...(await list)]).toEqual([0, 1, 2]);
    expect([...(await list)]).toEqual([0, 1, 2]);
    expect(calls).toEqual(['3@0']);
  });

  it('takes its page size from the settings: one request of 100 without a limit, pages of 100 past it', async () => {
    const { fetch, calls } = source(1000);
    expect((await new PagedList(fetch, {}, {}, { pageSize: 100 })).length).toBe(100);
    expect(calls).toEqual(['100@0']);
    calls.length = 0;
    expect((await new PagedList(fetch, { limit: 250 }, {}, { pageSize: 100 })).length).toBe(250);
    expect(calls).toEqual(['100@0', '100@100', '50@200']);
  });

  it('names its owner on the window when it is one user’s own list', async () => {
    const list = new PagedList(source(3).fetch, {}, {}, { owner: 'griffpatch' });
    expect(list.owner).toBe('griffpatch');
    expect((await list)[kListWindow]).toStrictEqual({ offset: 0, more: false, owner: 'griffpatch' });
    expect((await new PagedList(source(3).fetch))[kListWindow]).toStrictEqual({ offset: 0, more: false });
  });

  it('rejects with the failure of a page', async () => {
    const list = new PagedList<number>(async () => {
      throw new Error('page 1 failed');
    });
    await expect(list).rejects.toThrow('page 1 failed');
  });
});

describe('PagedList: walks', () => {
  it('iterates every row from the offset to the end of the list', async () => {
    const { fetch, calls } = source(85);
    const rows: number[] = [];
    for await (const row of new PagedList(fetch, { offset: 2 }, { prefetch: 1 })) rows.push(row);
    expect(rows).toEqual(range(2, 85));
    expect(calls).toEqual(['40@2', '40@42', '40@82']);
  });

  it('stops after the limit when one was given', async () => {
    const { fetch, calls } = source(1000);
    const rows: number[] = [];
    for await (const row of new PagedList(fetch, { limit: 50 })) rows.push(row);
    expect(rows).toEqual(range(0, 50));
    expect(calls).toEqual(['40@0', '10@40']);
  });

  it('all() collects the walk with its own options; a walk without a limit has no more', async () => {
    const { fetch } = source(130);
    const reports: unknown[] = [];
    const list = new PagedList(fetch, { offset: 10 });
    const all = await list.all({ onProgress: (progress) => reports.push(progress), prefetch: 1 });
    expect([...all]).toEqual(range(10, 130));
    expect(all[kListWindow]).toStrictEqual({ offset: 10, more: false });
    expect(reports).toEqual([
      { items: 40, pages: 1, done: false },
      { items: 80, pages: 2, done: false },
      { items: 120, pages: 3, done: false },
      { items: 120, pages: 4, done: true },
    ]);
  });

  it('pages() yields each page; an empty last page is not yielded', async () => {
    const { fetch } = source(80);
    const pages: number[][] = [];
    for await (const page of new PagedList(fetch).pages({ prefetch: 2 })) pages.push(page);
    expect(pages).toEqual([range(0, 40), range(40, 80)]);
  });

  it('reports done on the page that reaches the limit', async () => {
    const reports: unknown[] = [];
    await new PagedList(source(1000).fetch, { limit: 60 }, { onProgress: (p) => reports.push(p) });
    expect(reports).toEqual([
      { items: 40, pages: 1, done: false },
      { items: 60, pages: 2, done: true },
    ]);
  });

  it('keeps `prefetch` requests in flight ahead of the reader (5 by default), and no more', async () => {
    const { fetch, pending, answer } = held(1000);
    const walk = new PagedList(fetch).pages()[Symbol.asyncIterator]();
    const first = walk.next();
    await until(() => pending.length === 5, 'five requests in flight');
    expect(pending.map((p) => `${p.limit}@${p.offset}`)).toEqual([
      '40@0',
      '40@40',
      '40@80',
      '40@120',
      '40@160',
    ]);
    answer(0);
    expect((await first).value).toEqual(range(0, 40));
    // The reader asks for the next page: one more goes out while it waits.
    const second = walk.next();
    await until(() => pending.length === 6, 'the sixth request');
    expect(pending[5]!.offset).toBe(200);
    answer(1);
    expect((await second).value).toEqual(range(40, 80));
    await walk.return?.();
    // The walk is over: the requests still out are told so.
    expect(pending.map((p) => p.signal!.aborted)).toEqual([true, true, true, true, true, true]);

    const two = held(1000);
    const walk2 = new PagedList(two.fetch).pages({ prefetch: 2 })[Symbol.asyncIterator]();
    const page = walk2.next();
    await until(() => two.pending.length === 2, 'two requests in flight');
    two.answer(0);
    expect((await page).value).toEqual(range(0, 40));
    const next = walk2.next();
    await until(() => two.pending.length === 3, 'the third request');
    expect(two.pending.map((p) => `${p.limit}@${p.offset}`)).toEqual(['40@0', '40@40', '40@80']);
    two.answer(1);
    await next;
    await walk2.return?.();
    expect(two.pending).toHaveLength(3);
  });

  it('hands the pages a signal that aborts when the walk ends, and stops at the caller’s signal', async () => {
    const { fetch, signals } = source(30);
    await new PagedList(fetch);
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(true);
    expect(signals[0]!.reason).toMatchObject({ name: 'AbortError', message: 'the walk is over' });

    const stopped = new AbortController();
    stopped.abort(new Error('not now'));
    const idle = source(30);
    await expect(new PagedList(idle.fetch, {}, { signal: stopped.signal })).rejects.toThrow('not now');
    expect(idle.calls).toEqual([]);

    const caller = new AbortController();
    const open = held(1000);
    const walk = new PagedList(open.fetch, {}, { signal: caller.signal, prefetch: 1 }).all();
    await until(() => open.pending.length === 1, 'the first request');
    caller.abort(new Error('enough'));
    expect(open.pending[0]!.signal!.aborted).toBe(true);
    open.answer(0);
    await expect(walk).rejects.toThrow('enough');
    expect(open.pending).toHaveLength(1);
  });

  it('reports the service’s waits through onProgress while it walks, and stops listening after', async () => {
    const listeners = new Set<RateLimitListener>();
    const watchRateLimits = (listener: RateLimitListener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    };
    const reports: unknown[] = [];
    const { fetch, pending, answer } = held(50);
    const list = new PagedList(
      fetch,
      {},
      { onProgress: (p) => reports.push(p), prefetch: 1 },
      { watchRateLimits },
    );
    const walk = list.all();
    await until(() => pending.length === 1, 'the first request');
    expect(listeners.size).toBe(1);
    answer(0);
    await until(() => pending.length === 2, 'the second request');
    const wait = { resumeInMs: 2100, status: 429, message: 'rate-limited, resuming in 2.1 s' };
    for (const listener of listeners) listener(wait);
    answer(1);
    expect((await walk).length).toBe(50);
    expect(reports).toEqual([
      { items: 40, pages: 1, done: false },
      { items: 40, pages: 1, done: false, rateLimited: wait },
      { items: 50, pages: 2, done: true },
    ]);
    expect(listeners.size).toBe(0);
    // Without an onProgress nothing listens.
    await new PagedList(source(3).fetch, {}, {}, { watchRateLimits });
    expect(listeners.size).toBe(0);
    expect(list.reportsProgress).toBe(true);
    expect(new PagedList(fetch).reportsProgress).toBe(false);
  });
});

describe('PagedList: skip', () => {
  it('starts further on and shrinks a limit to match', async () => {
    const { fetch, calls } = source(1000);
    const list = new PagedList(fetch, { limit: 50, offset: 5 });
    const rest = await list.skip(20);
    expect([...rest]).toEqual(range(25, 55));
    expect(calls).toEqual(['30@25']);
    expect(rest.offset).toBe(25);
    calls.length = 0;
    const open = await new PagedList(fetch, { offset: 5 }).skip(40);
    expect([...open]).toEqual(range(45, 85));
    expect(calls).toEqual(['40@45']);
  });

  it('skipping the whole limit or more reads nothing', async () => {
    const { fetch, calls } = source(1000);
    for (const rows of [50, 51]) {
      const none = new PagedList(fetch, { limit: 50 }).skip(rows);
      expect([...(await none)]).toEqual([]);
      const walked: number[] = [];
      for await (const row of none) walked.push(row);
      expect(walked).toEqual([]);
    }
    expect(calls).toEqual([]);
    // One row left is still read.
    expect([...(await new PagedList(fetch, { limit: 50 }).skip(49))]).toEqual([49]);
    expect(() => new PagedList(fetch).skip(-1)).toThrow(RangeError);
  });

  it('keeps the settings and walk options', async () => {
    const reports: unknown[] = [];
    const list = new PagedList(
      source(300).fetch,
      {},
      { onProgress: (p) => reports.push(p) },
      { pageSize: 100, owner: 'me' },
    );
    const rest = list.skip(250);
    expect(rest.owner).toBe('me');
    expect(rest.reportsProgress).toBe(true);
    expect([...(await rest.all())]).toEqual(range(250, 300));
    expect(reports).toEqual([{ items: 50, pages: 1, done: true }]);
  });
});

describe('PagedList: arguments', () => {
  it('checks the window, the page size and the walk options when the list is made', () => {
    const { fetch } = source(1);
    expect(() => new PagedList(fetch, null as never)).toThrow(
      new TypeError('page options must be an object'),
    );
    expect(() => new PagedList(fetch, 5 as never)).toThrow(TypeError);
    expect(() => new PagedList(fetch, { limit: 0 })).toThrow(/^limit must be at least 1, got 0$/);
    expect(() => new PagedList(fetch, { offset: -2 })).toThrow(/^offset must be at least 0, got -2$/);
    expect(() => new PagedList(fetch, {}, {}, { pageSize: 0 })).toThrow(
      /^pageSize must be at least 1, got 0$/,
    );
    expect(() => new PagedList(fetch).skip(-3)).toThrow(/^rows must be at least 0, got -3$/);
    expect(() => new PagedList(fetch, {}, { prefetch: 60 })).toThrow(
      /^prefetch must be between 1 and 50, got 60$/,
    );
    expect(() => new PagedList(fetch, { limit: 1.5 })).toThrow(TypeError);
    expect(() => new PagedList(fetch, { offset: -1 })).toThrow(RangeError);
    expect(() => new PagedList(fetch, {}, {}, { pageSize: 0 })).toThrow(RangeError);
    expect(() => new PagedList(fetch, {}, null as never)).toThrow(
      new TypeError('walk options must be an object'),
    );
    expect(() => new PagedList(fetch, {}, 'x' as never)).toThrow(TypeError);
    expect(() => new PagedList(fetch, {}, { onProgress: 1 as never })).toThrow(
      /onProgress must be a function/,
    );
    expect(() => new PagedList(fetch, {}, { prefetch: 0 })).toThrow(RangeError);
    expect(() => new PagedList(fetch, {}, { prefetch: 51 })).toThrow(RangeError);
    expect(() => new PagedList(fetch, {}, { signal: {} as never })).toThrow(
      new TypeError('signal must be an AbortSignal'),
    );
    expect(() => new PagedList(fetch).all({ prefetch: 0 })).toThrow(RangeError);
    expect(() => new PagedList(fetch).pages({ signal: 1 as never })).toThrow(TypeError);
    // The bounds themselves are allowed.
    expect(
      () => new PagedList(fetch, { limit: 1, offset: 0 }, { prefetch: 50 }, { pageSize: 1 }),
    ).not.toThrow();
    expect(
      () => new PagedList(fetch, {}, { prefetch: 1, signal: new AbortController().signal }),
    ).not.toThrow();
  });
});
