import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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
});
