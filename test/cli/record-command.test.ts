/**
 * `scratchlab record` as a user runs it (the built command): a long-running recorder with a
 * status line, stopped with Ctrl-C (SIGINT), after which every set it had seen is in the file;
 * several projects into one table; and an honest last line when the file could not be written.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Cloud } from '../../src/cloud/index.js';
import { openStore } from '../../src/data/index.js';
import { startChild } from '../support/child-lines.js';
import { holdFile } from '../support/hold-file.js';
import { useSandbox } from '../support/sandbox.js';

const cli = new URL('../../dist/cli.js', import.meta.url).pathname;
const ctx = useSandbox();
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'scratchlab-record-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('records until SIGINT, shows a live status line, and leaves everything on disk', async () => {
  const file = join(dir, 'cli.duckdb');
  const host = ctx.sandbox.alternateCloudHost;
  const proc = spawn(
    process.execPath,
    [cli, 'record', 'cli-game', '--db', file, '--host', host, '--contact', '@tester'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d) => (stdout += d));
  proc.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const until = async (check: () => boolean) => {
    const deadline = Date.now() + 20_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out; stdout: ${stdout}; stderr: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await until(() => stdout.includes('Ctrl-C stops'));
  expect(stdout).toContain(`recording project cli-game on ${host} into ${file}`);

  const writer = Cloud.alternate('cli-game', {
    host,
    purpose: 'tests',
    contact: '@tester',
    username: 'writer',
  });
  for (let i = 1; i <= 6; i++) await writer.setVar('level', i * 10);
  await until(() => /stored 6 · live 6 · reconnects 0 · last level=60/.test(stdout));
  await writer.disconnect();

  proc.kill('SIGINT');
  expect(await exited).toBe(0);
  expect(stderr).toBe('');
  expect(stdout.trim().split('\n').at(-1)).toBe(`stopped: everything received is stored in ${file}`);

  const store = await openStore(file);
  const rows = await store.query(`select name, value, source from cloud_activity order by received`);
  expect(rows.map((r) => `${r.name}=${r.value} ${r.source}`)).toEqual(
    [10, 20, 30, 40, 50, 60].map((v) => `level=${v} live`),
  );
  await store.close();
});

const record = (args: string[]) => startChild([cli, 'record', ...args]);

it('records several projects into one table, and says so when what it received could not be stored', async () => {
  const file = join(dir, 'several.duckdb');
  const host = ctx.sandbox.alternateCloudHost;
  const run = record([
    'game-a',
    'game-b',
    '--db',
    file,
    '--host',
    host,
    '--contact',
    '@tester',
    '--wait',
    '1',
  ]);
  await run.until((line) => line === 'Ctrl-C stops');
  expect(run.lines).toContain(`recording project game-a on ${host} into ${file}`);
  expect(run.lines).toContain(`recording project game-b on ${host} into ${file}`);
  const writer = (project: string) =>
    Cloud.alternate(project, { host, purpose: 'tests', contact: '@tester', username: 'writer' });
  const [a, b] = [writer('game-a'), writer('game-b')];
  for (let i = 1; i <= 3; i++) await a.setVar('level', i);
  for (let i = 1; i <= 2; i++) await b.setVar('lives', i);
  await run.until((line) => /game-a: stored 3 · .* \| game-b: stored 2 · /.test(line));

  // Another process keeps the file (here: this one, DuckDB's lock) longer than the recorder's --wait of 1 s.
  const release = await holdFile(file);
  await a.setVar('level', 4);
  await run.until((line) => line.startsWith('error (game-a): '));
  run.proc.kill('SIGINT');
  expect((await run.exited).code).toBe(1);
  release();
  await Promise.all([a.disconnect(), b.disconnect()]);
  const last = run.lines.at(-1)!;
  expect(last).toMatch(
    new RegExp(
      `^stopped: 1 received sets could NOT be stored in ${file}: 1 left unwritten \\(last error: .*stayed busy`,
    ),
  );
  expect(run.lines.join('\n')).not.toContain('everything received is stored');

  const store = await openStore(file);
  const rows = await store.query(
    'select project, name, count(*) as n from cloud_activity group by all order by 1',
  );
  expect(rows).toEqual([
    { project: 'game-a', name: 'level', n: 3 },
    { project: 'game-b', name: 'lives', n: 2 },
  ]);
  await store.close();
});

it('a second Ctrl-C while the last writes wait for a busy file abandons them, says how many, and exits 1', async () => {
  const file = join(dir, 'twice.duckdb');
  const host = ctx.sandbox.alternateCloudHost;
  const run = record(['game-twice', '--db', file, '--host', host, '--contact', '@tester', '--wait', '30']);
  await run.until((line) => line === 'Ctrl-C stops');
  const release = await holdFile(file);
  const writer = Cloud.alternate('game-twice', {
    host,
    purpose: 'tests',
    contact: '@tester',
    username: 'writer',
  });
  for (let i = 1; i <= 5; i++) await writer.setVar('level', i);
  await run.until((line) => /^stored 0 · live 5 /.test(line));
  run.proc.kill('SIGINT');
  await run.until((line) => line === 'stopping: storing 5 received sets (Ctrl-C again abandons them)');
  run.proc.kill('SIGINT');
  expect(await run.exited).toEqual({ code: 1, signal: null });
  release();
  await writer.disconnect();
  expect(run.lines.at(-1)).toBe(
    `stopped: 5 received sets could NOT be stored in ${file}: 5 left unwritten (abandoned by a second Ctrl-C)`,
  );
});
