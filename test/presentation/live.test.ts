/**
 * `live` in both front ends against a real cloud connection (the sandbox's alternate endpoint,
 * over loopback): it starts from the values the cloud holds, records the client's own sets, and
 * draws or lists every variable.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLive as createKernelLive } from '../../kernel/display/live.js';
import { PendingDisplays } from '../../kernel/display/pending-displays.js';
import { jupyter } from '../../kernel/tslab.js';
import { createLive as createReplLive, stopLiveCharts } from '../../repl/display/live.js';
import { Activity } from '../../repl/terminal/activity.js';
import { Cloud } from '../../src/cloud/index.js';
import { renderLiveChart } from '../../src/presentation/index.js';
import { waitFor } from '../cloud/support.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();
const NAMES = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];

function guest(projectId: string): Cloud {
  return Cloud.alternate(projectId, {
    purpose: 'tests',
    contact: '@tester',
    host: ctx.sandbox.alternateCloudHost,
  });
}

/** A project whose five variables hold 1 to 5, and a second client connected to it. */
async function connectedViewer(projectId: string): Promise<{ writer: Cloud; viewer: Cloud }> {
  const writer = guest(projectId);
  await writer.setVars(Object.fromEntries(NAMES.map((name, i) => [name, i + 1])));
  const viewer = guest(projectId);
  await viewer.connect();
  await waitFor(() => Object.keys(viewer.getAllVars()).length === NAMES.length, 'the initial values');
  return { writer, viewer };
}

/** A terminal of 150×45 that swallows what is drawn. */
function replHost() {
  const output = Object.assign(new PassThrough(), { columns: 150, rows: 45, isTTY: true });
  output.resume();
  return {
    output: output as unknown as NodeJS.WriteStream,
    cursorRow: () => 0,
    redrawPrompt: () => {},
    activity: new Activity(),
    color: false,
  };
}

afterEach(() => {
  jupyter.lastWriteDisplayData = null;
  stopLiveCharts();
});

describe('live in the kernel', () => {
  it('starts a second live of a connected cloud from its values, and records its own sets', async () => {
    const { writer, viewer } = await connectedViewer('live-kernel');
    jupyter.lastWriteDisplayData = () => {};
    const pending = new PendingDisplays();
    const live = createKernelLive({ pending });
    live(viewer).stop(); // a first one, as in an earlier cell
    await pending.settle(() => {});
    const handle = live(viewer, { window: 30 });
    expect(new Set(handle.data.map((p) => p.name))).toEqual(new Set(NAMES));
    await viewer.setVar('alpha', 42); // our own set: servers never echo it back
    expect(handle.data.at(-1)).toMatchObject({ name: 'alpha', value: 42 });
    await handle.stop();
    const chart = handle.chart();
    expect(chart.summary).toContain('alpha 42');
    await Promise.all([writer.disconnect(), viewer.disconnect()]);
  });

  it('records the variables named with the ☁ prefix, and counts non-numeric values, as the REPL does', async () => {
    const { writer, viewer } = await connectedViewer('live-kernel-prefix');
    jupyter.lastWriteDisplayData = () => {};
    const pending = new PendingDisplays();
    const handle = createKernelLive({ pending })(viewer, { variables: ['☁ alpha'], window: 30 });
    expect(handle.data.map((p) => [p.name, p.value])).toEqual([['alpha', 1]]);
    await viewer.setVar('alpha', 42);
    await writer.setVar('bravo', 9);
    await writer.setVar('alpha', '1234567890123456789012'); // text encoded in digits
    await writer.setVar('☁ alpha', 43);
    await waitFor(() => handle.data.at(-1)?.value === 43, "the other client's set");
    expect(handle.data.map((p) => [p.name, p.value])).toEqual([
      ['alpha', 1],
      ['alpha', 42],
      ['alpha', 43],
    ]);
    expect(handle.skipped).toBe(1);
    await handle.stop();
    expect(handle.chart().summary).toContain('alpha 43');
    await Promise.all([writer.disconnect(), viewer.disconnect()]);
  });
});

describe('live in the REPL', () => {
  it('draws or lists every variable in a 150×45 terminal, from the current values on', async () => {
    const { writer, viewer } = await connectedViewer('live-repl');
    const chart = createReplLive(replHost())(viewer);
    expect(new Set(chart.data.map((p) => p.name))).toEqual(new Set(NAMES));
    await viewer.setVar('echo', 7);
    await writer.setVar('bravo', 9);
    await waitFor(
      () => chart.data.some((p) => p.name === 'bravo' && p.value === 9),
      "the other client's set",
    );
    const text = chart.render({ width: 150, height: 45, color: false }, Date.now() + 1000);
    // All five drawn, each from the left edge (the value held when live started).
    expect(text.match(/^\w+ · \d+ changes? · now /gm)).toHaveLength(5);
    expect(text).toMatch(/^echo · 1 change · now 7$/m);
    expect(text).toMatch(/^alpha · 0 changes · now 1$/m);
    expect(text).toMatch(/^ +1┤─{100,}/m);
    chart.stop();
    expect(chart.chart().summary).toMatch(/echo 7/);
    await Promise.all([writer.disconnect(), viewer.disconnect()]);
  });

  it('lists the variables that do not fit, with their values', () => {
    const t = Date.UTC(2024, 0, 1);
    const points = NAMES.flatMap((name, i) => [
      { time: t, name, value: i },
      { time: t + 1000, name, value: i * 1000 + 0.5 },
    ]);
    const small = renderLiveChart(points, { width: 100, height: 12, now: t + 2000 });
    for (const name of NAMES) expect(small, name).toContain(name);
    expect(small).toMatch(/^also .*, .* [\d.]+k?/m);
  });
});
