// An interrupt as jupyter_client sends it (SIGINT to the kernel's process group) also ends
// esbuild's helper process, which the kernel starts again for the next cell that needs it (a
// decorator, a syntax error): through a real kernel (test/kernel/drive.py), that first cell after
// each interrupt shows its right value or error.
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

/** A cell whose value is the pids of the kernel's live esbuild helpers (its children so named). */
const HELPERS = [
  "import { readdirSync, readFileSync } from 'node:fs';",
  'readdirSync("/proc").filter((p) => /^\\d+$/.test(p)).filter((p) => {',
  '  try {',
  '    const stat = readFileSync("/proc/" + p + "/stat", "utf8");',
  '    const [state, parent] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");',
  '    return stat.includes("(esbuild)") && state !== "Z" && Number(parent) === process.pid;',
  '  } catch { return false; }',
  '}).map(Number)',
].join('\n');

const DECORATED =
  'function sealed(c: Function) { (c as { tag?: string }).tag = "sealed"; }\n@sealed class Tagged {}\n(Tagged as { tag?: string }).tag';

describe.skipIf(!hasJupyter)('esbuild after an interrupt', () => {
  let home: JupyterHome;

  beforeAll(async () => {
    home = jupyterHome('interrupt-esbuild');
    await installKernels(home);
  });

  const value = (result: DriveResult | undefined) =>
    result?.iopub.find((m) => m.type === 'execute_result')?.content.data as
      | Record<string, unknown>
      | undefined;

  it('runs the first decorator or syntax-error cell after an interrupt as before', {
    timeout: 120_000,
  }, async () => {
    const results = await drive(home, 'scratchlab', join(home.dir, 'notebooks'), [
      { execute: DECORATED },
      { execute: HELPERS },
      { interrupt_after_reply: '1 + 1' },
      { execute: 'const = ;' }, // esbuild's own message and place
      { execute: HELPERS },
      { interrupt_after_reply: '2 + 2' },
      { execute: DECORATED },
      { execute: HELPERS },
    ]);
    for (const [i, result] of results.entries()) expect(result.error, `request ${i}`).toBeUndefined();
    const [first, before, , syntax, between, , decorated, after] = results;
    expect(value(first)).toEqual({ 'text/plain': "'sealed'" });
    expect(syntax!.reply).toMatchObject({
      status: 'error',
      ename: 'TSError',
      evalue: 'Cell In[4], line 1: Expected identifier but found "="',
      traceback: [
        'Cell In[4], line 1, column 7\n    const = ;\n          ^\nerror: Expected identifier but found "="',
      ],
    });
    expect(decorated!.reply).toMatchObject({ status: 'ok' });
    expect(value(decorated)).toEqual({ 'text/plain': "'sealed'" });
    // One helper at a time, a new one after each interrupt (the interrupt ended the one before).
    const pids = [before, between, after].map(
      (r) => JSON.parse(String(value(r)?.['text/plain'])) as number[],
    );
    for (const helpers of pids) expect(helpers).toHaveLength(1);
    expect(new Set(pids.flat()).size).toBe(3);
  });
});
