// The corpus of cell forms (test/support/cell-forms.ts) through the sandbox kernel, driven by
// jupyter_client as a front end does: each cell shows the corpus's value, or fails with its error
// at the cell's own lines. test/repl/cell-forms.test.ts runs the same corpus in the REPL.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CELL_FORMS, isErrorForm } from '../support/cell-forms.js';
import { type DriveResult, drive, hasJupyter, installKernels, jupyterHome } from './jupyter.js';

const iopub = (result: DriveResult, type: string) => result.iopub.filter((m) => m.type === type);

describe.skipIf(!hasJupyter)('cell forms in the kernel', () => {
  /** The corpus's cells, run in order in one kernel. */
  let results: DriveResult[];

  beforeAll(async () => {
    const home = jupyterHome('cell-forms');
    await installKernels(home);
    const requests = CELL_FORMS.map((form) => ({ execute: form.source }));
    results = await drive(home, 'scratchlab-sandbox', join(home.dir, 'notebooks'), requests, 90);
    // The kernel's start (up to 60 s) and every cell in one hook: on a busy machine 240 s ran out
    // while drive.py was still within its own limits (90 s a cell).
  }, 600_000);

  it.each(CELL_FORMS.map((form, i) => [form.name, form, i] as const))('%s', (_, form, i) => {
    const result = results[i];
    expect(result, 'the kernel answered every cell').toBeDefined();
    const what = JSON.stringify(result!.iopub);
    expect(result!.error, what).toBeUndefined();
    const count = i + 1;
    if (!isErrorForm(form)) {
      expect(result!.reply, what).toMatchObject({ status: 'ok', execution_count: count });
      const streams = iopub(result!, 'stream').map((m) => m.content as { name: string; text: string });
      if (form.warns === undefined) expect(streams, what).toEqual([]);
      else {
        expect(
          streams.map((m) => m.name),
          what,
        ).toEqual(['stderr']);
        expect(streams[0]!.text, what).toMatch(form.warns);
      }
      const shown = iopub(result!, 'execute_result').map(
        (m) => (m.content.data as Record<string, string>)['text/plain'],
      );
      expect(shown, what).toEqual(form.shows === null ? [] : [form.shows]);
      return;
    }
    const reply = result!.reply as { status: string; ename: string; evalue: string; traceback: string[] };
    expect(reply.status, what).toBe('error');
    expect(reply.ename, what).toBe(form.error.name);
    if (typeof form.error.message === 'string') expect(reply.evalue, what).toBe(form.error.message);
    else expect(reply.evalue, what).toMatch(form.error.message);
    // IPython's `Cell In[n], line k` frames, innermost first, all in this cell.
    const frames = reply.traceback
      .map((entry) => /^Cell In\[(\d+)\], line (\d+)/.exec(entry))
      .filter((match): match is RegExpExecArray => match !== null);
    expect(
      frames.map((m) => [Number(m[1]), Number(m[2])]),
      what,
    ).toEqual(form.error.lines.map((line) => [count, line]));
    expect(reply.traceback.at(-1), what).toContain(`${form.error.name}: `);
    expect(iopub(result!, 'error'), what).toHaveLength(1);
  });
});
