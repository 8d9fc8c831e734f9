// Live displays as a person sees them: the classic Notebook (Debian's python3-notebook) in
// headless Chromium runs a notebook that starts a cloud bot, a `live()` chart and a
// `display(...).update()` timer, then every cell has returned and the kernel shows idle; the chart
// and the display must still change on the page, in place. nbconvert cannot see this: it stops
// listening when the last cell ends.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClassicNotebook, hasClassicNotebook } from './classic-notebook.js';
import {
  hasChromium,
  installKernels,
  type JupyterHome,
  jupyterHome,
  makeNotebook,
  writeNotebook,
} from './jupyter.js';

const CELLS = [
  /* 0: a bot on the sandbox's cloud, setting `score` 5 times a second, in the background */
  [
    'const projectId = sandbox.cloudProjectId;',
    'const bot = session.cloud(projectId);',
    'let score = 0;',
    "const botTimer = setInterval(() => void bot.setVar('score', ++score).catch(() => {}), 200);",
  ].join('\n'),
  /* 1: the live chart of another connection to the same project */
  "const chart = live(session.cloud(projectId), { variables: ['score'], window: 10, title: 'Bot score' });",
  /* 2: a display replaced from a timer */
  [
    'let tick = 0;',
    "const counter = display('tick 0');",
    "const ticker = setInterval(() => void counter.update('tick ' + ++tick), 300);",
  ].join('\n'),
  /* 3: the last cell returns at once */
  "'started'",
];

/** Most time the test waits for the page to change while idle. */
const WATCH_MS = 30_000;

describe.skipIf(!hasClassicNotebook || !hasChromium)('live displays in the classic Notebook', () => {
  let home: JupyterHome;
  let notebook: ClassicNotebook;

  beforeAll(async () => {
    home = jupyterHome('classic-notebook');
    await installKernels(home);
    const folder = join(home.dir, 'served');
    const nb = makeNotebook(CELLS);
    mkdirSync(folder, { recursive: true });
    writeNotebook(join(folder, 'live.ipynb'), nb);
    notebook = await ClassicNotebook.open(home, folder, 'live.ipynb');
  }, 120_000);

  afterAll(async () => {
    await notebook?.close();
  }, 30_000);

  it('keeps redrawing the live chart and replacing the display after every cell has returned', {
    timeout: 180_000,
  }, async () => {
    await notebook.runAll();
    await notebook.waitUntilAllRan();
    expect((await notebook.cell(3)).text).toContain("'started'");

    const chartAtIdle = await notebook.cell(1);
    const counterAtIdle = await notebook.cell(2);
    expect(chartAtIdle.outputs).toBe(1);
    expect(chartAtIdle.html).toContain('<svg');
    expect(counterAtIdle.outputs).toBe(1);
    const tickAtIdle = Number(/tick (\d+)/.exec(counterAtIdle.text)?.[1]);

    // Watch the page: each change must be seen while the page shows the kernel idle and no cell running.
    const chartFrames = new Set([chartAtIdle.html]);
    const ticks = new Set<number>();
    const deadline = Date.now() + WATCH_MS;
    while ((chartFrames.size < 3 || ticks.size < 3) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const idle = await notebook.idle();
      const chart = await notebook.cell(1);
      const counter = await notebook.cell(2);
      const after = await notebook.idle();
      // Only frames framed by two idle readings count.
      if (!(idle.kernelIdle && after.kernelIdle && idle.runningCells === 0 && after.runningCells === 0))
        continue;
      // In place: still one output each, never a second chart or a second display.
      expect(chart.outputs).toBe(1);
      expect(counter.outputs).toBe(1);
      expect(chart.html).toContain('<svg');
      chartFrames.add(chart.html);
      const tick = Number(/tick (\d+)/.exec(counter.text)?.[1]);
      if (tick > tickAtIdle) ticks.add(tick);
    }
    expect(chartFrames.size, 'distinct live charts drawn while idle').toBeGreaterThanOrEqual(3);
    expect(ticks.size, 'distinct display updates shown while idle').toBeGreaterThanOrEqual(3);
    // The counter text is exactly one line: replaced, not appended.
    expect((await notebook.cell(2)).text.trim()).toMatch(/^tick \d+$/);
  });
});
