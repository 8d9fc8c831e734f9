// A cell runner on tslab's real executor with the kernel's converters (no session, no type check),
// for the tests that run cells in-process.
import { PendingDisplays } from '../../kernel/display/pending-displays.js';
import { CellRunner, type TypeCheck } from '../../kernel/execution/cell-runner.js';
import { scriptConverters } from '../../kernel/execution/script-converter.js';
import { executor } from '../../kernel/tslab.js';

/** A runner (with `checker`, cells are type-checked) and what closes it. */
export function testRunner(options: { checker?: TypeCheck } = {}): { runner: CellRunner; close(): void } {
  const convs = scriptConverters({ declarations: () => '' });
  const runner = new CellRunner({
    prepare: async () => {},
    scripts: convs,
    pending: new PendingDisplays(),
    errorClasses: () => [],
    siteUrl: () => undefined,
    checker: options.checker,
  });
  const inner = executor.createExecutor(process.cwd(), convs, runner.console);
  runner.attach(inner);
  return { runner, close: () => inner.close() };
}

/** What {@link cellsInOrder}'s `run` answers: the cell's value as text (`(nothing)`), or its error. */
export type CellShown = string | { ename: string; evalue: string; traceback: string[] };

/** A runner whose `run` runs each cell as the next one (`Cell In[n]`, n from 1; `count()` is the last n). */
export function cellsInOrder(): { run(code: string): Promise<CellShown>; count(): number; close(): void } {
  const { runner, close } = testRunner();
  let count = 0;
  return {
    async run(code) {
      const outcome = await runner.run(code, ++count);
      if (outcome.status === 'error')
        return { ename: outcome.ename, evalue: outcome.evalue, traceback: outcome.traceback };
      return String(outcome.result?.['text/plain'] ?? '(nothing)');
    },
    count: () => count,
    close,
  };
}
