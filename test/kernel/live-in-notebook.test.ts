// Live displays as a person sees them: notebook 03 in the classic Notebook (Debian's
// python3-notebook), in headless Chromium. Its cells up to the last section start a cloud bot, a
// `live()` chart and a `display(...).update()` timer, and return; then, with every cell done and
// the page showing the kernel idle, the chart and the display must still change on the page, in
// place. nbconvert cannot see this: it stops listening when the last cell ends. Then notebook 03's
// history chart, `live({ table })` over the folder's store, moves on the idle page while
// `scratchlab record`, another process, records into that store.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cloud } from '../../src/cloud/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { ClassicNotebook, hasClassicNotebook } from './classic-notebook.js';
import { CLI, hasChromium, installKernels, type JupyterHome, jupyterHome, NOTEBOOKS } from './jupyter.js';

const NOTEBOOK = '03-cloud-activity.ipynb';

/** Most time the test waits for the page to change while idle. */
const WATCH_MS = 30_000;

describe.skipIf(!hasClassicNotebook || !hasChromium)('live displays in the classic Notebook', () => {
  let home: JupyterHome;
  let notebook: ClassicNotebook;
  let folder: string;

  beforeAll(async () => {
    home = jupyterHome('classic-notebook');
    await installKernels(home);
    folder = join(home.dir, 'served');
    mkdirSync(folder, { recursive: true });
    copyFileSync(join(NOTEBOOKS, NOTEBOOK), join(folder, NOTEBOOK));
    notebook = await ClassicNotebook.open(home, folder, NOTEBOOK);
  }, 120_000);

  afterAll(async () => {
    await notebook?.close();
  }, 30_000);

  it('keeps redrawing the live chart and replacing the display after their cells have returned', {
    timeout: 240_000,
  }, async () => {
    const sources = await notebook.sources();
    const find = (start: string) => {
      const index = sources.findIndex((source) => source.startsWith(start));
      expect(index, `a cell starting with ${start}`).toBeGreaterThanOrEqual(0);
      return index;
    };
    const chartCell = find('const chart = live(');
    const counterCell = find('const seen = ');
    const stopSection = find('## Stopping');
    const stopCell = sources.findIndex(
      (source, i) => i > stopSection && source.includes('await chart.stop()'),
    );
    // Everything before the last section: the bot, the chart and the counter start, the cells return.
    const before = sources.map((_, i) => i).filter((i) => i < stopSection);
    await notebook.run(before);
    await notebook.waitUntilRan(before);

    const chartAtIdle = await notebook.cell(chartCell);
    const counterAtIdle = await notebook.cell(counterCell);
    expect(chartAtIdle.outputs).toBe(1);
    expect(counterAtIdle.outputs).toBe(1);

    // Watch the page: only changes seen between two readings of an idle page count.
    const chartFrames = new Set([chartAtIdle.html]);
    const counts = new Set([counterAtIdle.text]);
    const deadline = Date.now() + WATCH_MS;
    while ((chartFrames.size < 3 || counts.size < 3) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const idle = await notebook.idle();
      const chart = await notebook.cell(chartCell);
      const counter = await notebook.cell(counterCell);
      const after = await notebook.idle();
      if (!(idle.kernelIdle && after.kernelIdle && idle.runningCells === 0 && after.runningCells === 0))
        continue;
      // In place: still one output each, never a second chart or a second display.
      expect(chart.outputs).toBe(1);
      expect(counter.outputs).toBe(1);
      expect(chart.html).toContain('<svg');
      // Right after the cells return the bot may not have set a score yet.
      expect(counter.text).toMatch(/^\d+ values seen live, the last score (\d+|none yet)$/);
      chartFrames.add(chart.html);
      counts.add(counter.text);
    }
    expect(chartFrames.size, 'distinct live charts drawn while idle').toBeGreaterThanOrEqual(3);
    expect(counts.size, 'distinct display updates shown while idle').toBeGreaterThanOrEqual(3);
    expect(
      [...counts].some((text) => /the last score \d+$/.test(text)),
      'a score seen while idle',
    ).toBe(true);

    // The last section stops the bot and both displays: the chart's final drawing says so.
    await notebook.run([stopCell]);
    await notebook.waitUntilRan([stopCell]);
    const stopped = await notebook.cell(chartCell);
    expect(stopped.outputs).toBe(1);
    expect(stopped.html).toContain('<svg');
    expect((await notebook.cell(stopCell)).text).toContain("'idle'");
    // The front end's comms got answers: the kernel never logged a message type it does not know.
    expect(notebook.log.join('')).not.toMatch(/unknown msg_type/);
  });

  it('moves the history chart of the store while record, another process, records into it', {
    timeout: 120_000,
  }, async () => {
    const sandbox: Sandbox = await startSandbox();
    const host = sandbox.alternateCloudHost;
    const db = join(folder, 'scratchlab.duckdb');
    const record = spawn(
      process.execPath,
      [
        CLI,
        'record',
        'history-game',
        '--db',
        db,
        '--table',
        'game_history',
        '--host',
        host,
        '--contact',
        '@t',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => record.on('exit', resolve));
    const writer = Cloud.alternate('history-game', {
      host,
      purpose: 'tests',
      contact: '@t',
      username: 'player',
    });
    let playing = true;
    let score = 0;
    const play = (async () => {
      while (playing) {
        await writer.setVar('score', ++score);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    })();
    try {
      const sources = await notebook.sources();
      const chartCell = sources.findIndex((source) => source.startsWith('const recorded = live('));
      expect(chartCell, 'the history chart cell').toBeGreaterThanOrEqual(0);
      await notebook.run([chartCell]);
      await notebook.waitUntilRan([chartCell]);
      const frames = new Set<string>();
      const deadline = Date.now() + WATCH_MS;
      while (frames.size < 3 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const idle = await notebook.idle();
        const chart = await notebook.cell(chartCell);
        if (!idle.kernelIdle || idle.runningCells > 0) continue;
        expect(chart.outputs).toBe(1);
        if (chart.html.includes('<svg')) frames.add(chart.html);
      }
      expect(frames.size, 'distinct history charts drawn while idle').toBeGreaterThanOrEqual(3);
    } finally {
      playing = false;
      await play;
      record.kill('SIGINT');
      await exited;
      await writer.disconnect();
      await sandbox.close();
    }
  });
});
