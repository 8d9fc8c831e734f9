import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withFileLock } from '../../src/databases/file-lock.js';
import { waitFor } from '../cloud/support.js';

const folders: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe('withFileLock', () => {
  it('keeps the lock through a task that outlasts a refresh (holder.json does not make it look stolen)', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'file-lock-'));
    folders.push(folder);
    const path = join(folder, 'db.json');
    // stale 2000 ms: proper-lockfile refreshes the lock's time every 1000 ms. The task lasts until
    // the lock's time has changed twice (a refresh after holder.json was written, and another).
    const result = await withFileLock(path, { timeout: 1000, stale: 2000, who: 'test' }, async () => {
      const times = new Set([(await stat(`${path}.lock`)).mtimeMs]);
      await waitFor(async () => times.add((await stat(`${path}.lock`)).mtimeMs).size >= 3, 'two refreshes');
      return 'done';
    });
    expect(result).toBe('done');
  });

  it('waits for a dead holder’s lock with a take-over guard left beside it without spinning', {
    timeout: 20_000,
  }, async () => {
    const folder = await mkdtemp(join(tmpdir(), 'file-lock-'));
    folders.push(folder);
    const path = join(folder, 'db.json');
    // A lock whose holder is a process that has exited, and a fresh guard a killed waiter left.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    await mkdir(`${path}.lock`);
    await writeFile(
      join(`${path}.lock`, 'holder.json'),
      JSON.stringify({ pid: dead, host: hostname(), since: new Date().toISOString() }),
    );
    await mkdir(`${path}.lock.takeover`);
    // The guard's age is judged by its mtime, which the kernel stamps from a coarser clock than
    // Date.now() (a few ms behind it), so the check below reads the same stamp the lock reads.
    const guardMade = (await stat(`${path}.lock.takeover`)).mtimeMs;
    // Every try at the lock, counted (proper-lockfile's own lock, called through).
    const tries = vi.spyOn(lockfile, 'lock');
    let guardAgeWhenTaken = -1;
    const result = await withFileLock(path, { timeout: 15_000, who: 'test' }, async () => {
      guardAgeWhenTaken = Date.now() - guardMade;
      return 'taken';
    });
    expect(result).toBe('taken');
    // The guard counts as left behind once it is 5 s old (by the same two stamps the lock compares).
    expect(guardAgeWhenTaken).toBeGreaterThan(5000);
    // Meanwhile the waiter polls, a timer of at least 1 ms between two tries: at most one try a
    // millisecond of the guard's 5 s, fewer on a busy machine, never more (about 1,000 here). A
    // waiter that spun (it did, at 94% of a core) tries again as soon as a try fails: 9,862 tries
    // here with the pause dropped, under the load of other suites.
    expect(tries.mock.calls.length).toBeLessThanOrEqual(5000);
  });
});
