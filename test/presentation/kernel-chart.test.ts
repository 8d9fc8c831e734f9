/**
 * Charts and record lists in a real kernel (nbconvert over the installed sandbox kernel): `plot`
 * answers a chart shown once in its cell, savable as PNG; the chart shows again as a later cell's
 * value; record lists export CSV; an empty answer says "no results".
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Cell,
  executeNotebook,
  hasJupyter,
  installKernels,
  type JupyterHome,
  jupyterHome,
  makeNotebook,
  text,
  writeNotebook,
} from '../kernel/jupyter.js';

const VEGA_LITE = 'application/vnd.vegalite.v5+json';
const displays = (cell: Cell) => (cell.outputs ?? []).filter((o) => o.output_type === 'display_data');
/** Everything rich the cell showed: its displays and its value (Out[n]). */
const shown = (cell: Cell) =>
  (cell.outputs ?? []).filter((o) => o.output_type === 'display_data' || o.output_type === 'execute_result');
/** The cell's value as IPython shows it: the `text/plain` of its `execute_result` (Out[n]). */
const result = (cell: Cell) =>
  (cell.outputs ?? [])
    .filter((o) => o.output_type === 'execute_result')
    .map((o) => text(o.data!['text/plain'] as string))
    .join('');

describe.skipIf(!hasJupyter)('charts and lists in the kernel', () => {
  let home: JupyterHome;
  beforeAll(async () => {
    home = jupyterHome('present');
    await installKernels(home);
  });

  // A whole notebook through nbconvert and a kernel: 25 s here under others' load, so the bound is
  // that of the other notebook runs, not vitest's 30 s default.
  it('plot answers a chart shown once, saved as PNG, shown again as a value', {
    timeout: 120_000,
  }, async () => {
    const folder = join(home.dir, 'notebooks');
    mkdirSync(folder, { recursive: true });
    const png = join(home.dir, 'activity.png');
    const csv = join(home.dir, 'followers.csv');
    const cells = [
      /* 0 */ [
        'const t0 = Date.UTC(2024, 0, 1);',
        "const logs: CloudLogEntry[] = Array.from({ length: 200 }, (_, i) => ({ user: 'u' + (i % 3), verb: 'set' as const, name: 'score', value: String(59000 + i), timestamp: t0 + i * 1000 }));",
        'const chart = await plot(logs);',
        `const saved = await chart.save(${JSON.stringify(png)});`,
        'saved.format',
      ].join('\n'),
      /* 1 */ 'chart',
      /* 2 */ 'await plot(logs)',
      /* 3 */ `const followers = await session.users.followers(sandbox.samples.popularUser);\n(await followers.save(${JSON.stringify(csv)})).format`,
      /* 4 */ "await session.search.projects('no such thing at all zz')",
    ];
    const path = join(folder, 'charts.ipynb');
    writeNotebook(path, makeNotebook(cells));
    const c = (await executeNotebook(home, path)).notebook.cells;

    expect(displays(c[0]!)).toHaveLength(1);
    expect(Object.keys(displays(c[0]!)[0]!.data!)).toEqual([VEGA_LITE, 'image/svg+xml', 'text/plain']);
    expect(result(c[0]!)).toContain('PNG');
    const bytes = readFileSync(png);
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');

    // The same chart as a later cell's value: shown again (as Out[n]), from its own bundle.
    expect(shown(c[1]!)).toHaveLength(1);
    expect(Object.keys(shown(c[1]!)[0]!.data!)).toContain(VEGA_LITE);
    expect(text(shown(c[1]!)[0]!.data!['text/plain'] as string)).toMatch(/^200 cloud log entries/);
    // `await plot(x)` as a cell's value: shown once, not twice.
    expect(shown(c[2]!)).toHaveLength(1);

    expect(result(c[3]!)).toContain('CSV');
    expect(readFileSync(csv, 'utf8').split('\r\n')[0]).toMatch(/^id,username,scratchteam,history\.joined/);

    expect(shown(c[4]!).map((d) => text(d.data!['text/plain'] as string))).toEqual(['no results']);
  });
});
