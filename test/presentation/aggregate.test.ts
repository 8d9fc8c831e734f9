import { describe, expect, it } from 'vitest';
import {
  aggregateLogs,
  bucketLast,
  liveBounds,
  liveWindow,
  parseCloudNumber,
  resampleSteps,
} from '../../src/presentation/index.js';
import { bigLog, logEntry } from './records.js';

const T0 = Date.UTC(2024, 4, 1, 12, 0, 0);

describe('parseCloudNumber', () => {
  it('reads plain decimal numbers only', () => {
    expect(parseCloudNumber('42')).toBe(42);
    expect(parseCloudNumber('-3.5')).toBe(-3.5);
    expect(parseCloudNumber('.5')).toBe(0.5);
    expect(parseCloudNumber('1e3')).toBe(1000);
    expect(parseCloudNumber(' 7 ')).toBe(7);
    expect(parseCloudNumber('000123')).toBe(123);
    for (const text of ['', 'abc', '0x10', 'Infinity', 'NaN', '1,000', '12abc', '-']) {
      expect(parseCloudNumber(text), text).toBeNull();
    }
  });

  it('takes long digit strings for encoded text, not quantities', () => {
    expect(parseCloudNumber('123456789012345')).toBe(123456789012345);
    expect(parseCloudNumber('36294343497620664955432777')).toBeNull();
  });
});

describe('bucketLast', () => {
  const points = Array.from({ length: 100 }, (_, i) => ({ time: i, value: i * 10 }));

  it('keeps everything when under the bound', () => {
    expect(bucketLast(points, 100)).toEqual(points);
  });

  it('keeps the last point of each of maxPoints equal time buckets', () => {
    // Span 0..99 in 10 buckets of 9.9: the last times are 9, 19, ..., 89, 99.
    expect(bucketLast(points, 10)).toEqual(
      [9, 19, 29, 39, 49, 59, 69, 79, 89, 99].map((t) => ({ time: t, value: t * 10 })),
    );
  });

  it('skips empty buckets and handles a zero span', () => {
    const sparse = [
      { time: 0, value: 1 },
      { time: 1, value: 2 },
      { time: 1000, value: 3 },
    ];
    expect(bucketLast(sparse, 2)).toEqual([sparse[1], sparse[2]]);
    const same = [
      { time: 5, value: 1 },
      { time: 5, value: 2 },
      { time: 5, value: 3 },
    ];
    expect(bucketLast(same, 2)).toEqual([{ time: 5, value: 3 }]);
  });
});

describe('aggregateLogs', () => {
  // Newest first, as on the wire.
  const log = [
    logEntry(T0 + 9000, 'carol', 'level', 'boss'),
    logEntry(T0 + 8000, 'alice', 'score', '30'),
    logEntry(T0 + 8000, 'bob', 'score', '25'), // same millisecond, but earlier on the wire's clock
    logEntry(T0 + 7000, 'bob', 'level', '2'),
    logEntry(T0 + 5000, 'alice', 'score', 'not a number'),
    logEntry(T0 + 4000, 'alice', 'old', '', 'delete'),
    logEntry(T0 + 3000, 'bob', 'score', '20'),
    logEntry(T0 + 2000, 'alice', 'level', '1'),
    logEntry(T0 + 1000, 'alice', 'score', '10', 'create'),
  ];

  it('counts entries per user exactly, most active first', () => {
    const agg = aggregateLogs(log);
    expect(agg.users).toEqual([
      { user: 'alice', count: 5 },
      { user: 'bob', count: 3 },
      { user: 'carol', count: 1 },
    ]);
    expect(agg.entries).toBe(9);
    expect(agg.start).toBe(T0 + 1000);
    expect(agg.end).toBe(T0 + 9000);
  });

  it('builds time-ordered numeric series, skipping text values and non-value verbs', () => {
    const agg = aggregateLogs(log);
    expect(agg.variables.map((v) => v.name)).toEqual(['score', 'level', 'old']);
    const score = agg.variables[0]!;
    expect(score.entries).toBe(5);
    expect(score.nonNumeric).toBe(1);
    // Equal timestamps keep log order: the wire lists alice's 30 before (= after in time) bob's 25.
    expect(score.points).toEqual([
      { time: T0 + 1000, value: 10 },
      { time: T0 + 3000, value: 20 },
      { time: T0 + 8000, value: 25 },
      { time: T0 + 8000, value: 30 },
    ]);
    expect(score.lastValue).toBe('30');
    const level = agg.variables[1]!;
    expect(level.points.map((p) => p.value)).toEqual([1, 2]);
    expect(level.lastValue).toBe('boss');
    expect(agg.variables[2]).toMatchObject({ name: 'old', entries: 1, lastValue: null, points: [] });
  });

  it('gives the same result for oldest-first and shuffled input', () => {
    const expected = aggregateLogs(log);
    expect(aggregateLogs([...log].reverse())).toEqual(expected);
    const shuffled = [log[3]!, log[0]!, log[6]!, log[8]!, log[1]!, log[2]!, log[5]!, log[7]!, log[4]!];
    const agg = aggregateLogs(shuffled);
    expect(agg.users).toEqual(expected.users);
    expect(agg.variables[0]!.points.map((p) => p.time)).toEqual(
      expected.variables[0]!.points.map((p) => p.time),
    );
  });

  it('takes the last value of each time bucket', () => {
    const entries = Array.from({ length: 1000 }, (_, i) =>
      logEntry(T0 + i * 1000, 'u', 'x', String(i)),
    ).reverse();
    const agg = aggregateLogs(entries, { maxPoints: 10 });
    // 1000 values over 999 s in 10 buckets of 99.9 s: each bucket ends on a value ≡ 99 (mod 100).
    expect(agg.variables[0]!.points.map((p) => p.value)).toEqual([
      99, 199, 299, 399, 499, 599, 699, 799, 899, 999,
    ]);
  });

  it('bounds 100,000 entries to at most maxPoints per variable, with exact user counts', () => {
    const entries = bigLog(100_000);
    // Its time is in the benchmarks (test/bench/presentation.bench.mjs).
    const agg = aggregateLogs(entries);
    expect(agg.entries).toBe(100_000);
    for (const v of agg.variables) expect(v.points.length).toBeLessThanOrEqual(500);
    const totalPoints = agg.variables.reduce((s, v) => s + v.points.length, 0);
    expect(totalPoints).toBeLessThanOrEqual(500 * agg.variables.length);
    expect(totalPoints).toBeGreaterThan(1000);
    const naive = new Map<string, number>();
    for (const e of entries) naive.set(e.user, (naive.get(e.user) ?? 0) + 1);
    expect(new Map(agg.users.map((u) => [u.user, u.count]))).toEqual(naive);
    expect(agg.users.reduce((s, u) => s + u.count, 0)).toBe(100_000);
    // The encoded-text variable has no numeric points.
    expect(agg.variables.find((v) => v.name === 'chat')!.points).toEqual([]);
  });
});

describe('resampleSteps', () => {
  const points = [
    { time: 10, value: 1 },
    { time: 20, value: 2 },
    { time: 35, value: 3 },
  ];

  it('holds each value until the next, null before the first', () => {
    // Samples at 10, 20, 30, 40 (ends of four buckets over 0..40).
    expect(resampleSteps(points, 0, 40, 4)).toEqual([1, 2, 2, 3]);
    expect(resampleSteps(points, 0, 8, 2)).toEqual([null, null]);
    expect(resampleSteps(points, 30, 50, 2)).toEqual([3, 3]);
  });
});

describe('live windows', () => {
  it('keeps the last `window` seconds, seeding each variable with its value at the start', () => {
    const points = [
      { time: T0, name: 'a', value: 1 },
      { time: T0 + 30_000, name: 'a', value: 2 },
      { time: T0 + 70_000, name: 'a', value: 3 },
      { time: T0 + 80_000, name: 'b', value: 9 },
      { time: T0 + 85_000, name: 'b', value: 8 },
    ];
    const { start, end } = liveBounds(points, 60);
    expect([start, end]).toEqual([T0 + 25_000, T0 + 85_000]);
    const series = liveWindow(points, start, end);
    // Equal numbers of changes: by name.
    expect(series).toEqual([
      {
        name: 'a',
        changes: 2,
        points: [
          { time: T0 + 25_000, value: 1 },
          { time: T0 + 30_000, value: 2 },
          { time: T0 + 70_000, value: 3 },
        ],
      },
      {
        name: 'b',
        changes: 2,
        points: [
          { time: T0 + 80_000, value: 9 },
          { time: T0 + 85_000, value: 8 },
        ],
      },
    ]);
    // Nothing changed in a later window: each variable holds its last value from the start.
    expect(liveWindow(points, T0 + 200_000, T0 + 260_000)).toEqual([
      { name: 'a', changes: 0, points: [{ time: T0 + 200_000, value: 3 }] },
      { name: 'b', changes: 0, points: [{ time: T0 + 200_000, value: 8 }] },
    ]);
    // Points after the window's end are left out.
    expect(liveWindow(points, T0, T0 + 40_000).map((s) => s.name)).toEqual(['a']);
    expect(liveBounds([], 10, 5000)).toEqual({ start: -5000, end: 5000 });
  });
});
