/**
 * The REPL's `store` and `sql` (a real child process in a pseudo-terminal, on the sandbox): the
 * store opens on first use in the file `SCRATCHLAB_DB` names, a load walks a list into it, a
 * query's rows print as a table, and `plot(await sql`…`)` draws a line per number over time; the
 * REPL's exit closes the store with a running recorder's last sets written.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore } from '../../src/data/index.js';
import { ReplProcess } from './pty.js';

let repl: ReplProcess;
let dir: string;
let file: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'scratchlab-repl-store-'));
  file = join(dir, 'repl.duckdb');
  repl = await ReplProcess.start({ sandbox: true, env: { SCRATCHLAB_DB: file } });
}, 60_000);

afterAll(async () => {
  await repl?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('opens the store on first use, loads a list, and prints a query as a table', async () => {
  expect(existsSync(file)).toBe(false); // nothing opened before the first use
  expect(await repl.run('store')).toContain(`Store { path: "${file}", opens on first use }`);
  const loaded = await repl.run(
    'await store.load("studio", session.studios.projects(sandbox.samples.studio))',
  );
  expect(loaded).toMatch(/rows: \d+/);
  const out = await repl.run(
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the REPL's input, a tagged template
    'sql`select username, count(*) as projects from studio group by 1 order by 2 desc, 1 limit ${3}`',
  );
  const [header, rule, ...rows] = out.split('\n');
  expect(header).toMatch(/username\s+projects/);
  expect(rule).toMatch(/^─+/);
  expect(rows.length).toBe(3);
  expect(rows[0]).toMatch(/^\S+\s+\d+/);
});

it('charts a query with a time column and numbers: a line per number', async () => {
  await repl.run(
    'await store.load("ticks", Array.from({ length: 30 }, (_, i) => ({ id: i, minute: new Date(Date.UTC(2024, 0, 1, 0, i)), players: i % 7, score: i * 3 })))',
  );
  const out = await repl.run('plot(await sql`select minute, players, score from ticks order by minute`)');
  expect(out).toContain('2024-01-01 00:00:00 → 2024-01-01 00:29:00 UTC (29m)');
  expect(out).toMatch(/players · 30 points · last 1/);
  expect(out).toMatch(/score · 30 points · last 87/);
});

it('kept what it stored in the file once the REPL is gone, a running recorder’s last sets included', async () => {
  // A set received just before the exit is still waiting for the recorder's next write (at most a
  // second away): the REPL's exit closes the store, which writes it first.
  await repl.run(
    "const rec = await store.recordCloud(session.cloud(sandbox.cloudProjectId), { table: 'exit_history', logs: false })",
  );
  await repl.run(
    "{ const w = session.cloud(sandbox.cloudProjectId); await w.setVar('exit', 99); while (rec.counts.live < 1) await new Promise((r) => setTimeout(r, 10)); }",
  );
  await repl.close();
  const store = await openStore(file);
  const [{ n }] = (await store.query('select count(*) as n from ticks')) as unknown as [{ n: number }];
  expect(n).toBe(30);
  expect(await store.query('select name, value, source from exit_history')).toEqual([
    { name: 'exit', value: '99', source: 'live' },
  ]);
  await store.close();
});
