// The kernel's `store` and `sql` under Jupyter (nbconvert drives the installed sandbox kernel):
// the store opens on first use as scratchlab.duckdb in the notebook's folder, a load walks a
// list into it, a query's rows show as an HTML table, and `plot(await sql`…`)` sends a chart.
// Two kernels in one folder use that file at once: one loads rows a few at a time while the
// other draws `live({ table })` over them, a query asked every half second that moves as the
// other process's rows arrive; neither fails for the other's hold on the file.
import { existsSync, mkdirSync } from 'node:fs';
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
} from './jupyter.js';

const VEGA_LITE = 'application/vnd.vegalite.v5+json';
const outputOf = (cell: Cell) =>
  (cell.outputs ?? []).filter((o) => o.output_type === 'execute_result' || o.output_type === 'display_data');

// Each test runs whole notebooks (a kernel start, a sandbox): slow on a busy machine.
describe.skipIf(!hasJupyter)('store and sql in the kernel', { timeout: 120_000 }, () => {
  let home: JupyterHome;
  let folder: string;

  beforeAll(async () => {
    home = jupyterHome('kernel-store');
    folder = join(home.dir, 'notebooks');
    mkdirSync(folder, { recursive: true });
    await installKernels(home);
  });

  it('loads, queries with the sql template, shows the rows as a table and charts them', async () => {
    const cells = [
      /* 0 */ 'await store.load("studio", session.studios.projects(sandbox.samples.studio))',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the cell's code, a tagged template
      /* 1 */ 'const top = 2;\nawait sql`select username, count(*) as projects from studio group by 1 order by 2 desc, 1 limit ${top}`',
      /* 2 */ [
        'await store.load("ticks", Array.from({ length: 20 }, (_, i) => ({ id: i, minute: new Date(Date.UTC(2024, 0, 1, 0, i)), players: i % 5 })));',
        'await plot(await sql`select minute, players from ticks order by minute`)',
      ].join('\n'),
      /* 3 */ 'store.path',
    ];
    const path = join(folder, 'store.ipynb');
    writeNotebook(path, makeNotebook(cells));
    const { notebook } = await executeNotebook(home, path);
    const [load, table, chart, where] = notebook.cells;

    expect(text(outputOf(load!)[0]!.data!['text/plain'] as string)).toMatch(/rows: \d+/);
    const bundle = outputOf(table!)[0]!.data as Record<string, string | string[]>;
    expect(text(bundle['text/html'])).toContain('<table');
    expect(text(bundle['text/html'])).toContain('username');
    expect(text(bundle['text/plain'])).toMatch(/username\s+projects/);
    expect(text(bundle['text/plain']).trim().split('\n')).toHaveLength(4); // header, rule, 2 rows

    const charts = outputOf(chart!).filter((o) => o.data && VEGA_LITE in o.data);
    expect(charts.length).toBeGreaterThanOrEqual(1);
    const spec = charts[0]!.data![VEGA_LITE] as {
      data: { values: { series: string }[] };
      mark: { type: string };
    };
    expect(spec.mark.type).toBe('line');
    expect(spec.data.values).toHaveLength(20);
    expect(spec.data.values.every((v) => v.series === 'players')).toBe(true);

    expect(text(outputOf(where!)[0]!.data!['text/plain'] as string)).toContain(
      join(folder, 'scratchlab.duckdb'),
    );
    expect(existsSync(join(folder, 'scratchlab.duckdb'))).toBe(true);
  });

  it('records a project’s cloud history into the store and charts it from SQL (the cells for notebook 03)', async () => {
    const cells = [
      /* 0 */ [
        "const history = await store.recordCloud(session.cloud(sandbox.cloudProjectId), { table: 'game_history', interval: 0.5 });",
        'String(history)',
      ].join('\n'),
      /* 1 */ [
        'const player = session.cloud(sandbox.cloudProjectId);',
        "for (const score of [120, 340, 560]) await player.setVar('high score', score);",
        // Until the log's read has met the three live sets (up to 30 s).
        'for (let i = 0; i < 600 && history.counts.merged < 3; i++) await new Promise((resolve) => setTimeout(resolve, 50));',
        'await history.stop();',
        'await player.disconnect();',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a cell's source, with a template the kernel runs
        "await sql`select source, count(*) as rows from game_history where name = ${'high score'} and value in ('120', '340', '560') group by 1`",
      ].join('\n'),
      /* 2 */ [
        'await plot(await sql`',
        '  select time_bucket(interval 6 hour, "timestamp") as hours, count(*) as sets, count(distinct "user") as players',
        "  from game_history where verb = 'set' group by 1 order by 1`, { title: 'Sets and players every 6 hours' })",
      ].join('\n'),
    ];
    const path = join(folder, 'history.ipynb');
    writeNotebook(path, makeNotebook(cells));
    const { notebook } = await executeNotebook(home, path);
    const [start, merged, chart] = notebook.cells;
    expect(text(outputOf(start!)[0]!.data!['text/plain'] as string)).toMatch(
      /stored \d+ · live 0 · log \d+ · merged 0/,
    );
    expect(text(outputOf(merged!)[0]!.data!['text/plain'] as string)).toMatch(/source\s+rows[\s\S]*both\s+3/);
    const spec = outputOf(chart!).find((o) => o.data && VEGA_LITE in o.data)!.data![VEGA_LITE] as {
      data: { values: { series: string }[] };
    };
    expect(new Set(spec.data.values.map((v) => v.series))).toEqual(new Set(['sets', 'players']));
  });

  it('one kernel loads while the other charts the table live; both use the same file', async () => {
    const loads = 6;
    const loader = [
      [
        `for (let i = 1; i <= ${loads}; i++) {`,
        "  await store.load('beats', [{ at: new Date(), n: i }], { key: false });",
        '  await new Promise((resolve) => setTimeout(resolve, 400));',
        '}',
        '(await sql`select count(*)::INT as n from beats`)[0]',
      ].join('\n'),
    ];
    const watcher = [
      "const chart = live({ table: 'beats', time: 'at', window: 3600, every: 0.5, title: 'Beats' });",
      [
        'const total = () => chart.rows.reduce((sum, row) => sum + Number(row.rows), 0);',
        `for (let waited = 0; total() < ${loads} && waited < 60_000; waited += 100) await new Promise((r) => setTimeout(r, 100));`,
        'await chart.stop();',
        'total()',
      ].join('\n'),
    ];
    const loaderPath = join(folder, 'loader.ipynb');
    const watcherPath = join(folder, 'watcher.ipynb');
    writeNotebook(loaderPath, makeNotebook(loader));
    writeNotebook(watcherPath, makeNotebook(watcher));
    const [loaded, watched] = await Promise.all([
      executeNotebook(home, loaderPath),
      executeNotebook(home, watcherPath),
    ]);

    expect(text(outputOf(loaded.notebook.cells[0]!)[0]!.data!['text/plain'] as string)).toContain(
      `n: ${loads}`,
    );
    const [liveCell, totalCell] = watched.notebook.cells;
    expect(text(outputOf(totalCell!)[0]!.data!['text/plain'] as string).trim()).toBe(String(loads));
    // The live display was updated in place: its final drawing is a chart of every row, stopped.
    const drawings = outputOf(liveCell!).filter((o) => o.data && VEGA_LITE in o.data);
    expect(drawings).toHaveLength(1);
    const summary = text(drawings[0]!.data!['text/plain'] as string);
    expect(summary).toContain('(stopped)');
    const spec = drawings[0]!.data![VEGA_LITE] as { data: { values: { value: number }[] } };
    expect(spec.data.values.reduce((sum, point) => sum + point.value, 0)).toBe(loads);
  });
});
