// `scratchlab/data` from the packed package, as users install it: without `@duckdb/node-api` the
// store says what to install; with it beside scratchlab, a script loads, queries and exports
// Parquet. DuckDB is an optional peer dependency, never installed by scratchlab itself.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, it, onTestFinished } from 'vitest';
import { ROOT } from '../kernel/jupyter.js';

const run = promisify(execFile);
const WORK = join(ROOT, 'test', '.tmp', 'install-data');
const NPM_TIMEOUT = 240_000;
const npmEnv = {
  ...process.env,
  npm_config_cache: join(ROOT, 'test', '.tmp', 'install', 'npm-cache'),
  npm_config_update_notifier: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
};

const SCRIPT = `
import { openStore } from 'scratchlab/data';
try {
  const store = await openStore('app.duckdb');
  await store.load('projects', [{ id: 1, title: 'A', stats: { views: 10 } }, { id: 2, title: 'B', stats: { views: 30 } }]);
  const rows = await store.sql\`select title, "stats.views" as views from projects where "stats.views" > \${20}\`;
  const saved = await store.export('projects', 'projects.parquet');
  const back = await store.query("select count(*) as n from 'projects.parquet'");
  await store.close();
  console.log(JSON.stringify({ rows, format: saved.format, back }));
} catch (error) {
  console.log(JSON.stringify({ error: error.name, message: error.message }));
}
`;

let tarball: string;
beforeAll(async () => {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', WORK], {
    cwd: ROOT,
    timeout: NPM_TIMEOUT,
  });
  tarball = join(WORK, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
}, 120_000);

it('asks for @duckdb/node-api when it is missing, and works once it is installed beside', {
  timeout: 600_000,
}, async () => {
  // Outside the repository: node must not find the repository's own node_modules by walking up.
  const project = mkdtempSync(join(tmpdir(), 'scratchlab-data-app-'));
  onTestFinished(() => rmSync(project, { recursive: true, force: true }));
  writeFileSync(join(project, 'package.json'), '{ "name": "my-data", "private": true, "type": "module" }\n');
  writeFileSync(join(project, 'main.js'), SCRIPT);
  await run('npm', ['install', tarball], { cwd: project, env: npmEnv, timeout: NPM_TIMEOUT });
  // An optional peer: npm does not install it with scratchlab.
  expect(existsSync(join(project, 'node_modules', '@duckdb'))).toBe(false);
  const without = JSON.parse((await run(process.execPath, ['main.js'], { cwd: project })).stdout);
  expect(without).toEqual({
    error: 'MissingDuckDBError',
    message:
      "scratchlab/data needs DuckDB's Node client, which is not installed: run `npm install @duckdb/node-api` beside scratchlab",
  });

  await run('npm', ['install', '@duckdb/node-api'], { cwd: project, env: npmEnv, timeout: NPM_TIMEOUT });
  const withIt = JSON.parse((await run(process.execPath, ['main.js'], { cwd: project })).stdout);
  expect(withIt).toEqual({ rows: [{ title: 'B', views: 30 }], format: 'Parquet', back: [{ n: 2 }] });
});
