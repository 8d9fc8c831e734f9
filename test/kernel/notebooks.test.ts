// The example notebooks, as CI runs them: executed headlessly on the sandbox kernel, exported to
// HTML with their charts, photographed by headless Chromium, and searched for secrets.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
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
  beforeAll(async () => {
    home = jupyterHome('notebooks');
    for (const file of KEPT_FILES) rmSync(join(NOTEBOOKS, file), { force: true });
    await installKernels(home);
  });

  describe.each(notebooks)('%s', (file) => {
    let executed: Executed;

    it('runs every cell without an error', { timeout: 180_000 }, async () => {
      executed = await executeNotebook(home, join(NOTEBOOKS, file), {
        kernel: 'scratchlab-sandbox',
        timeout: 150,
      });
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
