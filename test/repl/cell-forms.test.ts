// The corpus of cell forms (test/support/cell-forms.ts) in `scratchlab repl --sandbox`, each form
// typed as one input (`.editor`, as a notebook cell is one) in a real pseudo-terminal: the same
// values the kernel shows (test/kernel/cell-forms.test.ts), the same errors.
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
  it('runs every form of the corpus, with the value or the error the kernel shows', {
    timeout: 180_000,
  }, async () => {
    for (const form of CELL_FORMS) {
      const out = await repl.runCell(form.source, 30_000);
      const what = `${form.name}: ${JSON.stringify(out)}`;
      if (isErrorForm(form)) {
        // node's REPL prints `Uncaught <name>: <message>`, then the stack.
        const [first = ''] = out.split('\n');
        expect(first, what).toMatch(new RegExp(`^Uncaught ${form.error.name}: `));
        const message = first.slice(`Uncaught ${form.error.name}: `.length);
        if (typeof form.error.message === 'string') expect(message, what).toBe(form.error.message);
        else expect(message, what).toMatch(form.error.message);
      } else {
        // A cell with no value shows nothing; the REPL prints `undefined` for it.
        expect(out, what).toBe(form.shows ?? 'undefined');
      }
    }
  });
});
