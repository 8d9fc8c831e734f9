/**
 * A load killed with SIGKILL in the middle of a walk, then started again with `resume: true`:
 * the table ends with every record exactly once. Each page's rows and the walk's progress are
 * committed together in the walk's staging file, so what the killed process had printed as stored
 * is kept, the restarted load reads from the next page on, and the table sees the walk only whole.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore } from '../../src/data/index.js';
import { stagingFolder } from '../../src/data/staged-load.js';
import { bundleChild, projectTempDir } from '../support/bundle-child.js';

const TOTAL = 2000;
let dir: string;
let child: string;

beforeAll(async () => {
  dir = projectTempDir('data-resume-');
  child = await bundleChild('data-load-child', dir, ['@duckdb/node-api']);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the child; calls `onLine` for each line it prints; resolves with its exit. */
function run(file: string, onLine: (line: string, proc: ChildProcess) => void) {
  const proc = spawn(process.execPath, [child, file, String(TOTAL)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let buffer = '';
  proc.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let end = buffer.indexOf('\n');
    while (end >= 0) {
      onLine(buffer.slice(0, end), proc);
      buffer = buffer.slice(end + 1);
      end = buffer.indexOf('\n');
    }
  });
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
}

it('goes on from the next page after the loading process is killed: no gap, no duplicate', async () => {
  const file = join(dir, 'resume.duckdb');
  let lastStored = 0;
  const killed = await run(file, (line, proc) => {
    const stored = /^stored (\d+)$/.exec(line);
    if (!stored) return;
    lastStored = Number(stored[1]);
    if (lastStored >= 400) proc.kill('SIGKILL');
  });
  expect(killed.signal).toBe('SIGKILL');
  expect(lastStored).toBeGreaterThanOrEqual(400);

  // No query sees part of a load: the killed walk's pages wait in its staging file, not in the table.
  const store = await openStore(file);
  expect((await store.tables()).map((t) => t.name)).not.toContain('walk');
  await store.close();

  // What the killed process reported as stored is kept (perhaps a page more, committed before it
  // could print), in whole pages: the restarted load reads on from there.
  let done = '';
  const finished = await run(file, (line) => {
    if (line.startsWith('done')) done = line;
  });
  expect(finished.code).toBe(0);
  const [, read, from] = /^done (\d+) (\d+)$/.exec(done)!.map(Number);
  expect(from).toBeGreaterThanOrEqual(lastStored);
  expect(from! % 40).toBe(0);
  expect(from).toBeLessThan(TOTAL);
  expect(read).toBe(TOTAL - from!);

  const after = await openStore(file);
  const rows = await after.query('select n, count(*) as copies from walk group by n order by n');
  expect(rows.length).toBe(TOTAL);
  expect(rows.every((r, i) => r.n === i + 1 && r.copies === 1)).toBe(true);
  // A finished walk is forgotten with its staging file: loading it again would start it again.
  expect(readdirSync(stagingFolder(file))).toEqual([]);
  await after.close();
});
