import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type JsonObject,
  type JsonValue,
  liveChartSpec,
  logsChartSpec,
  renderSvg,
  summarizeLogs,
} from '../../src/presentation/index.js';
import { bigLog, logEntry } from './records.js';

const T0 = Date.UTC(2024, 4, 1, 12, 0, 0);

// Newest first, as on the wire.
const smallLog = [
  logEntry(T0 + 7_200_000, 'alice', 'high score', '1200'),
  logEntry(T0 + 3_600_000, 'bob', 'players', '3'),
  logEntry(T0 + 1_800_000, 'alice', 'high score', '900'),
  logEntry(T0 + 900_000, 'carol', 'players', '2'),
  logEntry(T0 + 600_000, 'alice', 'message', '36294343497620664955432777'),
  logEntry(T0, 'bob', 'high score', '100'),
];

const obj = (x: JsonValue | undefined): JsonObject => x as JsonObject;
const arr = (x: JsonValue | undefined): JsonValue[] => x as JsonValue[];

describe('logsChartSpec', () => {
  it('has a values view and a per-user activity view, as plain JSON', () => {
    const spec = logsChartSpec(smallLog, { topUsers: 2 });
    expect(JSON.parse(JSON.stringify(spec))).toEqual(spec);
    expect(spec.$schema).toMatch(/vega-lite\/v6\.json$/);
    const [values, users] = arr(spec.vconcat).map(obj);
    const rows = arr(obj(values!.data).values).map(obj);
    expect(rows).toEqual([
      { time: T0, name: 'high score', value: 100, event: true },
      { time: T0 + 1_800_000, name: 'high score', value: 900, event: true },
      { time: T0 + 7_200_000, name: 'high score', value: 1200, event: true },
      { time: T0 + 900_000, name: 'players', value: 2, event: true },
      { time: T0 + 3_600_000, name: 'players', value: 3, event: true },
    ]);
    // One view per variable, its name as the value axis's title, round grouped ticks.
    const views = arr(values!.vconcat).map(obj);
    expect(views.map((v) => obj(obj(v.encoding).y).title)).toEqual(['high score', 'players']);
    expect(obj(obj(obj(views[0]!.encoding).y).axis).format).toBe(',~f');
    expect(views.map((v) => obj(v.encoding).x).map((x) => obj(x).title)).toEqual([null, 'Time (UTC)']);
    expect(arr(obj(users!.data).values)).toEqual([
      { user: 'alice', count: 3 },
      { user: 'bob', count: 2 },
    ]);
    expect(users!.mark).toBe('bar');
    expect(obj(users!.encoding).y).toMatchObject({ field: 'user', sort: '-x' });
  });

  it('stays small for 100,000 entries', () => {
    const spec = logsChartSpec(bigLog(100_000), { maxPoints: 500 });
    const rows = arr(obj(obj(arr(spec.vconcat)[0]).data).values);
    expect(rows.length).toBeLessThanOrEqual(500 * 3); // three numeric variables
    expect(JSON.stringify(spec).length).toBeLessThan(150_000);
  });
});

describe('liveChartSpec', () => {
  it('shows the last `window` seconds on a fixed time axis', () => {
    const points = [
      { time: T0, name: 'x', value: 1 },
      { time: T0 + 50_000, name: 'x', value: 2 },
      { time: T0 + 70_000, name: 'x', value: 5 },
      { time: T0 + 75_000, name: 'y', value: -1 },
    ];
    const spec = liveChartSpec(points, { window: 30 });
    const rows = arr(obj(spec.data).values).map(obj);
    expect(rows).toEqual([
      { time: T0 + 45_000, name: 'x', value: 1, event: false },
      { time: T0 + 50_000, name: 'x', value: 2, event: true },
      { time: T0 + 70_000, name: 'x', value: 5, event: true },
      { time: T0 + 75_000, name: 'x', value: 5, event: false },
      { time: T0 + 75_000, name: 'y', value: -1, event: true },
      // y is constant: invisible rows give its axis a range around the value.
      { time: T0 + 75_000, name: 'y', value: -1.1, event: false, pad: true },
      { time: T0 + 75_000, name: 'y', value: -0.9, event: false, pad: true },
    ]);
    const xOf = (s: JsonObject) => obj(obj(obj(arr(s.vconcat)[0]).encoding).x);
    const x = xOf(spec);
    expect(obj(x.scale).domain).toEqual([T0 + 45_000, T0 + 75_000]);
    // Default window: 60 s.
    expect(obj(xOf(liveChartSpec(points)).scale).domain).toEqual([T0 + 15_000, T0 + 75_000]);
  });
});

describe('renderSvg', () => {
  it('draws a small log as SVG with axis titles, variable and user names', async () => {
    const svg = await renderSvg(logsChartSpec(smallLog));
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).not.toContain('>Value</text>');
    for (const text of ['Time (UTC)', 'Entries', 'User', 'high score', 'players', 'alice', 'bob', 'carol']) {
      expect(svg, text).toContain(`>${text}</text>`);
    }
    // 24-hour UTC tick labels, whatever the machine's time zone.
    expect(svg).toContain('>13:00</text>');
    // Text-only variables are not drawn.
    expect(svg).not.toContain('>message</text>');
  });

  it('draws a live chart', async () => {
    const svg = await renderSvg(liveChartSpec([{ time: T0, name: 'speed', value: 3 }], { window: 10 }));
    expect(svg).toContain('<svg');
    expect(svg).toContain('>speed</text>');
  });

  it('builds and renders the 100,000-entry chart, and summarizes it', async () => {
    // Their times are in the benchmarks (test/bench/presentation.bench.mjs).
    const entries = bigLog(100_000);
    const svg = await renderSvg(logsChartSpec(entries));
    const summary = summarizeLogs(entries);
    expect(svg).toContain('>score</text>');
    expect(summary).toMatch(/^100,000 cloud log entries/);
  });
});

describe('summarizeLogs', () => {
  it('gives entries, time range, variables and top users', () => {
    expect(summarizeLogs(smallLog, { topUsers: 2 })).toBe(
      [
        '6 cloud log entries, 2024-05-01 12:00:00 – 2024-05-01 14:00:00 UTC (2h)',
        'Variables (3): high score 3 (last 1200), players 2 (last 3), message 1 (last "362943434976206…")',
        'Users (3): alice 3, bob 2, +1 more',
      ].join('\n'),
    );
    expect(summarizeLogs([])).toBe('Cloud log: no entries');
    expect(summarizeLogs([logEntry(T0, 'a', 'v', 'x')])).toBe(
      '1 cloud log entry, at 2024-05-01 12:00:00 UTC\nVariables (1): v 1 (last "x")\nUsers (1): a 1',
    );
  });

  it('counts 100,000 entries exactly', () => {
    const entries = bigLog(100_000);
    const lines = summarizeLogs(entries).split('\n');
    expect(lines[0]).toMatch(
      /^100,000 cloud log entries, 2024-05-01 00:00:00 – 2024-05-01 23:59:59 UTC \(23h 59m\)$/,
    );
    expect(lines[1]).toMatch(/^Variables \(4\): score /);
    expect(lines[2]).toMatch(/^Users \(50\): player0 [\d,]+, /);
  });
});

describe('start-up cost', () => {
  it('no presentation module imports vega or vega-lite statically', () => {
    const dir = new URL('../../src/presentation/', import.meta.url);
    for (const file of readdirSync(dir)) {
      const source = readFileSync(new URL(file, dir), 'utf8');
      expect(source, file).not.toMatch(/^\s*import\s[^;]*from\s+['"]vega(-lite)?['"]/m);
    }
  });
});

describe('time axis format', () => {
  it('adds the date to hour ticks over spans longer than a day and a half', async () => {
    const { timeFormatFor } = await import('../../src/presentation/charts.js');
    expect(timeFormatFor(3_600_000)).toMatchObject({ hours: '%H:%M' });
    expect(timeFormatFor(7 * 86_400_000)).toMatchObject({ hours: '%b %d %H:%M', date: '%b %d' });
  });
});
