// The protocol under pressure (kernel/protocol/server.ts, kernel/execution/type-checker.ts),
// through jupyter_client (test/kernel/drive.py): a failure aborts the requests sent with it and
// none sent once its reply came, however soon; the type warnings of the cells after an interrupt
// reach their cells.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type DriveRequest,
  drive,
  failOnceReleased,
  hasJupyter,
  installKernels,
  type JupyterHome,
  jupyterHome,
} from './jupyter.js';

const ROUNDS = 15;

describe.skipIf(!hasJupyter)('the protocol under pressure', () => {
  let home: JupyterHome;

  beforeAll(async () => {
    home = jupyterHome('protocol-pressure');
    await installKernels(home);
  });

  it('aborts the requests sent with a failed cell, never one sent the moment its reply came; warnings survive an interrupt', {
    timeout: 300_000,
  }, async () => {
    const failures = ["throw new Error('failed')", 'const broken = ;'];
    const rounds: DriveRequest[] = Array.from({ length: ROUNDS }, (_, i) => ({
      after_reply: [failures[i % 2]!, `${i}`] as [string, string],
    }));
    const release = join(home.dir, 'run-all-sent');
    const results = await drive(home, 'scratchlab', join(home.dir, 'notebooks'), [
      ...rounds,
      // "Run all": sent together with the failed cell, so aborted. The failing cell waits until all
      // three are sent (drive.py makes the file then): what counts is what the kernel had received.
      { batch: [failOnceReleased(release, 'first'), "'not run'", "'not run either'"], release },
      // A cell with a type problem, interrupted once its reply is in; then cells sent at once.
      { interrupt_after_reply: "const interrupted: number = 'x';" },
      { batch: Array.from({ length: 8 }, (_, i) => `const warned${i}: number = 'w${i}';`) },
    ]);
    for (const result of results) expect(result.error).toBeUndefined();
    const after = results.slice(0, 2 * ROUNDS);
    expect(after.map((r) => r.reply?.status)).toEqual(
      Array.from({ length: ROUNDS }, () => ['error', 'ok']).flat(),
    );
    expect(
      after
        .filter((_, i) => i % 2 === 1)
        .map((r) => r.iopub.find((m) => m.type === 'execute_result')?.content.data),
    ).toEqual(Array.from({ length: ROUNDS }, (_, i) => ({ 'text/plain': `${i}` })));

    const runAll = results.slice(2 * ROUNDS, 2 * ROUNDS + 3);
    expect(runAll.map((r) => r.reply?.status)).toEqual(['error', 'aborted', 'aborted']);

    const warned = results.slice(2 * ROUNDS + 4);
    expect(warned).toHaveLength(8);
    for (const [i, result] of warned.entries()) {
      expect(result.reply?.status).toBe('ok');
      const stderr = result.iopub
        .filter((m) => m.type === 'stream' && m.content.name === 'stderr')
        .map((m) => String(m.content.text))
        .join('');
      expect(stderr, `cell ${i}`).toMatch(
        /line 1, column 7: warning TS2322: Type 'string' is not assignable to type 'number'/,
      );
    }
  });
});
