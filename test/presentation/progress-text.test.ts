import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProgressPacer } from '../../src/presentation/progress-pacer.js';
import { formatBytes, progressCounts } from '../../src/presentation/progress-text.js';
import { RateLimitCountdown } from '../../src/presentation/rate-limit-countdown.js';

describe('progress text (one wording for the REPL and the kernel)', () => {
  it('words walks and transfers', () => {
    expect(progressCounts(null)).toBe('starting');
    expect(progressCounts({ items: 1, pages: 1, done: false })).toBe('1 row · 1 page');
    expect(progressCounts({ items: 1240, pages: 31, done: false })).toBe('1,240 rows · 31 pages');
    expect(progressCounts({ done: 0, total: 4, bytes: 0 })).toBe('0/4 assets · 0 B');
    expect(progressCounts({ done: 12, total: 100, bytes: 3 * 1024 * 1024 })).toBe('12/100 assets · 3.0 MB');
  });

  it('writes sizes in the largest unit that is at least 1', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 kB');
    expect(formatBytes(42 * 1024 * 1024)).toBe('42 MB');
    expect(formatBytes(5 * 1024 ** 4)).toBe('5120 GB');
  });
});

describe('RateLimitCountdown', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('redraws during a pause, counts down, and goes quiet when it is over or stopped', () => {
    vi.useFakeTimers();
    const drawn: string[] = [];
    const countdown: RateLimitCountdown = new RateLimitCountdown(() => drawn.push(countdown.suffix()), 500);
    expect(countdown.suffix()).toBe('');
    countdown.pause(2100);
    expect(drawn).toEqual([' · rate-limited, resuming in 2.1 s']);
    vi.advanceTimersByTime(1000);
    expect(drawn.at(-1)).toBe(' · rate-limited, resuming in 1.1 s');
    vi.advanceTimersByTime(1500);
    expect(drawn.at(-1)).toBe('');
    const count = drawn.length;
    vi.advanceTimersByTime(5000);
    expect(drawn.length).toBe(count);
    countdown.pause(1000);
    countdown.stop();
    expect(countdown.suffix()).toBe('');
    vi.advanceTimersByTime(5000);
    expect(drawn.length).toBe(count + 1);
  });

  it('refuses a bad redraw or period', () => {
    expect(() => new RateLimitCountdown(undefined as unknown as () => void, 100)).toThrow(TypeError);
    expect(() => new RateLimitCountdown(() => undefined, 0)).toThrow(RangeError);
  });
});

describe('ProgressPacer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('draws nothing before the delay, then at most once per interval; a pause at once', () => {
    vi.useFakeTimers();
    let draws = 0;
    const pacer = new ProgressPacer(() => draws++, { delay: 300, interval: 250, countdownEvery: 500 });
    const walk = { items: 40, pages: 1, done: false };
    pacer.report(walk);
    pacer.report(walk);
    expect(draws).toBe(0);
    vi.advanceTimersByTime(300); // the delay is over: one draw, though no report came
    expect(draws).toBe(1);
    pacer.report(walk);
    expect(draws).toBe(1); // too soon after the last
    vi.advanceTimersByTime(250);
    pacer.report(walk);
    expect(draws).toBe(2);
    pacer.report({ ...walk, rateLimited: { resumeInMs: 1000, status: 429, message: 'rate-limited' } });
    expect(draws).toBe(3);
    expect(pacer.suffix()).toBe(' · rate-limited, resuming in 1.0 s');
    pacer.stop();
    vi.advanceTimersByTime(5000);
    expect(draws).toBe(3);
    expect(pacer.suffix()).toBe('');
  });
});
