// Cells without an execution count (silent ones, a front end's helper code, and those kept out of
// the history) in a real kernel, through jupyter_client (test/kernel/drive.py): each runs under a
// name of its own, never the last counted cell's, so the frames of its errors, and of the counted
// cells run around it, show the lines of the cell they are in.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { drive, hasJupyter, installKernels, type JupyterHome, jupyterHome } from './jupyter.js';

describe.skipIf(!hasJupyter)('cells without a count in a kernel', () => {
  let home: JupyterHome;

  beforeAll(async () => {
    home = jupyterHome('silent-cells');
    await installKernels(home);
  });

  it('name their own frames, and leave the counted cells their lines', { timeout: 120_000 }, async () => {
    const results = await drive(home, 'scratchlab', join(home.dir, 'notebooks'), [
      { execute: "const a = 1\nfunction boom() {\n  throw new Error('from cell 1')\n}" },
      {
        execute: "// a front end's helper\nconst helped = 2\nthrow new Error('silent failure')",
        silent: true,
      },
      { execute: "const b = 3\nfunction helper() {\n  throw new Error('from the helper')\n}", silent: true },
      { execute: "function unstored() {\n  throw new Error('unstored')\n}", store_history: false },
      { execute: 'boom()' },
      { execute: '// two\nhelper()' },
      { execute: 'unstored()' },
    ]);
    for (const [i, result] of results.entries()) expect(result.error, `request ${i}`).toBeUndefined();
    const traceback = (i: number) => (results[i]!.reply?.traceback as string[] | undefined) ?? [];
    expect(results.map((r) => r.reply?.execution_count)).toEqual([1, 1, 1, 1, 2, 3, 4]);

    expect(results[1]!.reply).toMatchObject({ status: 'error', evalue: 'silent failure' });
    expect(traceback(1)[0]).toBe(
      ['Silent cell 1, line 3', '      2 const helped = 2', "----> 3 throw new Error('silent failure')"].join(
        '\n',
      ),
    );
    // The silent cells after it did not take In[1]'s name: its function's frame shows its own line.
    expect(traceback(4)).toEqual([
      [
        'Cell In[1], line 3 in boom',
        '      2 function boom() {',
        "----> 3   throw new Error('from cell 1')",
        '      4 }',
      ].join('\n'),
      ['Cell In[2], line 1', '----> 1 boom()'].join('\n'),
      'Error: from cell 1',
    ]);
    expect(traceback(5)).toEqual([
      [
        'Silent cell 2, line 3 in helper',
        '      2 function helper() {',
        "----> 3   throw new Error('from the helper')",
        '      4 }',
      ].join('\n'),
      ['Cell In[3], line 2', '      1 // two', '----> 2 helper()'].join('\n'),
      'Error: from the helper',
    ]);
    expect(traceback(6)[0]).toBe(
      [
        'Unnumbered cell 3, line 2 in unstored',
        '      1 function unstored() {',
        "----> 2   throw new Error('unstored')",
        '      3 }',
      ].join('\n'),
    );
  });
});
