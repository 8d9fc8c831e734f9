// A kernel's `store.recordCloud()` ended by the front end, as Jupyter ends it (through
// jupyter_client: shutdown_request on the control channel, or "Restart kernel"): the sets it received
// last, within its last write interval (a write at most every second), are in the file once the
// process has gone. The sandbox runs in this process (it outlives the kernel), the sets come from
// this process through the real client, and the test reads the kernel's store file itself. Measured
// here: the shutdown reaches the kernel 0.2-0.5 s after the last set, before the recorder's timer
// would write it; with the store's close left out of the shutdown, both cases lose the last sets.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/data/index.js';
import { waitFor } from '../cloud/support.js';
import { useSandbox } from '../support/sandbox.js';
import {
  type DriveResult,
  drive,
  hasJupyter,
  installKernels,
  type JupyterHome,
  jupyterHome,
} from './jupyter.js';

/** Sets sent, and stored by the recorder's own timer, before the last ones. */
const EARLY = 6;
/** Sets sent just before the kernel is ended: still waiting for the recorder's next write. */
const LAST = 3;
const TABLE = 'kernel_history';
const VARIABLE = 'flush';
/** The sets' values, distinct so that each row names the set it came from. */
const VALUES = Array.from({ length: EARLY + LAST }, (_, i) => String(7000 + i));

/** The plain text of a cell's value (its `execute_result`). */
const cellValue = (result: DriveResult) =>
  (
    result.iopub.find((m) => m.type === 'execute_result')?.content.data as Record<string, string> | undefined
  )?.['text/plain'];

describe.skipIf(!hasJupyter)('a recorder in the kernel when the kernel ends', { timeout: 180_000 }, () => {
  const fixture = useSandbox();
  let home: JupyterHome;

  beforeAll(async () => {
    home = jupyterHome('recorder-shutdown');
    await installKernels(home);
  });

  /**
   * Starts a kernel in its own folder whose cells record the sandbox's cloud game into
   * `scratchlab.duckdb` (the preloaded `store`), sends {@link EARLY} sets and waits until they
   * are in the file, sends {@link LAST} more, and ends the kernel with `ending` once it has
   * received them all. Answers drive.py's results and the values in the file afterwards.
   */
  async function recordThenEnd(
    ending: 'shutdown' | 'restart',
  ): Promise<{ results: DriveResult[]; values: string[] }> {
    const { sandbox } = fixture;
    const account = sandbox.accounts[0]!;
    const cwd = join(home.dir, ending);
    const file = join(cwd, 'scratchlab.duckdb');
    const afterEnd =
      ending === 'restart'
        ? [
            // The new kernel opens the same file and sees every set too.
            { execute: `(await sql\`select count(*)::INT as n from ${TABLE}\`)[0]!.n` },
            { shutdown: true as const },
          ]
        : [];
    const driving = drive(
      home,
      'scratchlab',
      cwd,
      [
        {
          execute: [
            `const s = await Session.login(${JSON.stringify(account.username)}, ${JSON.stringify(account.password)}, { hosts: ${JSON.stringify(sandbox.hosts)} });`,
            `const rec = await store.recordCloud(s.cloud(${sandbox.cloudProjectId}), { table: '${TABLE}', logs: false });`,
          ].join('\n'),
        },
        {
          // Running while the sets come: it ends as soon as the last one has arrived, and the
          // kernel is ended right after it. (Not the first cell: the first one's type check, which
          // its idle waits for, loads TypeScript and takes a second or two.)
          execute: [
            // Tells the test (reading the file) that the recorder is connected: sets may come.
            "await store.query('create table recorder_ready as select 1 as ok');",
            `for (const until = Date.now() + 90_000; rec.counts.live < ${VALUES.length} && Date.now() < until; )`,
            '  await new Promise((r) => setTimeout(r, 5));',
            'rec.counts.live',
          ].join('\n'),
        },
        ending === 'restart' ? { restart: true } : { shutdown: true },
        ...afterEnd,
      ],
      120,
    );
    // A kernel that fails before the last set ends the waits below at once, with its answers.
    const endedEarly = driving.then((results) => {
      throw new Error(`the kernel's requests ended before every set was sent: ${JSON.stringify(results)}`);
    });
    endedEarly.catch(() => {});

    const store = await openStore(file);
    // At once (within the sandbox's burst of 30): the last sets arrive together, a second before
    // the recorder's next write, so the kernel is ended while they wait for it.
    const player = (await fixture.login(1)).cloud(sandbox.cloudProjectId, { rateLimit: 0 });
    try {
      const stored = () =>
        store.query<{ n: number }>(`select count(*)::INT as n from ${TABLE} where name = $1`, [VARIABLE]);
      await Promise.race([
        (async () => {
          await waitFor(
            async () => (await store.tables()).some((t) => t.name === 'recorder_ready'),
            'the kernel’s recorder to start',
            90_000,
            100,
          );
          for (const value of VALUES.slice(0, EARLY)) await player.setVar(VARIABLE, value);
          // The early sets are written by the recorder's timer while the kernel runs.
          await waitFor(
            async () => (await stored())[0]!.n === EARLY,
            'the early sets in the file',
            60_000,
            100,
          );
          for (const value of VALUES.slice(EARLY)) await player.setVar(VARIABLE, value);
        })(),
        endedEarly,
      ]);
      const results = await driving;
      const rows = await store.query<{ value: string }>(
        `select value from ${TABLE} where name = $1 order by value`,
        [VARIABLE],
      );
      return { results, values: rows.map((row) => row.value) };
    } finally {
      await player.disconnect();
      await store.close();
    }
  }

  it('shutdown_request: every set received is in the file, the last ones included, each once', async () => {
    const { results, values } = await recordThenEnd('shutdown');
    for (const result of results.slice(0, 2)) expect(result.error).toBeUndefined();
    expect(cellValue(results[1]!)).toBe(String(VALUES.length));
    const shutdown = results[2]!;
    expect(shutdown.reply).toMatchObject({ status: 'ok', restart: false });
    expect(shutdown.exited, 'the kernel ended by itself, before Jupyter would kill it').toBe(true);
    expect(shutdown.exit_code).toBe(0);
    expect(values).toEqual(VALUES);
  });

  it('restart: the old kernel writes the last sets before it goes, and the new one reads them all', async () => {
    const { results, values } = await recordThenEnd('restart');
    for (const result of results) expect(result.error).toBeUndefined();
    const restart = results[2]!;
    expect(restart.exited, 'the old kernel ended by itself, before Jupyter would kill it').toBe(true);
    expect(restart.exit_code).toBe(0);
    expect(values).toEqual(VALUES);
    expect(cellValue(results[1]!)).toBe(String(VALUES.length));
    expect(cellValue(results[3]!)).toBe(String(VALUES.length));
    expect(results[4]!.exited).toBe(true);
  });
});
