import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RATE_LIMIT,
  type RateLimitWait,
  RequestBudget,
  rateLimitMessage,
  resolveRateLimit,
} from '../../src/http/request-budget.js';

// The request budget's rules on their own (the paced requests against the sandbox are in
// request-budget.test.ts): the rate after refusals and successes, the order and refusals of
// waiting requests. No assertion reads a clock: rates and counts are exact.
describe('rateLimit option', () => {
  it('fills in the burst and the default, and names what is wrong', () => {
    expect(resolveRateLimit(undefined)).toEqual({ perSecond: 10, burst: 5 });
    expect(resolveRateLimit(undefined)).not.toBe(DEFAULT_RATE_LIMIT);
    expect(resolveRateLimit(7)).toEqual({ perSecond: 7, burst: 3 });
    expect(resolveRateLimit(1)).toEqual({ perSecond: 1, burst: 1 });
    expect(resolveRateLimit(0.01)).toEqual({ perSecond: 0.01, burst: 1 });
    expect(resolveRateLimit({ perSecond: 4, burst: 4 })).toEqual({ perSecond: 4, burst: 4 });
    expect(resolveRateLimit(Number.POSITIVE_INFINITY).perSecond).toBe(Number.POSITIVE_INFINITY);
    expect(resolveRateLimit({ perSecond: Number.POSITIVE_INFINITY, burst: 0 })).toEqual({
      perSecond: Number.POSITIVE_INFINITY,
      burst: 0,
    });
    expect(resolveRateLimit({ perSecond: 2000, burst: 1000 })).toEqual({ perSecond: 2000, burst: 1000 });
    const refusal = (value: unknown, name?: string) => {
      try {
        resolveRateLimit(value as never, name);
      } catch (error) {
        return `${(error as Error).name}: ${(error as Error).message}`;
      }
      return 'accepted';
    };
    expect(refusal(null)).toBe(
      'TypeError: rateLimit must be a number of requests a second or { perSecond, burst }',
    );
    expect(refusal('10', 'budget')).toBe(
      'TypeError: budget must be a number of requests a second or { perSecond, burst }',
    );
    expect(refusal(Number.NaN)).toBe(
      'TypeError: rateLimit.perSecond must be a number (Infinity turns the budget off)',
    );
    expect(refusal({ perSecond: '5' })).toBe(
      'TypeError: rateLimit.perSecond must be a number (Infinity turns the budget off)',
    );
    expect(refusal(0.009)).toBe('RangeError: rateLimit must be at least 0.01 requests a second, got 0.009');
    expect(refusal(-1)).toBe('RangeError: rateLimit must be at least 0.01 requests a second, got -1');
    expect(refusal({ perSecond: 5, burst: 0 })).toBe(
      'RangeError: rateLimit.burst must be an integer 1..1000, got 0',
    );
    expect(refusal({ perSecond: 5, burst: 1001 })).toBe(
      'RangeError: rateLimit.burst must be an integer 1..1000, got 1001',
    );
    expect(refusal({ perSecond: 5, burst: 1.5 })).toBe(
      'RangeError: rateLimit.burst must be an integer 1..1000, got 1.5',
    );
    expect(refusal(3000)).toBe('RangeError: rateLimit.burst must be an integer 1..1000, got 1500');
  });

  it('writes the wait in seconds with one decimal, never negative', () => {
    expect(rateLimitMessage(2100)).toBe('rate-limited, resuming in 2.1 s');
    expect(rateLimitMessage(49)).toBe('rate-limited, resuming in 0.0 s');
    expect(rateLimitMessage(-500)).toBe('rate-limited, resuming in 0.0 s');
  });
});

describe('RequestBudget', () => {
  it('halves the rate on a refusal, down to one request every 5 s, and reports the pause', () => {
    const waits: RateLimitWait[] = [];
    const budget = new RequestBudget({ perSecond: 8, burst: 4 }, (wait) => waits.push(wait));
    expect([budget.perSecond, budget.refusals, budget.queued]).toEqual([8, 0, 0]);
    budget.refused(0, performance.now());
    expect([budget.perSecond, budget.refusals]).toEqual([4, 1]);
    expect(waits).toEqual([{ resumeInMs: 0, status: 429, message: 'rate-limited, resuming in 0.0 s' }]);
    // A request sent before the rate was lowered lowers it no further (it was on its way with the others).
    budget.refused(0, Number.NEGATIVE_INFINITY, 503);
    expect([budget.perSecond, budget.refusals, waits[1]!.status]).toEqual([4, 2, 503]);
    for (let i = 0; i < 10; i++) budget.refused(0, performance.now());
    expect(budget.perSecond).toBe(0.2);
    const pause = 30_000;
    budget.refused(pause, performance.now());
    expect(waits.at(-1)!.resumeInMs).toBeGreaterThan(pause - 1000);
    expect(waits.at(-1)!.resumeInMs).toBeLessThanOrEqual(pause);
    expect(budget.idle).toBe(false);
  });

  it('wins the rate back by 5% of the limit per second of successes, never above the limit', () => {
    const budget = new RequestBudget({ perSecond: 10, burst: 5 });
    budget.succeeded();
    expect(budget.perSecond).toBe(10);
    budget.refused(0, performance.now());
    expect(budget.perSecond).toBe(5);
    // At 5 a second, each success adds 0.05 * 10 / 5 = 0.1.
    budget.succeeded();
    expect(budget.perSecond).toBeCloseTo(5.1, 10);
    for (let i = 0; i < 200; i++) budget.succeeded();
    expect(budget.perSecond).toBe(10);
  });

  it('lets requests go in order of asking, and an aborted one leaves the queue', async () => {
    // At 10 a second the next token is 100 ms away: the three asks below queue (they are made at
    // once, in one synchronous turn) and go one by one.
    const budget = new RequestBudget({ perSecond: 10, burst: 1 });
    await budget.acquire();
    const order: number[] = [];
    const stop = new AbortController();
    const first = budget.acquire().then(() => order.push(1));
    const second = budget.acquire(stop.signal).then(
      () => order.push(2),
      (error: unknown) => order.push((error as Error).message === 'stopped' ? -2 : 0),
    );
    const third = budget.acquire().then(() => order.push(3));
    expect(budget.queued).toBe(3);
    stop.abort(new Error('stopped'));
    expect(budget.queued).toBe(2);
    await Promise.all([first, second, third]);
    expect(order).toEqual([-2, 1, 3]);
    expect(budget.queued).toBe(0);
    // An aborted signal throws at once, before the request takes a place.
    expect(() => budget.acquire(stop.signal)).toThrow('stopped');
  });

  it('without pacing lets every request go at once, but keeps a refusal pause', async () => {
    const budget = new RequestBudget({ perSecond: Number.POSITIVE_INFINITY, burst: 1 });
    expect(budget.perSecond).toBe(Number.POSITIVE_INFINITY);
    await Promise.all(Array.from({ length: 50 }, () => budget.acquire()));
    expect(budget.idle).toBe(true);
    budget.refused(60_000, performance.now());
    expect(budget.perSecond).toBe(Number.POSITIVE_INFINITY);
    const stop = new AbortController();
    const waiting = budget.acquire(stop.signal);
    expect(budget.queued).toBe(1);
    expect(budget.idle).toBe(false);
    stop.abort(new Error('no wait'));
    await expect(waiting).rejects.toThrow('no wait');
    expect(budget.queued).toBe(0);
  });

  it('refuses a request past 10,000 waiting at once', async () => {
    const budget = new RequestBudget({ perSecond: 0.01, burst: 1 });
    await budget.acquire();
    const stop = new AbortController();
    const waiting = Array.from({ length: 10_000 }, () => budget.acquire(stop.signal).catch(() => undefined));
    expect(budget.queued).toBe(10_000);
    await expect(budget.acquire()).rejects.toThrow(
      new RangeError('more than 10000 requests are waiting for the request budget; send fewer at once'),
    );
    stop.abort();
    await Promise.all(waiting);
    expect(budget.queued).toBe(0);
  });
});
