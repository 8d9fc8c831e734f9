import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  Chart,
  chartOf,
  compactAxisFormat,
  formatCompact,
  JUPYTER_DISPLAY,
  logsChartSpec,
  REPL_DISPLAY,
  renderSvg,
  VEGA_LITE_MIME,
} from '../../src/presentation/index.js';
import { decodePng } from '../kernel/png.js';
import { logEntry, project } from './records.js';

const T0 = Date.UTC(2024, 4, 1, 12, 0, 0);
const log = Array.from({ length: 30 }, (_, i) =>
  logEntry(T0 + i * 60_000, i % 2 ? 'alice' : 'bob', 'score', String(59_000 + i * 22)),
);
const dir = mkdtempSync(join(tmpdir(), 'scratchlab-chart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const texts = (svg: string): string[] => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);

describe('Chart', () => {
  const chart = chartOf(log, { title: 'Scores' });

  it('gives its spec, and draws itself in the terminal and in notebooks', async () => {
    expect(chart).toBeInstanceOf(Chart);
    expect(chart.spec.title).toBe('Scores');
    expect(JSON.parse(JSON.stringify(chart))).toEqual(chart.spec);
    const drawing = chart[REPL_DISPLAY]({ width: 80, height: 30, color: false });
    expect(drawing).toContain('score · 30 entries');
    expect(drawing).toMatch(/^ +59\.\d\dk┤/m);
    // Before the SVG is rendered the bundle has the spec and text; after, the SVG as well.
    expect(Object.keys(chart[JUPYTER_DISPLAY]())).toEqual([VEGA_LITE_MIME, 'text/plain']);
    await chart.ready();
    const bundle = chart[JUPYTER_DISPLAY]();
    expect(Object.keys(bundle)).toEqual([VEGA_LITE_MIME, 'image/svg+xml', 'text/plain']);
    expect(bundle['text/plain']).toContain('30 cloud log entries');
    expect((bundle[VEGA_LITE_MIME] as { $schema: string }).$schema).toMatch(/v5\.json$/);
  });

  it('saves SVG, PNG (a real raster), standalone HTML and the JSON spec', async () => {
    const svg = await chart.save(join(dir, 'c.svg'));
    expect(svg.format).toBe('SVG');
    expect(readFileSync(svg.path, 'utf8')).toMatch(/^<svg /);

    const png = await chart.save(join(dir, 'c.png'));
    const bytes = readFileSync(png.path);
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.bytes).toBe(bytes.length);
    const image = decodePng(bytes);
    expect(image.width).toBeGreaterThan(600); // drawn at twice the SVG's size
    // Not blank: many distinct colours (white background, axes, the line, text).
    const colours = new Set<number>();
    let dark = 0;
    for (let i = 0; i < image.pixels.length; i += image.channels) {
      const [r, g, b] = [image.pixels[i]!, image.pixels[i + 1]!, image.pixels[i + 2]!];
      colours.add((r << 16) | (g << 8) | b);
      if (r + g + b < 300) dark++;
    }
    expect(colours.size).toBeGreaterThan(20);
    expect(dark).toBeGreaterThan(500);

    const html = await chart.save(join(dir, 'c.html'));
    const page = readFileSync(html.path, 'utf8');
    expect(page).toMatch(/^<!DOCTYPE html>/);
    expect(page).toContain('<svg ');
    expect(page).toContain('<title>Scores</title>');
    // Works offline: nothing fetched, no script to run.
    expect(page).not.toMatch(/<script[^>]+src=|<link |@import|https?:\/\/(?!www\.w3\.org|vega\.github\.io)/);
    const spec = JSON.parse(
      /<script type="application\/json" id="vega-lite-spec">([\s\S]*?)<\/script>/.exec(page)![1]!,
    );
    expect(spec).toEqual(chart.spec);

    const json = await chart.save(join(dir, 'c.json'));
    expect(JSON.parse(readFileSync(json.path, 'utf8'))).toEqual(chart.spec);
    expect(String(json)).toMatch(/^saved .*c\.json \([\d.]+ kB Vega-Lite JSON\)$/);

    await expect(chart.save(join(dir, 'c.gif'))).rejects.toThrow(/\.svg, \.png, \.html or \.json/);
    await expect(chart.save('')).rejects.toThrow(TypeError);
  });

  it('draws projects and hand-made specs, and refuses anything else', () => {
    const bars = chartOf([
      project(1, 'Paper Minecraft', 'x', { views: 59_660, loves: 7_912 }),
      project(2, 'Tiny', 'x', { views: 5, loves: 0 }),
    ]);
    expect(bars.summary).toBe('Paper Minecraft: views 59,660, loves 7,912\nTiny: views 5, loves 0');
    // In the terminal: a panel per number, each scaled to its own largest value.
    const drawn = bars.render({ width: 80, height: 24, color: false }).split('\n');
    expect(drawn[0]).toMatch(/^ +views +loves/);
    expect(drawn[1]).toMatch(/^Paper Minecraft +█+ 59\.66k +█+ 7\.91k$/);
    expect(drawn[2]).toMatch(/^Tiny +▏? +5 +0$/);
    for (const line of drawn) expect(line.length).toBeLessThanOrEqual(79);
    const own = chartOf({ mark: 'point', data: { values: [] } });
    expect(own.summary).toBe('Chart');
    expect(() => chartOf([{ a: 1 }])).toThrow(/plot\(\) draws/);
  });
});

describe('axis ticks', () => {
  it('are round and grouped in SVG, never six decimals; a constant series gets a range', async () => {
    const flat = Array.from({ length: 5 }, (_, i) => logEntry(T0 + i * 1000, 'a', 'players', '59660'));
    const labels = texts(await renderSvg(logsChartSpec([...flat, ...log])));
    expect(labels).toContain('59,000');
    // players is constant at 59,660: its axis spans round ticks around it.
    expect(labels).toContain('55,000');
    expect(labels).toContain('60,000');
    expect(labels.join(' ')).not.toMatch(/\.0000/);
    // The axes are titled by the variables.
    expect(labels).toContain('players');
    expect(labels).toContain('score');
    expect(labels).not.toContain('Value');
  });

  it('share one compact style in the terminal', () => {
    const f = compactAxisFormat(59_000, 59_660, 10);
    expect([59_000, 59_066, 59_660].map(f)).toEqual(['59.00k', '59.07k', '59.66k']);
    expect(compactAxisFormat(0, 14_161, 6)(9_440)).toBe('9.4k');
    expect(compactAxisFormat(5, 5, 3)(5)).toBe('5');
    expect(compactAxisFormat(0, 4, 6)(2)).toBe('2.0');
    expect(compactAxisFormat(0, 7_900_000, 5)(7_900_000)).toBe('7.90M');
    expect(formatCompact(7900)).toBe('7.9k');
    expect(formatCompact(59_651.7)).toBe('59.65k');
    expect(formatCompact(12)).toBe('12');
  });
});
