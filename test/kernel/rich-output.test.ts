// md, html, svg, image and clearOutput as globals of a real kernel, through jupyter_client: the
// messages a front end gets.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type DriveResult,
  drive,
  hasJupyter,
  installKernels,
  type JupyterHome,
  jupyterHome,
} from './jupyter.js';

const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const outputs = (result: DriveResult) =>
  result.iopub
    .filter((m) => !['status', 'execute_input'].includes(m.type))
    .map((m) => ({ type: m.type, ...m.content }));

describe.skipIf(!hasJupyter)('rich outputs in the kernel', () => {
  let home: JupyterHome;

  beforeAll(async () => {
    home = jupyterHome('rich-output');
    await installKernels(home);
  });

  it('shows md, html, svg and image as their MIME types, and clears a cell with clearOutput', {
    timeout: 120_000,
  }, async () => {
    const folder = join(home.dir, 'notebooks');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'dot.png'), Buffer.from(PNG_BASE64, 'base64'));
    const results = await drive(home, 'scratchlab-sandbox', folder, [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the cell's own template literal
      /* 0 */ { execute: "const who = 'demo';\nmd`# Hello ${who}`" },
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the cell's own template literal
      /* 1 */ { execute: 'display(html`<b>${1 + 1}</b>`);\nundefined' },
      /* 2 */ { execute: "svg`<svg xmlns='http://www.w3.org/2000/svg' width='2' height='2'/>`" },
      /* 3 */ { execute: "image('dot.png')" },
      /* 4 */ { execute: "console.log('first');\nclearOutput({ wait: true });\nconsole.log('second')" },
      /* 5 */ { execute: "clearOutput({ wait: 'yes' as unknown as boolean })" },
    ]);
    for (const [i, result] of results.entries()) expect(result.error, `request ${i}`).toBeUndefined();
    expect(outputs(results[0]!)).toEqual([
      {
        type: 'execute_result',
        execution_count: 1,
        data: { 'text/markdown': '# Hello demo', 'text/plain': '# Hello demo' },
        metadata: {},
      },
    ]);
    expect(outputs(results[1]!)).toMatchObject([
      { type: 'display_data', data: { 'text/html': '<b>2</b>', 'text/plain': '<b>2</b>' } },
    ]);
    expect(outputs(results[2]!)[0]).toMatchObject({
      type: 'execute_result',
      data: { 'image/svg+xml': "<svg xmlns='http://www.w3.org/2000/svg' width='2' height='2'/>" },
    });
    expect(outputs(results[3]!)[0]).toMatchObject({
      type: 'execute_result',
      data: { 'image/png': PNG_BASE64, 'text/plain': '[PNG image, 70 bytes from dot.png]' },
    });
    expect(outputs(results[4]!)).toEqual([
      { type: 'stream', name: 'stdout', text: 'first\n' },
      { type: 'clear_output', wait: true },
      { type: 'stream', name: 'stdout', text: 'second\n' },
    ]);
    expect(results[5]!.reply).toMatchObject({ status: 'error', ename: 'TypeError' });
    expect(results[5]!.reply!.evalue).toContain('clearOutput: wait must be true or false');
  });
});
