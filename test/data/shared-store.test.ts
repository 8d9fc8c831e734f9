/**
 * One store file, several processes at once, all real: `scratchlab record` (the built command)
 * records two projects while a second process lists the tables every second and a third loads a
 * crawl into the same file, again and again, for 60 s. Nobody fails for another's hold on the
 * file, no query sees part of a load, and in the end every set the sandbox accepted is stored
 * once. Then a recorder killed with SIGKILL and started again: the sets made while it was dead
 * come back from the host's log, none twice.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Cloud } from '../../src/cloud/index.js';
import { openStore } from '../../src/data/index.js';
import { bundleChild, projectTempDir } from '../support/bundle-child.js';
import { startChild } from '../support/child-lines.js';
import { recorderChildEnv, useSandbox } from '../support/sandbox.js';

const cli = new URL('../../dist/cli.js', import.meta.url).pathname;
const ctx = useSandbox();
const CRAWL = 20_000;
const RUN_MS = 60_000;
let dir: string;
const children: Record<string, string> = {};

beforeAll(async () => {
  dir = projectTempDir('shared-store-');
  for (const name of ['store-query-child', 'data-load-child', 'recorder-child'])
    children[name] = await bundleChild(name, dir, ['@duckdb/node-api']);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = startChild;

it('records, queries and loads one file from three processes for 60 s: nothing fails, every set once', {
  timeout: 180_000,
}, async () => {
  const file = join(dir, 'shared.duckdb');
  const host = ctx.sandbox.alternateCloudHost;
  const projects = ['game-a', 'game-b'];
  const recorder = start([cli, 'record', ...projects, '--db', file, '--host', host, '--contact', '@t']);
  await recorder.until((line) => line === 'Ctrl-C stops');
  const querier = start([children['store-query-child']!, file, '1000']);
  await querier.until((line) => line.startsWith('tables '));

  const writer = (project: string) =>
    Cloud.alternate(project, { host, purpose: 'tests', contact: '@t', username: `writer-${project}` });
  const clouds = { 'game-a': writer('game-a'), 'game-b': writer('game-b') };
  const sets = { 'game-a': 0, 'game-b': 0 };
  // 60 s at least, and until the querier has answered 30 times (on a loaded machine its queries
  // wait longer for the file): a bound fails the test past 120 s.
  const began = Date.now();
  const queried = () => querier.lines.filter((line) => line.startsWith('tables ')).length;
  const running = () => {
    if (Date.now() - began > 2 * RUN_MS) throw new Error(`the querier answered ${queried()} times in 120 s`);
    return Date.now() - began < RUN_MS || queried() < 30;
  };
  let loads = 0;
  const loading = (async () => {
    while (running()) {
      const loader = start([children['data-load-child']!, file, String(CRAWL), '1']);
      const { code } = await loader.exited;
      expect(code, loader.stderr()).toBe(0);
      loads++;
    }
  })();
  while (running()) {
    for (const project of ['game-a', 'game-b'] as const) {
      sets[project]++;
      await clouds[project].setVar('score', sets[project]);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await loading;
  // Every set reached the recorder before it is stopped (its status counts what it received).
  const total = sets['game-a'] + sets['game-b'];
  await recorder.until((line) => {
    const lives = [...line.matchAll(/live (\d+)/g)].map((m) => Number(m[1]));
    return lives.length === 2 && lives[0]! + lives[1]! === total;
  });
  recorder.proc.kill('SIGINT');
  querier.proc.kill('SIGTERM');
  expect((await recorder.exited).code, recorder.stderr() + recorder.lines.slice(-6).join('\n')).toBe(0);
  expect(recorder.lines.at(-1)).toBe(`stopped: everything received is stored in ${file}`);
  expect((await querier.exited).code, querier.stderr()).toBe(0);
  await Promise.all(Object.values(clouds).map((cloud) => cloud.disconnect()));

  // The querier never failed, and never saw part of a load: the crawl's table grows a whole crawl at a time.
  expect(querier.lines.filter((line) => line.startsWith('error'))).toEqual([]);
  const seen = querier.lines
    .filter((line) => line.startsWith('tables '))
    .map((line) => JSON.parse(line.slice(7)) as Record<string, number>);
  expect(seen.length).toBeGreaterThanOrEqual(30);
  expect(seen.every((tables) => (tables.walk ?? 0) % CRAWL === 0)).toBe(true);
  const activity = seen.map((tables) => tables.cloud_activity ?? 0);
  expect(activity.every((n, i) => i === 0 || n >= activity[i - 1]!)).toBe(true);
  expect(activity.at(-1)).toBeGreaterThan(0);

  const store = await openStore(file);
  const counts = await store.query(
    'select project, count(*) as n, count(distinct value) as distinct from cloud_activity group by 1 order by 1',
  );
  expect(counts).toEqual([
    { project: 'game-a', n: sets['game-a'], distinct: sets['game-a'] },
    { project: 'game-b', n: sets['game-b'], distinct: sets['game-b'] },
  ]);
  expect(loads).toBeGreaterThanOrEqual(2);
  const [walk] = await store.query('select count(*) as n, count(distinct n) as distinct from walk');
  expect(walk).toEqual({ n: loads * CRAWL, distinct: CRAWL });
  await store.close();
});

it('a recorder killed with SIGKILL and started again stores every set the log holds, once', {
  timeout: 60_000,
}, async () => {
  const file = join(dir, 'killed.duckdb');
  const project = ctx.sandbox.cloudProjectId;
  const env = recorderChildEnv(ctx.sandbox);
  const writer = (await ctx.login(0)).cloud(project);
  const run = () => start([children['recorder-child']!, file, String(project)], env);

  const first = run();
  await first.until((line) => line.startsWith('recording '));
  for (let i = 1; i <= 20; i++) await writer.setVar('killed', i);
  // Killed at once: what it received in its last second may not be written yet.
  first.proc.kill('SIGKILL');
  expect((await first.exited).signal).toBe('SIGKILL');
  for (let i = 21; i <= 30; i++) await writer.setVar('killed', i);

  const second = run();
  await second.until((line) => line.startsWith('recording '));
  for (let i = 31; i <= 40; i++) await writer.setVar('killed', i);
  const store = await openStore(file);
  const values = async () =>
    (await store.query(`select value from cloud_activity where name = 'killed' order by "timestamp"`)).map(
      (row) => Number(row.value),
    );
  const deadline = Date.now() + 30_000;
  while ((await values()).length < 40 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  second.proc.kill('SIGINT');
  await second.exited;
  expect(await values()).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  await store.close();
  await writer.disconnect();
});
