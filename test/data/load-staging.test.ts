/**
 * Staging files and walks across real processes (the data-load child, killed with SIGKILL where
 * it says so): a load killed without `resume` leaves its staging file only until the store is
 * opened again, while a live load's and a resumable walk's stay; and a second load of a walk that
 * another process (or this one) is loading fails at once with a `StoreBusyError` naming the walk
 * and that process, which goes on unharmed.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore, StoreBusyError } from '../../src/data/index.js';
import { stagingFolder } from '../../src/data/staged-load.js';
import { bundleChild, projectTempDir } from '../support/bundle-child.js';
import { type LinesChild, startChild } from '../support/child-lines.js';

/** Records of a walk that never ends while a test watches it (40 a page, a page every 20 ms). */
const ENDLESS = 1_000_000;
let dir: string;
let child: string;
const started: LinesChild[] = [];

beforeAll(async () => {
  dir = projectTempDir('data-staging-');
  child = await bundleChild('data-load-child', dir, ['@duckdb/node-api']);
});
afterAll(() => {
  for (const { proc } of started)
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the child loading `total` records into table `walk` of `file`, `resume` as it says. */
function load(file: string, total: number, resume: string, delayMs = 20): LinesChild {
  const loader = startChild([child, file, String(total), String(delayMs), resume]);
  started.push(loader);
  return loader;
}

const stored = (line: string) => line.startsWith('stored ');

/** Waits for a line printed after the `seen` first ones. */
function more(loader: LinesChild, seen: number): Promise<void> {
  return loader.until(() => loader.lines.length > seen);
}

function staged(file: string, prefix: string): string[] {
  return readdirSync(stagingFolder(file)).filter((name) => name.startsWith(prefix));
}

it('a load killed without resume leaves its staging file only until the store opens; a live load’s and a walk’s stay', {
  timeout: 60_000,
}, async () => {
  const file = join(dir, 'sweep.duckdb');
  // In this order: each load sweeps as it starts, so the killed one comes last.
  const live = load(file, ENDLESS, 'false');
  await live.until(stored);
  const walk = load(file, ENDLESS, 'true');
  await walk.until(stored);
  walk.proc.kill('SIGKILL');
  await walk.exited;
  const killed = load(file, ENDLESS, 'false');
  await killed.until(stored);
  killed.proc.kill('SIGKILL');
  await killed.exited;
  expect(staged(file, `p${killed.proc.pid}-`).filter((name) => name.endsWith('.duckdb'))).toHaveLength(1);
  expect(staged(file, `p${live.proc.pid}-`).filter((name) => name.endsWith('.duckdb'))).toHaveLength(1);
  expect(staged(file, 'walk-').filter((name) => name.endsWith('.duckdb'))).toHaveLength(1);

  // Opening the store is enough: no load needed.
  const store = await openStore(file);
  expect(staged(file, `p${killed.proc.pid}-`)).toEqual([]);
  expect(staged(file, `p${live.proc.pid}-`).filter((name) => name.endsWith('.duckdb'))).toHaveLength(1);
  expect(staged(file, 'walk-').filter((name) => name.endsWith('.duckdb'))).toHaveLength(1);
  // The live load goes on storing pages into the file it keeps.
  await more(live, live.lines.length);
  live.proc.kill('SIGKILL');
  await live.exited;
  await store.close();

  const again = await openStore(file);
  expect(staged(file, 'p')).toEqual([]);
  await again.close();
});

it('a second load of a walk another process is loading fails at once, naming the walk and that process', {
  timeout: 60_000,
}, async () => {
  const file = join(dir, 'busy.duckdb');
  const first = load(file, ENDLESS, 'followers of alice');
  await first.until(stored);

  const second = load(file, 80, 'followers of alice', 1);
  expect((await second.exited).code, second.stderr()).toBe(1);
  expect(second.lines.find((line) => line.startsWith('failed '))).toMatch(
    new RegExp(
      `^failed StoreBusyError: the walk "followers of alice" into table "walk" is being loaded by process ${first.proc.pid} on `,
    ),
  );
  // Another walk into the same table loads meanwhile; the first goes on.
  const other = load(file, 80, 'followers of bob', 1);
  expect((await other.exited).code, other.stderr()).toBe(0);
  await more(first, first.lines.length);

  // Killed, the first walk's load is taken over by the next load of it, which resumes it.
  first.proc.kill('SIGKILL');
  await first.exited;
  const storedBefore = Math.max(...first.lines.filter(stored).map((line) => Number(line.split(' ')[1])));
  const resumed = load(file, storedBefore + 80, 'followers of alice', 1);
  expect((await resumed.exited).code, resumed.stderr()).toBe(0);
  const [, read, from] = /^done (\d+) (\d+)$/.exec(resumed.lines.at(-1)!)!.map(Number);
  expect(from).toBeGreaterThanOrEqual(storedBefore);
  expect(read! + from!).toBe(storedBefore + 80);
  const store = await openStore(file);
  const [{ rows, distinct }] = await store.query<{ rows: number; distinct: number }>(
    'select count(*)::INTEGER as rows, count(distinct label)::INTEGER as distinct from walk',
  );
  await store.close();
  // Bob's 80 records and each of Alice's once.
  expect(rows).toBe(80 + storedBefore + 80);
  expect(distinct).toBe(storedBefore + 80);
});

it('in one process too: the second load of a walk fails at once, the first finishes whole', async () => {
  const store = await openStore(join(dir, 'one-process.duckdb'));
  let resolveStarted!: () => void;
  const started = new Promise<void>((resolve) => {
    resolveStarted = resolve;
  });
  async function* crawl() {
    for (let id = 1; id <= 200; id++) {
      if (id % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      yield { id, name: `user${id}` };
    }
  }
  const first = store.load('users', crawl(), {
    resume: 'all users',
    batchSize: 20,
    onProgress: () => resolveStarted(),
  });
  await started;
  const second = await store.load('users', crawl(), { resume: 'all users' }).catch((error: unknown) => error);
  expect(second).toBeInstanceOf(StoreBusyError);
  expect((second as Error).message).toMatch(
    new RegExp(`^the walk "all users" into table "users" is being loaded by process ${process.pid} on `),
  );
  expect(await first).toEqual({ rows: 200, pages: 10, resumedFrom: 0 });
  expect(await store.query('select count(*)::INTEGER as n from users')).toEqual([{ n: 200 }]);
  await store.close();
});
