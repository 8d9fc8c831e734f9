/**
 * `plot()` of a query's million rows (as many as `query` answers), against a real DuckDB store:
 * the chart draws each series thinned to every bucket's lowest and highest point (so a single
 * peak survives), the terminal drawing and the SVG come out, and the rows are left as they were.
 */
import { describe, expect, it } from 'vitest';
import { chartOf } from '../../src/presentation/index.js';
import { useTempStore } from '../support/temp-store.js';

const temp = useTempStore('scratchlab-plot-million-');
const ROWS = 1_000_000;
const PEAK_AT = 777_777;
const T0 = Date.UTC(2024, 4, 1);

describe('plot() of a million rows', () => {
  it('draws them, downsampled for the drawing, peaks kept, the data untouched', async () => {
    const rows = await temp.store.query(
      `select make_timestamp(${T0 * 1000}::BIGINT + i * 1000000) as at,
              case when i = ${PEAK_AT} then 1000000 else i % 1000 end as score,
              (i % 7)::DOUBLE - 100 as level
       from range(${ROWS}) t(i) order by i`,
    );
    expect(rows.length).toBe(ROWS);
    const before = { ...rows[PEAK_AT] };

    const chart = chartOf(rows, { title: 'a million' });
    const values = (chart.spec.data as { values: { series: string; value: number; time: number }[] }).values;
    const score = values.filter((v) => v.series === 'score');
    const level = values.filter((v) => v.series === 'level');
    expect(score.length).toBeGreaterThan(500);
    expect(score.length).toBeLessThanOrEqual(2000);
    expect(level.length).toBeLessThanOrEqual(2000);
    // Each bucket's lowest and highest: the one peak and the floor survive, in time order.
    expect(Math.max(...score.map((v) => v.value))).toBe(1_000_000);
    expect(score.find((v) => v.value === 1_000_000)!.time).toBe(T0 + PEAK_AT * 1000);
    expect(Math.min(...score.map((v) => v.value))).toBe(0);
    expect(Math.min(...level.map((v) => v.value))).toBe(-100);
    expect(Math.max(...level.map((v) => v.value))).toBe(-94);
    expect(score.every((v, i) => i === 0 || v.time >= score[i - 1]!.time)).toBe(true);
    expect(chart.summary).toMatch(/1,000,000 rows, drawn from [\d,]+ points/);

    const drawn = chart.render({ width: 80, height: 24, color: false });
    expect(drawn).toMatch(/score · 1,000,000 points/);
    const svg = await chart.toSVG();
    expect(svg).toMatch(/^<svg/);
    expect(svg).toContain('a million');

    // The rows are the query's, whole and unchanged.
    expect(rows.length).toBe(ROWS);
    expect(rows[PEAK_AT]).toEqual(before);
    expect(rows[PEAK_AT]!.score).toBe(1_000_000);
  }, 120_000);
});
