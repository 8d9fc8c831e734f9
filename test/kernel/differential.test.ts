// The kernel against TypeScript and Node themselves: each session of the corpus
// (test/support/differential-corpus.ts) runs cell by cell through the kernel's runner on tslab's
// real executor (the kernel's own conversion, scope, values and tracebacks; a fresh session each),
// and as one module compiled by tsc and run by Node (test/support/differential.ts). Every cell
// must show the same value, or throw the same error with frames at the same cell lines.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CellOutcome, runInNode } from '../support/differential.js';
import { DIFFERENTIAL_SESSIONS } from '../support/differential-corpus.js';
import { testRunner } from './runner.js';

const TMP = join(import.meta.dirname, '..', '.tmp', 'differential');

/** A session's cells in a fresh kernel runner, as the differential compares them. */
async function runInKernel(cells: readonly string[]): Promise<CellOutcome[]> {
  const { runner, close } = testRunner();
  try {
    const outcomes: CellOutcome[] = [];
    for (const [i, cell] of cells.entries()) {
      const outcome = await runner.run(cell, i + 1);
      if (outcome.status === 'ok') {
        const text = outcome.result?.['text/plain'];
        outcomes.push(text === undefined ? { nothing: true } : { value: String(text) });
        continue;
      }
      const frames = outcome.traceback
        .map((entry) => /^Cell In\[(\d+)\], line (\d+)/.exec(entry))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m): [number, number] => [Number(m[1]) - 1, Number(m[2])]);
      outcomes.push({ error: { name: outcome.ename, message: outcome.evalue, frames } });
    }
    return outcomes;
  } finally {
    close();
  }
}

describe('the kernel means what tsc and Node mean', () => {
  let node: CellOutcome[][];
  const kernel: CellOutcome[][] = [];

  beforeAll(async () => {
    node = await runInNode(DIFFERENTIAL_SESSIONS, TMP, 60_000);
  }, 90_000);

  afterAll(() => {
    // The corpus is what the issue asks for: at least 200 cells, in sessions.
    expect(DIFFERENTIAL_SESSIONS.reduce((n, s) => n + s.cells.length, 0)).toBeGreaterThanOrEqual(200);
  });

  it.each(DIFFERENTIAL_SESSIONS.map((session, i) => [session.name, i] as const))('%s', async (_, i) => {
    const session = DIFFERENTIAL_SESSIONS[i]!;
    kernel[i] = await runInKernel(session.cells);
    const expected = node[i]!;
    // The corpus's own rule: every cell ran in Node but a failing last one.
    expect(
      expected.findIndex((o) => 'notRun' in o),
      'a cell that declares names failed before the session’s end',
    ).toBe(-1);
    for (const [c, cell] of session.cells.entries())
      expect(kernel[i]![c], `cell ${c + 1}:\n${cell}`).toEqual(expected[c]);
  });
});
