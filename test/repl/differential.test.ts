// The differential corpus (test/support/differential-corpus.ts) in the REPL's evaluation: each
// session's cells through the REPL's own transpile and script run (repl/evaluation/, built), in a
// Node process of its own, against the same session as one module compiled by tsc and run by Node.
// The REPL shares the sessions whose meaning it shares: its top-level names are the realm's
// globals (as in node's REPL), so the sessions that shadow a global, or lean on a module's scope,
// are the kernel's only (test/kernel/differential.test.ts). Values and errors are compared; the
// lines of errors are the kernel's test (the REPL prints its own).
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CellOutcome, runInNode, runInRepl } from '../support/differential.js';
import { DIFFERENTIAL_SESSIONS } from '../support/differential-corpus.js';

const ROOT = join(import.meta.dirname, '..', '..');
const TMP = join(ROOT, 'test', '.tmp', 'differential-repl');

const shared = DIFFERENTIAL_SESSIONS.filter((session) => session.replDiffers === undefined);

describe('the REPL means what tsc and Node mean, where it shares the kernel’s meaning', () => {
  let node: CellOutcome[][];

  beforeAll(async () => {
    node = await runInNode(shared, TMP, 60_000);
  }, 90_000);

  it('shares most of the corpus', () => {
    const cells = (sessions: typeof DIFFERENTIAL_SESSIONS) =>
      sessions.reduce((n, s) => n + s.cells.length, 0);
    expect(cells(shared)).toBeGreaterThan(cells(DIFFERENTIAL_SESSIONS) / 2);
  });

  it.each(shared.map((session, i) => [session.name, i] as const))('%s', { timeout: 60_000 }, async (_, i) => {
    const session = shared[i]!;
    const repl = await runInRepl(session.cells, join(ROOT, 'dist'), TMP, 50_000);
    for (const [c, cell] of session.cells.entries()) {
      const expected = node[i]![c]!;
      const wanted =
        'error' in expected
          ? { error: { name: expected.error.name, message: expected.error.message } }
          : expected;
      expect(repl[c], `cell ${c + 1}:\n${cell}`).toEqual(wanted);
    }
  });
});
