// The type check of cells in a running kernel, through jupyter_client (test/kernel/drive.py): what
// a cell's `idle` waits for once its reply is out (its check, at most 10 s, not past an interrupt),
// and the cells the checker is given (silent ones too: later cells use their declarations).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  drive,
  failOnceReleased,
  hasJupyter,
  installKernels,
  type JupyterHome,
  jupyterHome,
} from './jupyter.js';

describe.skipIf(!hasJupyter)('the type check of cells in a kernel', () => {
  let home: JupyterHome;
  let folder: string;

  beforeAll(async () => {
    home = jupyterHome('kernel-type-check');
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

  it('knows the declarations of silent cells and of cells kept out of the history', {
    timeout: 120_000,
  }, async () => {
    const results = await drive(home, 'scratchlab', folder, [
      { execute: "const shown = 'one'" },
      { execute: "const quiet = 'five'", silent: true },
      { execute: "const unkept = 'six'", store_history: false },
      { execute: 'shown.length + quiet.length + unkept.length' },
      { execute: 'quiet.toFixed(1)' }, // a real problem is still reported
    ]);
    for (const [i, result] of results.entries()) expect(result.error, `request ${i}`).toBeUndefined();
    const [, silent, , sum, wrong] = results;
    expect(silent!.iopub.map((m) => m.type)).toEqual(['status', 'status']);
    expect(sum!.iopub.map((m) => m.type)).toEqual(['status', 'execute_input', 'execute_result', 'status']);
    expect(sum!.iopub.find((m) => m.type === 'execute_result')?.content).toMatchObject({
      data: { 'text/plain': '10' },
    });
    const warning = wrong!.iopub.find((m) => m.type === 'stream')?.content;
    expect(warning).toMatchObject({ name: 'stderr' });
    expect(String(warning?.text)).toMatch(
      /line 1, column 7: warning TS2551: Property 'toFixed' does not exist on type '"five"'/,
    );
  });

  it('lets a shutdown end a check that is still to come or under way: quiet, prompt, its cell kept', {
    timeout: 180_000,
  }, async () => {
    // A type problem a line, under the history's input limit: a second or more of checking.
    const big = `${Array.from({ length: 3000 }, (_, i) => `const late${i}: string = ${i};`).join('\n')}\n7`;
    const results = await drive(home, 'scratchlab', folder, [
      { execute: '1 + 1' }, // the checker is warm: the next check starts after its reply
      { shutdown_after_reply: big },
    ]);
    expect(results[0]!.error).toBeUndefined();
    const shutdown = results[1]!;
    expect(shutdown.execute_reply).toMatchObject({ status: 'ok', execution_count: 2 });
    expect(shutdown.reply).toMatchObject({ status: 'ok', restart: false });
    expect(shutdown.exited, 'the kernel ended by itself, before Jupyter would kill it').toBe(true);
    expect(shutdown.exit_code).toBe(0);
    // No warning reached the cell once the shutdown came, and nothing but statuses follows the
    // shutdown's busy.
    const iopub = shutdown.iopub.map((m) => `${m.parent} ${m.type}`);
    expect(iopub).not.toContain('execute_request stream');
    expect(iopub.slice(iopub.indexOf('shutdown_request status')).every((m) => m.endsWith(' status'))).toBe(
      true,
    );
    // The cell was recorded less than a second before the shutdown, which wrote it.
    const file = join(home.env.JUPYTER_DATA_DIR, 'scratchlab', 'history.jsonl');
    expect(readFileSync(file, 'utf8')).toContain('const late2999: string = 2999;');
  });

  it('warns of a failed cell after its reply and before its idle; the cells run with it are aborted after', {
    timeout: 180_000,
  }, async () => {
    // It fails once the requests sent with it are sent (drive.py makes the file then).
    const release = join(home.dir, 'batch-sent');
    const failing = failOnceReleased(release, 'boom', "const wrongType: number = 'x';\n");
    const results = await drive(home, 'scratchlab', folder, [
      { execute: '1 + 1' }, // the checker is warm: checks follow their replies
      { batch: [failing, 'wrongType', '2'], release },
      { execute: '3' },
    ]);
    for (const [i, result] of results.entries()) expect(result.error, `request ${i}`).toBeUndefined();
    const [, failed, first, second, after] = results;
    expect([failed, first, second, after].map((r) => r!.reply?.status)).toEqual([
      'error',
      'aborted',
      'aborted',
      'ok',
    ]);
    // drive.py keeps a request's messages up to its idle only: each request's end before the next.
    expect(failed!.iopub.map((m) => m.type)).toEqual([
      'status',
      'execute_input',
      'error',
      'stream',
      'status',
    ]);
    expect(String(failed!.iopub[3]!.content.text)).toMatch(/line 1, column 7: warning TS2322/);
    for (const aborted of [first, second])
      expect(aborted!.iopub.map((m) => m.type)).toEqual(['status', 'status']);
    expect(after!.iopub.find((m) => m.type === 'execute_result')?.content).toMatchObject({
      execution_count: 3,
      data: { 'text/plain': '3' },
    });
  });

  it("keeps its own timers and clock when a cell replaces the global ones (fake timers): every cell's idle comes", {
    timeout: 180_000,
  }, async () => {
    const fake = [
      'const realSetTimeout = setTimeout;',
      'const realSetImmediate = setImmediate;',
      // As fake timers do: the globals replaced by ones that fire only when a test says so.
      'globalThis.setTimeout = (() => 0) as unknown as typeof setTimeout;',
      'globalThis.setImmediate = (() => 0) as unknown as typeof setImmediate;',
      'const realNow = performance.now;',
      'performance.now = () => 0;',
      "'faked'",
    ].join('\n');
    const results = await drive(
      home,
      'scratchlab',
      folder,
      [
        { execute: '1 + 1' }, // the checker is warm: checks follow their replies
        { execute: fake },
        { execute: "const stillChecked: number = 'z'; 5" },
        { execute: "throw new Error('a failure under a stopped clock')" },
        { execute: 'performance.now = realNow; 7' }, // sent after the failure's reply: not aborted
        { execute: 'globalThis.setTimeout = realSetTimeout; globalThis.setImmediate = realSetImmediate; 6' },
      ],
      30,
    );
    for (const [i, result] of results.entries()) expect(result.error, `request ${i}`).toBeUndefined();
    expect(results.map((r) => r.reply?.status)).toEqual(['ok', 'ok', 'ok', 'error', 'ok', 'ok']);
    expect(results.map((r) => r.iopub.find((m) => m.type === 'execute_result')?.content.data)).toEqual([
      ...['2', "'faked'", '5'].map((text) => ({ 'text/plain': text })),
      undefined,
      ...['7', '6'].map((text) => ({ 'text/plain': text })),
    ]);
    const warning = results[2]!.iopub.find((m) => m.type === 'stream')?.content;
    expect(String(warning?.text)).toMatch(/line 1, column 7: warning TS2322/);
  });
});
