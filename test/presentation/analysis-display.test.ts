/**
 * Project analyses in both front ends: a table (one row per analysis: size, CT score, complexity,
 * smells), and `plot()`: one project's blocks by category, across projects the CT levels.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { valueBundle } from '../../kernel/display/helpers.js';
import { createWriter } from '../../repl/display/writer.js';
import { analyzeProject, RecordList } from '../../src/index.js';
import { chartOf, toTable, VEGA_LITE_MIME } from '../../src/presentation/index.js';

const real = (name: string) =>
  JSON.parse(readFileSync(new URL(`../analysis/fixtures/${name}`, import.meta.url), 'utf8'));
const dolphin = {
  id: 42,
  ...analyzeProject(real('scratch-vm__load-extensions_confirm-load_pen-dolphin-3d.json')),
};
const simple = {
  id: 7,
  ...analyzeProject(real('turbowarp-vm__execute_tw-zombie-cube-escape-284516654.json')),
};

describe('analyses shown', () => {
  it('as a table: one row each', () => {
    const table = toTable([dolphin, simple]);
    expect(table.kind).toBe('projectAnalysis');
    expect(table.columns.map((c) => c.header)).toEqual([
      'id',
      'sprites',
      'scripts',
      'blocks',
      'unique',
      'CT',
      'level',
      'complexity',
      'nesting',
      'smells',
    ]);
    expect(table.rows).toEqual([
      ['42', '4', '32', '300', '41', '16', 'proficiency', '2', '1', '1'],
      ['7', '1', '2', '14', '10', '10', 'developing', '2', '1', '2'],
    ]);
    expect(table.links[0]![0]).toBe('/projects/42/');
  });

  it('in the kernel as an HTML table, in the REPL as a text table', () => {
    const html = valueBundle(RecordList.fromWindow([dolphin, simple]), 'https://scratch.mit.edu')[
      'text/html'
    ] as string;
    expect(html).toContain('<tr><td>42<td>4<td>32<td>300<td>41<td>16<td>proficiency<td>2<td>1<td>1<tr>');
    const write = createWriter({ color: false, size: () => ({ width: 100, height: 30 }) });
    const text = write(dolphin);
    expect(text).toMatch(/blocks.*CT.*level/);
    expect(text).toMatch(/300.*16.*proficiency/);
  });

  it("plot(analysis): the project's blocks by category", async () => {
    const chart = await chartOf(dolphin).ready();
    const spec = chart.spec as { data: { values: { label: string; value: number }[] } };
    const byCategory = Object.fromEntries(spec.data.values.map((v) => [v.label, v.value]));
    expect(Object.values(byCategory).reduce((a, b) => a + b, 0)).toBe(300);
    expect(Object.keys(byCategory).sort()).toEqual(
      [...new Set(Object.keys(dolphin.summary.opcodes).map((op) => op.split('_')[0]))].sort(),
    );
    expect(Object.keys(valueBundle(chart, undefined))).toContain(VEGA_LITE_MIME);
  });

  it('plot(analyses): projects by CT level, every level shown in order', async () => {
    const chart = chartOf([dolphin, simple, simple]);
    const spec = chart.spec as { data: { values: { label: string; value: number }[] } };
    expect(spec.data.values.map((v) => [v.label, v.value])).toEqual([
      ['basic', 0],
      ['developing', 2],
      ['proficiency', 1],
    ]);
    expect(chart.summary).toContain('developing');
  });
});
