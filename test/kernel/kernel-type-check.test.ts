// What a cell's `idle` waits for once its reply is out: its type check (in the kernel's worker),
// at most 10 s, and not past an interrupt. Through jupyter_client (test/kernel/drive.py).
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { drive, hasJupyter, installKernels, type JupyterHome, jupyterHome } from './jupyter.js';

describe.skipIf(!hasJupyter)("a cell's idle and its type check", () => {
  let home: JupyterHome;
  let folder: string;

  beforeAll(async () => {
    home = jupyterHome('type-check-wait');
    folder = join(home.dir, 'notebooks');
    await installKernels(home);
  });

  it('comes at once on an interrupt, its type problems left to the log; the next cell runs', {
    timeout: 180_000,
  }, async () => {
    // Thousands of lines with a type problem each: seconds of checking after the reply.
    const big = `${Array.from({ length: 5000 }, (_, i) => `const big${i}: string = ${i};`).join('\n')}\n7`;
    const results = await drive(home, 'scratchlab', folder, [
      { execute: '1 + 1' }, // the checker is warm from here on
      { interrupt_after_reply: big },
      { execute: '40 + 2' },
    ]);
    for (const [i, result] of results.entries()) expect(result.error, `request ${i}`).toBeUndefined();
    const [, interrupted, next] = results;
    expect(interrupted!.reply).toMatchObject({ status: 'ok' });
    // No warning: the interrupt ended the wait for the check.
    expect(interrupted!.iopub.map((m) => m.type)).toEqual([
      'status',
      'execute_input',
      'execute_result',
      'status',
    ]);
    expect(next!.reply).toMatchObject({ status: 'ok' });
    expect(next!.iopub.find((m) => m.type === 'execute_result')?.content).toMatchObject({
      data: { 'text/plain': '42' },
    });
  });
});
