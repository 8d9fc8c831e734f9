import { describe, expect, it } from 'vitest';
import {
  barChartSpec,
  type JsonObject,
  type JsonValue,
  projectBars,
  projectStatsChartSpec,
  renderSvg,
  summarizeBars,
} from '../../src/presentation/index.js';
import { project } from './records.js';

const obj = (x: JsonValue | undefined): JsonObject => x as JsonObject;
const arr = (x: JsonValue | undefined): JsonValue[] => x as JsonValue[];

const projects = [
  project(1, 'Small game', 'alice', { views: 10, loves: 2 }),
  project(2, 'Big game', 'alice', { views: 5_000, loves: 300 }),
  project(3, 'Big game', 'alice', { views: 700, loves: 90 }),
];

describe('barChartSpec', () => {
  it('draws one panel per series with independent scales, rows by the first series', () => {
    const spec = barChartSpec(
      [
        { label: 'a', series: 'views', value: 1 },
        { label: 'b', series: 'views', value: 3 },
        { label: 'a', series: 'loves', value: 5 },
        { label: 'b', series: 'loves', value: 0 },
      ],
      { title: 'T' },
    );
    expect(JSON.parse(JSON.stringify(spec))).toEqual(spec);
    expect(spec.title).toBe('T');
    expect(obj(obj(spec.facet).column).sort).toEqual(['views', 'loves']);
    expect(obj(obj(obj(spec.spec).encoding).y).sort).toEqual(['b', 'a']);
    expect(obj(obj(spec.resolve).scale).x).toBe('independent');
    expect(arr(obj(spec.data).values)).toHaveLength(4);
  });

  it('keeps the largest rows only', () => {
    const bars = Array.from({ length: 50 }, (_, i) => ({ label: `p${i}`, series: 'views', value: i }));
    const spec = barChartSpec(bars, { maxRows: 5 });
    expect(obj(obj(obj(spec.spec).encoding).y).sort).toEqual(['p49', 'p48', 'p47', 'p46', 'p45']);
  });

  it('keeps the given order when asked, and adds up repeated labels', () => {
    const bars = ['09:00', '10:00', '11:00', '10:00'].map((label, i) => ({
      label,
      series: 'entries',
      value: i + 1,
    }));
    const spec = barChartSpec(bars, { order: 'given', maxRows: 2 });
    expect(obj(obj(obj(spec.spec).encoding).y).sort).toEqual(['09:00', '10:00']);
    expect(arr(obj(spec.data).values)).toEqual([
      { label: '09:00', series: 'entries', value: 1 },
      { label: '10:00', series: 'entries', value: 6 },
    ]);
    expect(summarizeBars(bars, { order: 'given' })).toBe(
      '09:00: entries 1\n10:00: entries 6\n11:00: entries 3',
    );
  });
});

describe('projectStatsChartSpec', () => {
  it('labels rows by title, numbering repeated titles', () => {
    const bars = projectBars(projects);
    expect(bars.map((b) => b.label)).toEqual([
      'Small game',
      'Small game',
      'Big game',
      'Big game',
      'Big game (2)',
      'Big game (2)',
    ]);
    expect(bars.filter((b) => b.series === 'loves').map((b) => b.value)).toEqual([2, 300, 90]);
  });

  it('renders to SVG', async () => {
    const svg = await renderSvg(
      projectStatsChartSpec(projects, { metrics: ['views', 'loves', 'favorites'] }),
    );
    expect(svg).toMatch(/^<svg/);
    expect(svg).toContain('Big game (2)');
    expect(svg).toContain('favorites');
  });
});

describe('summarizeBars', () => {
  it('lists each row in chart order', () => {
    expect(summarizeBars(projectBars(projects))).toBe(
      [
        'Big game: views 5,000, loves 300',
        'Big game (2): views 700, loves 90',
        'Small game: views 10, loves 2',
      ].join('\n'),
    );
    expect(summarizeBars([])).toBe('Bar chart: no data');
  });
});
