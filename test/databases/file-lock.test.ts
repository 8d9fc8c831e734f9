import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withFileLock } from '../../src/databases/file-lock.js';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe('withFileLock', () => {
  it('keeps the lock through a task that outlasts a refresh (holder.json does not make it look stolen)', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'file-lock-'));
    folders.push(folder);
    const path = join(folder, 'db.json');
    // stale 2000 ms: proper-lockfile refreshes the lock's time every 1000 ms.
    const result = await withFileLock(path, { timeout: 1000, stale: 2000, who: 'test' }, async () => {
      await new Promise((done) => setTimeout(done, 1500));
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
    const wall = Date.now();
    const cpu = process.cpuUsage();
    let guardAgeWhenTaken = -1;
    const result = await withFileLock(path, { timeout: 15_000, who: 'test' }, async () => {
      guardAgeWhenTaken = Date.now() - guardMade;
      return 'taken';
    });
    const used = process.cpuUsage(cpu);
    const elapsed = Date.now() - wall;
    expect(result).toBe('taken');
    // The guard counts as left behind once it is 5 s old; meanwhile the waiter polls (before: it spun,
    // 94% of a core).
    expect(guardAgeWhenTaken).toBeGreaterThan(5000);
    expect((used.user + used.system) / 1000).toBeLessThan(elapsed / 4);
  });
});
