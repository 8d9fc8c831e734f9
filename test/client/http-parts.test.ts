import { CookieJar } from 'tough-cookie';
import { describe, expect, it } from 'vitest';
import { mapConcurrent } from '../../src/http/concurrency.js';
import { toCookieJar } from '../../src/http/cookies.js';
import { dateLimitFetcher } from '../../src/http/date-limit-walk.js';
import { PLATFORM_HOSTS, resolveHosts } from '../../src/http/hosts.js';
import { answerText } from '../../src/http/html-answer.js';
import { numberedPages } from '../../src/http/numbered-pages.js';
import { TokenBucket } from '../../src/http/token-bucket.js';

// The small parts under the HTTP core, each on its own with exact values: the clock of the token
// bucket is passed in, so no assertion reads a real one.
describe('token bucket', () => {
  it('starts full, refills at its rate up to its burst, and says how long until a token', () => {
    const bucket = new TokenBucket(2, 3, 0);
    expect([bucket.perSecond, bucket.burst]).toEqual([2, 3]);
    expect(bucket.isFull(0)).toBe(true);
    expect([bucket.take(0), bucket.take(0), bucket.take(0), bucket.take(0)]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(bucket.msUntilToken(0)).toBe(500);
    expect(bucket.msUntilToken(250)).toBe(250);
    expect(bucket.isFull(250)).toBe(false);
    expect(bucket.take(499)).toBe(false);
    expect(bucket.take(500)).toBe(true);
    expect(bucket.msUntilToken(500)).toBe(500);
    // 1.5 s refill 3 tokens: full again, never more than the burst.
    expect(bucket.isFull(1999)).toBe(false);
    expect(bucket.isFull(2000)).toBe(true);
    expect(bucket.msUntilToken(10_000)).toBe(0);
    expect([bucket.take(10_000), bucket.take(10_000), bucket.take(10_000), bucket.take(10_000)]).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('changes its rate keeping the tokens held up to the new burst (at least one), and empties', () => {
    const bucket = new TokenBucket(10, 5, 0);
    bucket.setRate(1, 2, 0);
    expect([bucket.perSecond, bucket.burst]).toEqual([1, 2]);
    expect([bucket.take(0), bucket.take(0), bucket.take(0)]).toEqual([true, true, false]);
    expect(bucket.msUntilToken(0)).toBe(1000);
    bucket.setRate(4, 0, 0);
    expect(bucket.burst).toBe(1);
    expect(bucket.msUntilToken(0)).toBe(250);
    const full = new TokenBucket(1, 4, 0);
    full.take(0);
    full.setRate(1, 2, 1000);
    expect([full.take(1000), full.take(1000), full.take(1000)]).toEqual([true, true, false]);
    const emptied = new TokenBucket(2, 3, 0);
    emptied.empty(0);
    expect(emptied.take(0)).toBe(false);
    expect(emptied.msUntilToken(0)).toBe(500);
    expect(emptied.isFull(1500)).toBe(true);
  });
});

describe('hosts', () => {
  it('fills in the real hosts and checks each given one by its role', () => {
    expect(resolveHosts()).toEqual(PLATFORM_HOSTS);
    expect(
      resolveHosts({ api: 'http://127.0.0.1:9/api/', cloudWs: 'ws://127.0.0.1:9/cloud', site: undefined }),
    ).toEqual({
      ...PLATFORM_HOSTS,
      api: 'http://127.0.0.1:9/api',
      cloudWs: 'ws://127.0.0.1:9/cloud',
    });
    expect(() => resolveHosts({ cloudWs: 'https://x' })).toThrow(
      new TypeError('hosts.cloudWs must use ws: or wss:, got https:'),
    );
    expect(() => resolveHosts({ api: 'wss://x' })).toThrow(
      new TypeError('hosts.api must use http: or https:, got wss:'),
    );
    expect(() => resolveHosts({ apis: 'https://x' } as never)).toThrow(
      new TypeError(
        'hosts.apis is not a known role (expected one of site, api, projects, assets, cloudHttp, cloudWs, backpack)',
      ),
    );
    expect(() => resolveHosts(null as never)).toThrow(new TypeError('hosts must be an object of base URLs'));
    expect(() => resolveHosts('https://x' as never)).toThrow(
      new TypeError('hosts must be an object of base URLs'),
    );
  });
});

describe('cookie jars by shape', () => {
  it('takes a tough-cookie jar and names what another object lacks', () => {
    const jar = new CookieJar();
    expect(toCookieJar(jar)).toBe(jar);
    expect(() => toCookieJar(null)).toThrow(new TypeError('jar must be a tough-cookie CookieJar'));
    expect(() => toCookieJar('jar', 'options.jar')).toThrow(
      new TypeError('options.jar must be a tough-cookie CookieJar'),
    );
    expect(() => toCookieJar({ getCookieString() {}, setCookie() {}, store: {} })).toThrow(
      new TypeError(
        'jar must be a tough-cookie CookieJar (it lacks getCookies, getCookiesSync, serializeSync, store.removeCookie)',
      ),
    );
    const { store: _store, ...noStore } = Object.fromEntries(
      ['getCookieString', 'setCookie', 'getCookies', 'getCookiesSync', 'serializeSync'].map((m) => [
        m,
        () => 0,
      ]),
    );
    expect(() => toCookieJar(noStore)).toThrow(
      new TypeError('jar must be a tough-cookie CookieJar (it lacks store.removeCookie)'),
    );
  });
});

describe('mapConcurrent', () => {
  it('keeps the input order, runs at most `limit` at once, and at least one', async () => {
    let running = 0;
    let most = 0;
    const task = async (n: number) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      return n * 10;
    };
    expect(await mapConcurrent([3, 1, 2, 5, 4], 2, task)).toEqual([30, 10, 20, 50, 40]);
    expect(most).toBe(2);
    most = 0;
    expect(await mapConcurrent([1, 2, 3], 0, task)).toEqual([10, 20, 30]);
    expect(most).toBe(1);
    most = 0;
    expect(await mapConcurrent([1, 2], 10, task)).toEqual([10, 20]);
    expect(most).toBe(2);
    expect(await mapConcurrent([], 3, task)).toEqual([]);
  });

  it('rejects with the first failure, aborts the others and starts no new task', async () => {
    const started: number[] = [];
    const aborted: unknown[] = [];
    const failure = new Error('two failed');
    const run = mapConcurrent([1, 2, 3, 4], 2, async (n, index, signal) => {
      started.push(index);
      if (n === 2) throw failure;
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      aborted.push(signal.reason);
      throw new Error(`aborted ${n}`);
    });
    await expect(run).rejects.toBe(failure);
    expect(started).toEqual([0, 1]);
    expect(aborted).toHaveLength(1);
    expect(aborted[0]).toMatchObject({ name: 'AbortError', message: 'another task failed' });
  });

  it('stops at its caller signal', async () => {
    const stop = new AbortController();
    const seen: number[] = [];
    const run = mapConcurrent(
      [1, 2, 3],
      1,
      async (n) => {
        seen.push(n);
        if (n === 1) stop.abort(new Error('caller stopped'));
        return n;
      },
      stop.signal,
    );
    await expect(run).rejects.toThrow('caller stopped');
    expect(seen).toEqual([1]);
  });
});

describe('numbered pages', () => {
  const LIST = Array.from({ length: 23 }, (_, i) => i);
  function reader() {
    const reads: number[] = [];
    const read = async (page: number) => {
      reads.push(page);
      return LIST.slice((page - 1) * 10, page * 10);
    };
    return { reads, fetch: numberedPages(10, read) };
  }

  it('cuts windows out of the pages they cover, reading each page once per walk', async () => {
    const { reads, fetch } = reader();
    expect(await fetch(5, 0)).toEqual([0, 1, 2, 3, 4]);
    expect(await fetch(10, 5)).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(await fetch(10, 15)).toEqual([15, 16, 17, 18, 19, 20, 21, 22]);
    expect(await fetch(10, 25)).toEqual([]);
    expect(reads).toEqual([1, 2, 3]);
    expect(await fetch(3, 10)).toEqual([10, 11, 12]);
    expect(reads).toEqual([1, 2, 3]);
  });

  it('stops at a short page, keeps at most 8 pages, and asks again after a failed read', async () => {
    const reads: number[] = [];
    let fail = true;
    const fetch = numberedPages(2, async (page: number) => {
      reads.push(page);
      if (page === 3 && fail) {
        fail = false;
        throw new Error('page 3 failed');
      }
      return page <= 12 ? [page * 2 - 2, page * 2 - 1] : [];
    });
    await expect(fetch(2, 4)).rejects.toThrow('page 3 failed');
    expect(await fetch(2, 4)).toEqual([4, 5]);
    expect(reads).toEqual([3, 3]);
    for (let page = 4; page <= 11; page++) await fetch(2, (page - 1) * 2);
    // Page 3 was the oldest of nine kept: it is read again.
    await fetch(2, 4);
    expect(reads.filter((p) => p === 3)).toHaveLength(3);
    await fetch(2, 20);
    expect(reads.filter((p) => p === 11)).toHaveLength(1);
    const short = numberedPages(10, async (page: number) => (page === 1 ? [1, 2, 3] : [9]));
    expect(await short(20, 0)).toEqual([1, 2, 3]);
  });

  it('keeps one cache per walk signal', async () => {
    const { reads, fetch } = reader();
    const a = new AbortController().signal;
    const b = new AbortController().signal;
    await fetch(5, 0, a);
    await fetch(5, 0, b);
    await fetch(5, 5, a);
    expect(reads).toEqual([1, 1]);
  });
});

describe('date-limit walks', () => {
  type Row = { id: number; datetime_created: string };
  const at = (s: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, s)).toISOString();
  // Newest first; rows 9..0, two of them (5 and 4) at one instant.
  const ROWS: Row[] = [9, 8, 7, 6, 5, 4, 3, 2, 1, 0].map((id) => ({
    id,
    datetime_created: at(id === 4 ? 5 : id),
  }));
  function site(rows = ROWS) {
    const asks: [number, string | undefined][] = [];
    const read = async (limit: number, dateLimit: string | undefined) => {
      asks.push([limit, dateLimit]);
      return rows.filter((r) => dateLimit === undefined || r.datetime_created <= dateLimit).slice(0, limit);
    };
    return { asks, read };
  }

  it('asks from the oldest date seen with one row of overlap, dropping repeats', async () => {
    const { asks, read } = site();
    const fetch = dateLimitFetcher(read);
    expect((await fetch(3, 0)).map((r) => r.id)).toEqual([9, 8, 7]);
    expect((await fetch(3, 3)).map((r) => r.id)).toEqual([6, 5, 4]);
    expect((await fetch(10, 6)).map((r) => r.id)).toEqual([3, 2, 1, 0]);
    expect(asks).toEqual([
      [3, undefined],
      [4, at(7)],
      [11, at(5)],
    ]);
    expect(await fetch(3, 10)).toEqual([]);
  });

  it('starts over for an offset it passed, reads on to one ahead, and starts at a given date', async () => {
    const { asks, read } = site();
    const fetch = dateLimitFetcher(read, at(6));
    expect((await fetch(2, 2)).map((r) => r.id)).toEqual([4, 3]);
    expect((await fetch(1, 0)).map((r) => r.id)).toEqual([6]);
    expect(asks[0]).toEqual([2, at(6)]);
    expect(asks.filter(([, d]) => d === at(6))).toHaveLength(2);
  });

  it('steps past a page of one instant instead of asking for it again', async () => {
    // Rows 3, 2 and 1 share one instant: once a page holds only rows seen, the walk steps 1 ms
    // past it (row 1, beyond two pages of that instant, cannot be read: the site pages so).
    const same: Row[] = [
      { id: 3, datetime_created: at(9) },
      { id: 2, datetime_created: at(9) },
      { id: 1, datetime_created: at(9) },
      { id: 0, datetime_created: at(8) },
    ];
    const { asks, read } = site(same);
    const fetch = dateLimitFetcher(read);
    expect((await fetch(1, 0)).map((r) => r.id)).toEqual([3]);
    expect((await fetch(1, 1)).map((r) => r.id)).toEqual([2]);
    expect((await fetch(1, 2)).map((r) => r.id)).toEqual([0]);
    expect(asks).toEqual([
      [1, undefined],
      [2, at(9)],
      [2, at(9)],
      [2, new Date(Date.parse(at(9)) - 1).toISOString()],
    ]);
  });

  it('runs one read at a time, the next after a failed one', async () => {
    let fail = true;
    const { read } = site();
    const fetch = dateLimitFetcher<Row>(async (limit, dateLimit) => {
      if (fail) {
        fail = false;
        throw new Error('down');
      }
      return read(limit, dateLimit);
    });
    const first = fetch(2, 0);
    const second = fetch(2, 0);
    await expect(first).rejects.toThrow('down');
    expect((await second).map((r) => r.id)).toEqual([9, 8]);
  });
});

describe('the text of an HTML answer', () => {
  const answer = (type: string | null, bytes: number[]) => ({
    status: 200,
    url: 'http://127.0.0.1/',
    bytes: Uint8Array.from(bytes),
    headers: new Headers(type === null ? {} : { 'content-type': type }),
  });

  it('decodes in the charset the Content-Type names, UTF-8 otherwise, never throwing', () => {
    expect(answerText(answer('text/html; charset=ISO-8859-1', [0x63, 0x61, 0x66, 0xe9]))).toBe('café');
    expect(answerText(answer('text/html;Charset="latin1"', [0xe9]))).toBe('é');
    expect(answerText(answer('text/html', [0x63, 0xc3, 0xa9]))).toBe('cé');
    expect(answerText(answer(null, [0xc3, 0xa9]))).toBe('é');
    expect(answerText(answer('text/html; charset=no-such-charset', [0xc3, 0xa9, 0xff]))).toBe('é\ufffd');
  });
});
