// The corpus of cell forms (test/support/cell-forms.ts) in `scratchlab repl --sandbox`, each form
// typed as one input (`.editor`, as a notebook cell is one) in a real pseudo-terminal, in order:
// the same values the kernel shows (test/kernel/cell-forms.test.ts), the same errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CELL_FORMS, isErrorForm } from '../support/cell-forms.js';
import { ReplProcess } from './pty.js';

let repl: ReplProcess;

beforeAll(async () => {
  repl = await ReplProcess.start({ sandbox: true, cols: 160 });
}, 60_000);

afterAll(async () => {
  await repl?.close();
});

describe('cell forms in the REPL', () => {
  // runCell waits up to 30 s for each of its three steps: the test's limit lets them report.
  it.each(
    CELL_FORMS.filter((form) => form.kernelOnly === undefined).map((form) => [form.name, form] as const),
  )('%s', { timeout: 120_000 }, async (_, form) => {
    const out = await repl.runCell(form.source, 30_000);
    if (!isErrorForm(form)) {
      // A cell with no value shows nothing; the REPL prints `undefined` for it.
      expect(out).toBe(form.shows ?? 'undefined');
      return;
    }
    // node's REPL prints `Uncaught <name>: <message>`, then the stack.
    const [first = ''] = out.split('\n');
    expect(first, out).toMatch(new RegExp(`^Uncaught ${form.error.name}: `));
    const message = first.slice(`Uncaught ${form.error.name}: `.length);
    if (typeof form.error.message === 'string') expect(message, out).toBe(form.error.message);
    else expect(message, out).toMatch(form.error.message);
    // Its frames (node prints none for a SyntaxError) start at the same input lines as the
    // kernel's; the REPL's own wrapper frame may follow.
    const lines = [...out.matchAll(/\bREPL\d+:(\d+):\d+/g)].map((match) => Number(match[1]));
    if (form.error.name !== 'SyntaxError')
      expect(lines.slice(0, form.error.lines.length), out).toEqual(form.error.lines);
  });
});

describe('a value the REPL shows', () => {
  it('is a proxy shown as node’s REPL shows it, none of its traps run', { timeout: 60_000 }, async () => {
    const source = "new Proxy({ b: 2 }, { getPrototypeOf() { throw new Error('trap ran'); } })";
    expect(await repl.runCell(source, 30_000)).toBe(
      'Proxy [ { b: 2 }, { getPrototypeOf: [Function: getPrototypeOf] } ]',
    );
  });
});
