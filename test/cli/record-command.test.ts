/**
 * `scratchlab record` as a user runs it (the built command): a long-running recorder with a
 * status line, stopped with Ctrl-C (SIGINT), after which every set it had seen is in the file.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Cloud } from '../../src/cloud/index.js';
import { openStore } from '../../src/data/index.js';
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
