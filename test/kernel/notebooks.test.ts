// The example notebooks, as CI runs them: executed headlessly on the sandbox kernel, exported to
// HTML with their charts, photographed by headless Chromium, and searched for secrets. Notebooks 03
// and 04 run at the same time in one folder of their own, as a user with both open runs them: both
// use that folder's default scratchlab.duckdb, 04 crawling into it while 03 records into it.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/data/index.js';
import { waitFor } from '../cloud/support.js';
import {
  type Cell,
  type Executed,
  executeNotebook,
  exportHtml,
  hasChromium,
  hasJupyter,
  installKernels,
  type JupyterHome,
  jupyterHome,
  NOTEBOOKS,
  type Notebook,
  screenshot,
  text,
} from './jupyter.js';
import { decodePng, distinctColours, inkedPixels, meanLuminance } from './png.js';
import { SECRET_PATTERNS } from './secrets.js';

/** Files notebook 01 writes beside itself with `chart.save` and `list.save` (git ignores them). */
const KEPT_FILES = ['views-and-loves.png', 'projects.csv'];

const notebooks = readdirSync(NOTEBOOKS)
  .filter((f) => f.endsWith('.ipynb'))
  .sort();

/** The notebooks run at the same time, in one folder (03 records into the store, 04 crawls into it). */
const TOGETHER = notebooks.filter((f) => /^0[34]-/.test(f));

/** The code cell whose source holds `snippet`. */
function cellWith(notebook: Notebook, snippet: string): Cell {
  const cell = notebook.cells.find((c) => c.cell_type === 'code' && text(c.source).includes(snippet));
  if (!cell) throw new Error(`no cell holds ${JSON.stringify(snippet)}`);
  return cell;
}

/** The plain text a cell shows (its values and displays). */
const shown = (cell: Cell): string =>
  (cell.outputs ?? [])
    .filter((o) => o.data)
    .map((o) => text(o.data!['text/plain'] as string | string[]))
    .join('\n');

/** The last Vega-Lite chart a cell shows: its points and its plain-text summary. */
function chartOf(cell: Cell): { values: { series?: string; value?: number }[]; summary: string } {
  const output = (cell.outputs ?? []).filter((o) => o.data && VEGA_LITE in o.data).at(-1);
  if (!output) throw new Error(`no chart in ${text(cell.source)}`);
  const spec = output.data![VEGA_LITE] as { data: { values: { series?: string; value?: number }[] } };
  return { values: spec.data.values, summary: text(output.data!['text/plain'] as string | string[]) };
}

const VEGA_LITE = 'application/vnd.vegalite.v5+json';

/** Vega's first category colour (bars, lines): pixels of it mean a chart was drawn. */
const VEGA_BLUE = [0x4c, 0x78, 0xa8] as const;

describe('the notebooks as committed', () => {
  it('are at least three, each telling its story in prose, for the sandbox kernel, without outputs', () => {
    expect(notebooks.length).toBeGreaterThanOrEqual(3);
    for (const file of notebooks) {
      const nb = JSON.parse(readFileSync(join(NOTEBOOKS, file), 'utf8')) as Notebook;
      expect(nb.metadata.kernelspec?.name, file).toBe('scratchlab-sandbox');
      const prose = nb.cells.filter((c) => c.cell_type === 'markdown').map((c) => text(c.source));
      expect(prose.length, file).toBeGreaterThanOrEqual(5);
      expect(prose.join(' ').split(/\s+/).length, file).toBeGreaterThan(250);
      for (const cell of nb.cells) expect(cell.outputs ?? [], file).toEqual([]);
    }
  });
});

describe.skipIf(!hasJupyter)('the notebooks, executed', () => {
  let home: JupyterHome;
  /** The folder notebooks {@link TOGETHER} run in (copied there), and their runs once started. */
  let shared: string;
  let together: Promise<Map<string, Executed>> | undefined;
  /** Whether 03 was still running when 04 started. */
  let crawlStartedWhileRecording = false;
  beforeAll(async () => {
    home = jupyterHome('notebooks');
    // Inside the npm project (test/.tmp): tslab finds @types/node from the kernel's folder.
    shared = join(home.dir, 'together');
    for (const file of KEPT_FILES) rmSync(join(NOTEBOOKS, file), { force: true });
    await installKernels(home);
  });

  /**
   * Executes `file` where it is; one of {@link TOGETHER} runs with the other in their shared
   * folder: 03 first, and 04 as soon as 03's recorder has made its table in the folder's store, so
   * that 04 crawls into the file while 03 records into it and charts it live.
   */
  function execute(file: string): Promise<Executed> {
    const options = { kernel: 'scratchlab-sandbox', timeout: 150 };
    if (!TOGETHER.includes(file)) return executeNotebook(home, join(NOTEBOOKS, file), options);
    together ??= (async () => {
      mkdirSync(shared, { recursive: true });
      for (const each of TOGETHER) copyFileSync(join(NOTEBOOKS, each), join(shared, each));
      const [recording, crawling] = TOGETHER.map((each) => join(shared, each)) as [string, string];
      let firstEnded = false;
      const first = executeNotebook(home, recording, options).finally(() => {
        firstEnded = true;
      });
      first.catch(() => {}); // awaited below; a failure ends the wait for its table first
      const store = await openStore(join(shared, 'scratchlab.duckdb'));
      try {
        await Promise.race([
          waitFor(
            async () => (await store.tables()).some((table) => table.name === 'game_history'),
            'notebook 03’s recorder to make its table',
            150_000,
            250,
          ),
          first.then(() => {
            throw new Error('notebook 03 ended before its recorder had made its table');
          }),
        ]);
      } finally {
        await store.close();
      }
      crawlStartedWhileRecording = !firstEnded;
      const runs = await Promise.all([first, executeNotebook(home, crawling, options)]);
      return new Map(TOGETHER.map((each, i) => [each, runs[i]!]));
    })();
    return together.then((runs) => runs.get(file)!);
  }

  describe.each(notebooks)('%s', (file) => {
    let executed: Executed;

    // Two notebooks at once on two cores take longer than one.
    it('runs every cell without an error', { timeout: 300_000 }, async () => {
      executed = await execute(file);
      for (const cell of executed.notebook.cells) {
        for (const output of cell.outputs ?? []) {
          expect(output.output_type, text(cell.source)).not.toBe('error');
          if (output.output_type === 'stream')
            expect(output.name, `${text(cell.source)}\n${text(output.text)}`).toBe('stdout');
        }
      }
      // IPython's conventions: every code cell has its count, values show as Out[n].
      const code = executed.notebook.cells.filter((c) => c.cell_type === 'code');
      const counts = code.map((c) => (c as unknown as { execution_count: number | null }).execution_count);
      expect(counts).toEqual(code.map((_, i) => i + 1));
      const results = code.flatMap((c, i) =>
        (c.outputs ?? [])
          .filter((o) => o.output_type === 'execute_result')
          .map((o) => ({
            count: (o as unknown as { execution_count: number }).execution_count,
            cell: i + 1,
          })),
      );
      expect(results.length, 'Out[n] outputs').toBeGreaterThanOrEqual(1);
      for (const { count, cell } of results) expect(count).toBe(cell);
      const charts = executed.notebook.cells.flatMap((c) =>
        (c.outputs ?? []).filter((o) => o.data && 'image/svg+xml' in o.data),
      );
      expect(charts.length).toBeGreaterThanOrEqual(1);
    });

    it('never shows the session id or the X-Token', () => {
      expect(executed, 'the notebook ran').toBeDefined();
      const saved = readFileSync(executed.path, 'utf8');
      for (const pattern of SECRET_PATTERNS) expect(saved).not.toMatch(pattern);
      expect(saved).not.toMatch(/scratchsessionsid=/);
    });

    it.skipIf(!hasChromium).each(['light', 'dark'] as const)(
      'exports to HTML with its charts, and the page is not blank (%s theme)',
      { timeout: 120_000 },
      async (theme) => {
        expect(executed, 'the notebook ran').toBeDefined();
        const html = await exportHtml(home, executed.path, theme);
        const page = readFileSync(html, 'utf8');
        for (const pattern of SECRET_PATTERNS) expect(page).not.toMatch(pattern);
        // nbconvert's clean_html would have emptied them: the charts' marks must be in the page.
        const svgs = page.match(/<svg[^>]*class="marks"[\s\S]*?<\/svg>/g) ?? [];
        expect(svgs.length).toBeGreaterThanOrEqual(1);
        for (const svg of svgs) expect(svg).toMatch(/<path|<rect|<line/);
        // Out[n] prompts, as IPython's notebooks show them.
        expect(page).toMatch(/Out&nbsp;\[\d+\]:|Out\[\d+\]:/);

        const image = decodePng(readFileSync(await screenshot(home, html, '1200,6000')));
        expect(image.width).toBe(1200);
        const area = image.width * image.height;
        if (theme === 'light') expect(inkedPixels(image) / area).toBeGreaterThan(0.02);
        else expect(meanLuminance(image), 'a dark page').toBeLessThan(90);
        expect(distinctColours(image)).toBeGreaterThan(50);
        let blue = 0;
        for (let i = 0; i < image.pixels.length; i += image.channels) {
          if (
            image.pixels[i] === VEGA_BLUE[0] &&
            image.pixels[i + 1] === VEGA_BLUE[1] &&
            image.pixels[i + 2] === VEGA_BLUE[2]
          )
            blue++;
        }
        expect(blue, 'pixels of a drawn chart').toBeGreaterThan(500);
      },
    );
  });

  it('ran 03 and 04 at the same time in one folder, on one scratchlab.duckdb, both showing data', async () => {
    expect(TOGETHER).toHaveLength(2);
    expect(together, 'the notebooks ran').toBeDefined();
    const runs = await together!;
    const [cloud, crawl] = TOGETHER.map((file) => runs.get(file)!.notebook) as [Notebook, Notebook];
    expect(crawlStartedWhileRecording, '04 started while 03 was recording').toBe(true);

    // 03: the player's three sets, each merged with its log entry; the table's live chart stopped
    // with rows drawn; the chart of the recorded history.
    expect(shown(cellWith(cloud, 'await history.stop()'))).toMatch(/source\s+rows\s+─+\s+─+\s+both\s+3\s*$/);
    const recorded = chartOf(cellWith(cloud, "live({ table: 'game_history'"));
    expect(recorded.summary).toContain('(stopped)');
    expect(recorded.values.reduce((sum, point) => sum + Number(point.value), 0)).toBeGreaterThan(0);
    const history = chartOf(cellWith(cloud, 'Sets and players every 6 hours'));
    expect(new Set(history.values.map((point) => point.series))).toEqual(new Set(['sets', 'players']));

    // 04: its store is the shared folder's file; its queries answer rows; the resumed walk is whole.
    const file = join(shared, 'scratchlab.duckdb');
    expect(shown(cellWith(crawl, 'store.path'))).toBe(`'${file}'`);
    expect(shown(cellWith(crawl, 'const reach =')).split('\n').length).toBeGreaterThan(3); // header, rule, rows
    const walk = shown(cellWith(crawl, 'const resumed ='));
    const total = Number(/total: (\d+)/.exec(walk)?.[1]);
    expect(total).toBeGreaterThan(0);
    expect(Number(/distinct_ids: (\d+)/.exec(walk)?.[1])).toBe(total);

    // The one file holds what both stored.
    const store = await openStore(file);
    try {
      const tables = (await store.tables()).map((table) => table.name);
      expect(tables).toEqual(expect.arrayContaining(['game_history', 'projects', 'followers', 'walk']));
      const [merged] = await store.query<{ n: number }>(
        "select count(*)::INT as n from game_history where name = 'high score' and value in ('120', '340', '560') and source = 'both'",
      );
      expect(merged!.n).toBe(3);
      const [walked] = await store.query<{ n: number }>('select count(*)::INT as n from walk');
      expect(walked!.n).toBe(total);
    } finally {
      await store.close();
    }
  });

  it('keeps a chart as a real PNG and a project list as CSV (notebook 01)', () => {
    const image = decodePng(readFileSync(join(NOTEBOOKS, 'views-and-loves.png')));
    expect(image.width).toBeGreaterThan(400);
    expect(inkedPixels(image)).toBeGreaterThan(1000);
    expect(distinctColours(image)).toBeGreaterThan(10);
    const csv = readFileSync(join(NOTEBOOKS, 'projects.csv'), 'utf8').trimEnd().split(/\r?\n/);
    expect(csv[0]).toMatch(/^id,title,/);
    // A row per project, each starting with its id (a quoted field may span lines).
    expect(csv.filter((line) => /^\d+,/.test(line)).length).toBeGreaterThan(5);
  });

  it('shows the session redacted where a notebook displays it', () => {
    const first = join(home.dir, 'executed', notebooks[0]!);
    const saved = readFileSync(first, 'utf8');
    expect(saved).toMatch(
      /Session \{ user: \\"demo_scratcher\\", loggedIn: true, .*xToken: \[redacted\], sessionId: \[redacted\] \}/,
    );
  });
});
