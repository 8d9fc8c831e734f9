import { describe, expect, it } from 'vitest';
import { summarizeLive } from '../../src/presentation/index.js';

const T0 = Date.UTC(2024, 4, 1, 10, 0, 0);

describe('summarizeLive', () => {
  it('says when there is nothing yet', () => {
    expect(summarizeLive([])).toBe('Live cloud values: no numeric values yet');
  });

  it('names each variable with its last value and its changes in the window', () => {
    const points = [
      { time: T0 - 120_000, name: 'level', value: 1 },
      { time: T0 - 30_000, name: 'score', value: 10 },
      { time: T0 - 20_000, name: 'score', value: 20 },
      { time: T0, name: 'score', value: 1234 },
    ];
    expect(summarizeLive(points, { window: 60 })).toBe(
      [
        'Live cloud values, 60s to 2024-05-01 10:00:00 UTC: 3 changes',
        'score 1,234 (3 changes), level 1 (0 changes)',
      ].join('\n'),
    );
  });

  it('cuts the list of variables', () => {
    const points = ['a', 'b', 'c'].map((name, i) => ({ time: T0 + i, name, value: i }));
    expect(summarizeLive(points, { topVariables: 1 }).split('\n')[1]).toBe('a 0 (1 change), +2 more');
  });
});
