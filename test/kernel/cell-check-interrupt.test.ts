// A cell's type check and the interrupts around it (kernel/execution/cell-runner.ts): the check
// starts after the cell's reply, and an interrupt that comes after the cell ran, before its check
// starts (between the reply and the check: the kernel waits 1 ms there), ends the wait for it as
// one during the check does: no warning, its problems to the log. An interrupt before the cell
// ran changes nothing for it. Tslab's real executor and the built check worker (dist/).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PendingDisplays } from '../../kernel/display/pending-displays.js';
import { CellRunner } from '../../kernel/execution/cell-runner.js';
import { scriptConverters } from '../../kernel/execution/script-converter.js';
import type { TypeChecker as Checker } from '../../kernel/execution/type-checker.js';
import { executor } from '../../kernel/tslab.js';

const ROOT = join(import.meta.dirname, '..', '..');
const { TypeChecker } = (await import(join(ROOT, 'dist', 'kernel', 'execution', 'type-checker.js'))) as {
  TypeChecker: typeof Checker;
};

describe("a cell's check and interrupts", () => {
  const log: string[] = [];
  let checker: Checker;
  let runner: CellRunner;
  let close: () => void;
  let count = 0;

  beforeAll(async () => {
    const cwd = join(ROOT, 'test', '.tmp', 'cell-check-interrupt');
    mkdirSync(cwd, { recursive: true });
    checker = new TypeChecker({ log: (line) => log.push(line), cwd });
    const scripts = scriptConverters({ declarations: () => checker.declarations });
    runner = new CellRunner({
      prepare: async () => {},
      scripts,
      checker,
      log: (line) => log.push(line),
      pending: new PendingDisplays(),
      errorClasses: () => [],
      siteUrl: () => undefined,
    });
    const inner = executor.createExecutor(process.cwd(), scripts, runner.console);
    runner.attach(inner);
    close = () => inner.close();
    await checker.ready();
  });
  afterAll(async () => {
    close();
    await checker.close();
  });

  /** Runs `code` as the next cell: its outcome, whose check has not started. */
  async function ran(code: string) {
    const outcome = await runner.run(code, ++count);
    expect(outcome.status).toBe('ok');
    return outcome;
  }

  it('waits for the check of a cell; not after an interrupt between its run and its check', {
    timeout: 120_000,
  }, async () => {
    const first = await ran('const warmUp = 1; warmUp');
    await first.later?.();
    expect(checker.warm).toBe(true);

    // An interrupt before the cell ran (during the one before) does not count for it.
    runner.interrupt();
    const checked = await ran("const shown: number = 'x';");
    expect(checked.checkFirst).toBe(false); // a warm checker: the check follows the reply
    expect(await checked.later!()).toMatch(/line 1, column 7: warning TS2322/);

    // After the cell ran, before its check starts: the check is sent, nothing waits for it.
    const interrupted = await ran("const logged: number = 'y';");
    runner.interrupt();
    expect(await interrupted.later!()).toBeNull();
    const logged = `type check of Cell In[${count}], after its cell ended: Type 'string' is not assignable to type 'number'.`;
    await vi.waitFor(() => expect(log).toContain(logged), { timeout: 60_000, interval: 50 });

    // The checker has the interrupted cell's declarations: the next cell's check knows `logged`.
    const next = await ran('logged.length'); // it runs ('y'), and is wrong for a `number`
    expect(await next.later!()).toMatch(/line 1, column 8: warning TS2339: Property 'length' does not exist/);
  });

  it('gives the cells after an interrupted check their warnings: the interrupt does not cascade', {
    timeout: 120_000,
  }, async () => {
    // A check that takes a while (hundreds of problems), interrupted between its run and its check.
    const slow = Array.from({ length: 400 }, (_, i) => `const slow${i}: string = ${i};`).join('\n');
    const interrupted = await ran(slow);
    runner.interrupt();
    expect(await interrupted.later!()).toBeNull();
    // The cells after it, each checked once it ran (as the kernel sends them), while the
    // interrupted check still runs: each gets its own warning.
    const warnings: (string | null)[] = [];
    for (let i = 0; i < 8; i++) {
      const cell = await ran(`const after${i}: number = 'z${i}';`);
      warnings.push(await cell.later!());
    }
    expect(warnings.map((w) => w?.match(/line 1, column 7: warning TS2322/) !== null && w !== null)).toEqual(
      Array(8).fill(true),
    );
    expect(warnings[7]).toContain(`const after7: number = 'z7';`);
  });
});
