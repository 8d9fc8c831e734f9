/**
 * Charts draw without a warning under Vega 5, the runtime JupyterLab 4 and Notebook 7 render
 * `application/vnd.vegalite.v5+json` with (TOOLCHAIN.md): notebook 03's charts logged "Infinite
 * extent for field" warnings there, from layers with no rows (a live chart whose variables have
 * not changed within the window, a log with no entries). The specs are compiled by the project's
 * vega-lite 6 (vega-lite 5 cannot be installed beside it: it wants vega 5 as its peer).
 */
import { createRequire } from 'node:module';
import { compile } from 'vega-lite';
import { describe, expect, it } from 'vitest';
import { analyzeProject, type CloudLogEntry } from '../../src/index.js';
import { barChartSpec, chartOf, liveChartSpec, logsChartSpec } from '../../src/presentation/index.js';
import { projectOf } from '../support/project-builder.js';

const require = createRequire(import.meta.url);
type VegaView = { runAsync(): Promise<unknown>; toSVG(): Promise<string>; finalize(): void };
const vega5 = require('vega5') as {
  version: string;
  Warn: number;
  parse(spec: unknown): unknown;
  View: new (runtime: unknown, options: { renderer: string; logLevel: number; logger?: unknown }) => VegaView;
};

/** What Vega 5 warns while it renders `spec`: its own logger, at the warning level. */
async function warningsOf(spec: unknown): Promise<string[]> {
  const warnings: string[] = [];
  const note = (...args: unknown[]) => {
    warnings.push(args.join(' '));
    return logger;
  };
  const logger: Record<string, unknown> = {
    level: (value?: number) => (value === undefined ? vega5.Warn : logger),
    warn: note,
    error: note,
    info: () => logger,
    debug: () => logger,
  };
  const compiled = compile(JSON.parse(JSON.stringify(spec))).spec;
  const view = new vega5.View(vega5.parse(compiled), { renderer: 'none', logLevel: vega5.Warn, logger });
  try {
    await view.runAsync();
    await view.toSVG();
  } finally {
    view.finalize();
  }
  return warnings;
}

const now = Date.UTC(2024, 0, 1, 12);
const log = (name: string, values: string[]): CloudLogEntry[] =>
  values.map((value, i) => ({
    timestamp: now + i * 60_000,
    user: i % 2 ? 'ann' : 'bob',
    verb: 'set',
    name,
    value,
  }));

describe('charts under Vega 5', () => {
  it('runs Vega 5 (and its logger sees a warning when there is one)', async () => {
    expect(vega5.version).toMatch(/^5\./);
    const full = {
      data: { values: [{ n: 2 }] },
      mark: 'bar',
      encoding: { x: { field: 'n', type: 'quantitative' } },
    };
    expect(await warningsOf(full)).toEqual([]);
    const layered = {
      data: { values: [{ n: 1 }] },
      layer: [{ mark: 'point' }, { transform: [{ filter: 'datum.n > 5' }], mark: 'point' }],
      encoding: { x: { field: 'n', type: 'quantitative' } },
    };
    expect((await warningsOf(layered)).join()).toMatch(/Infinite extent for field "n"/);
  });

  it("live charts whose variables did not change within the window (notebook 03's live charts at first)", async () => {
    const points = [
      { time: now - 60_000, name: 'score', value: 5 },
      { time: now - 50_000, name: 'players online', value: 2 },
    ];
    expect(await warningsOf(liveChartSpec(points, { now, window: 10 }))).toEqual([]);
    expect(await warningsOf(liveChartSpec([], { now, window: 10 }))).toEqual([]);
  });

  it('cloud logs: varied, constant and empty', async () => {
    expect(await warningsOf(logsChartSpec(log('☁ score', ['1', '5', '9', '30'])))).toEqual([]);
    expect(await warningsOf(logsChartSpec(log('☁ flag', ['1', '1', '1'])))).toEqual([]);
    expect(await warningsOf(logsChartSpec([]))).toEqual([]);
  });

  it("bar charts and the analyses' charts", async () => {
    const bars = Array.from({ length: 24 }, (_, hour) => ({
      label: `${hour}:00`,
      series: 'entries',
      value: hour % 3,
    }));
    expect(await warningsOf(barChartSpec(bars, { order: 'given' }))).toEqual([]);
    const analysis = analyzeProject(projectOf(['event_whenflagclicked', 'looks_show']));
    expect(await warningsOf(chartOf(analysis).spec)).toEqual([]);
    expect(await warningsOf(chartOf([analysis, analysis]).spec)).toEqual([]);
    // A project with no blocks at all: no bars.
    expect(await warningsOf(chartOf(analyzeProject(projectOf())).spec)).toEqual([]);
  });
});
