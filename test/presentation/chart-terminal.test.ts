import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { type LivePoint, renderLiveChart, renderLogsChart } from '../../src/presentation/index.js';
import { bigLog, logEntry } from './records.js';

const T0 = Date.UTC(2024, 4, 1, 12, 0, 0);
const maxWidth = (text: string): number => Math.max(...text.split('\n').map((l) => stringWidth(l)));

// Oldest first here; the renderer accepts either order.
const log = [
  ...Array.from({ length: 120 }, (_, i) =>
    logEntry(T0 + i * 30_000, i % 3 ? 'alice' : 'bob', 'score', String(i * i)),
  ),
  ...Array.from({ length: 40 }, (_, i) => logEntry(T0 + i * 90_000, 'carol', 'level', String(i % 5))),
  logEntry(T0 + 5000, 'dave', 'greeting', '36294343497620664955432777'),
];

describe('renderLogsChart', () => {
  it('plots the variables by name and lists users, within width and height', () => {
    for (const [width, height] of [
      [80, 24],
      [60, 16],
      [120, 40],
    ] as const) {
      const out = renderLogsChart(log, { width, height });
      expect(out).toContain('score · 120 entries · last 14.16k');
      expect(out).toContain('level · 40 entries');
      expect(out).toContain('not plotted: greeting (1, text)');
      expect(out).toMatch(/^alice +█+ +80$/m);
      expect(out).toMatch(/^bob +█+▏?▎?▍?▌?▋?▊?▉? +40$/m);
      expect(out.split('\n').length, out).toBeLessThanOrEqual(height + 3);
      expect(maxWidth(out), out).toBeLessThanOrEqual(width);
    }
  });

  it('labels the value axis with the series range and the time axis with its ends', () => {
    const out = renderLogsChart(log, { width: 80, height: 24 });
    expect(out).toMatch(/^ +14\.2k┤/m); // 119² = 14,161
    expect(out).toMatch(/^ +11\.8k┤/m); // every label in one style: the unit and one decimal
    expect(out).toMatch(/^ +0┤/m);
    expect(out).toMatch(/└12:00:00 +12:59:30$/m);
  });

  it('keeps to the height budget for a 100,000-entry log', () => {
    // Its time is in the benchmarks (test/bench/presentation.bench.mjs).
    const out = renderLogsChart(bigLog(100_000), { width: 100, height: 30 });
    expect(out.split('\n').length).toBeLessThanOrEqual(33);
    for (const name of ['score', 'level', 'players online']) expect(out).toContain(`${name} · `);
    expect(maxWidth(out)).toBeLessThanOrEqual(100);
  });

  it('colours only when asked', () => {
    expect(renderLogsChart(log)).not.toContain('\x1b');
    const coloured = renderLogsChart(log, { color: true });
    expect(coloured).toContain('\x1b[36m');
    expect(maxWidth(coloured)).toBeLessThanOrEqual(80);
  });

  it('says so for an empty log', () => {
    expect(renderLogsChart([])).toBe('Cloud log: no entries');
  });
});

describe('renderLiveChart', () => {
  const points: LivePoint[] = Array.from({ length: 90 }, (_, i) => ({
    time: T0 + i * 1000,
    name: i % 2 ? 'speed' : 'altitude',
    value: i % 2 ? i : 1000 - i * 3,
  }));

  it('plots the last window of each variable', () => {
    const out = renderLiveChart(points, { width: 70, height: 16, window: 60 });
    expect(out.split('\n')[0]).toBe('Live: last 1m until 2024-05-01 12:01:29 UTC');
    expect(out).toContain('altitude · 30 changes · now 736');
    // The window includes its start: speed changed at 12:00:29, 12:00:31, ..., 12:01:29.
    expect(out).toContain('speed · 31 changes · now 89');
    expect(out).toMatch(/└-1m +now$/m);
    expect(out.split('\n').length, out).toBeLessThanOrEqual(16 + 3);
    expect(maxWidth(out)).toBeLessThanOrEqual(70);
    // Older values are left out: the lowest speed label is its value at the window's start.
    expect(out).toMatch(/^ +29┤/m);
  });

  it('leaves columns blank before a variable first appears', () => {
    const late = [
      { time: T0 + 50_000, name: 'late', value: 5 },
      { time: T0 + 60_000, name: 'late', value: 6 },
    ];
    const out = renderLiveChart(late, { width: 40, height: 8, window: 60, now: T0 + 60_000 });
    const plotLines = out.split('\n').filter((l) => l.includes('┤'));
    // 50 of 60 seconds passed before the first value: the first 5/6 of the plot is empty.
    for (const line of plotLines) expect(line.slice(9, 9 + 20).trim()).toBe('');
    expect(plotLines.some((l) => /[─╭╮╰╯│]/.test(l.slice(9 + 27)))).toBe(true);
  });

  it('says so when there is nothing to show', () => {
    expect(renderLiveChart([], { now: T0 })).toBe('Live: last 1m until 2024-05-01 12:00:00 UTC: no values');
  });
});
