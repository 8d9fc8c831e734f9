/**
 * The processes of the store's fault suite (`test/data/store-faults.test.ts`), one mode each:
 *
 * - `hold <file>`: opens the file with DuckDB (its lock, as any other process would hold it),
 *   prints `held`, and keeps it until killed.
 * - `turns <file>`: takes turns on the file as a store does, again and again; inside each turn it
 *   prints `holding N`, works for about 300 ms, then prints `released N` (`error MESSAGE` for a
 *   turn that failed), until SIGTERM; then `done N`.
 * - `chdir <file> <folder>`: opens a store on the relative path `file`, loads a row, changes the
 *   working folder to `folder`, loads and queries again and prints `rows N`.
 * - `read <file>`: opens a store on a file of a folder this user may not write and prints `rows N`
 *   of its table `t` (or `failed MESSAGE`).
 * - `load [file]`: loads 1000 records into the store `file` (default an in-memory one, which stages
 *   them in the user's temporary folder) and prints `loaded N`, or `failed MESSAGE`.
 */

import { loadDuckDB } from '../../src/data/duckdb-module.js';
import { openStore } from '../../src/data/index.js';
import { SharedFile } from '../../src/data/shared-file.js';

const [mode, ...args] = process.argv.slice(2);
const print = (line: string) => process.stdout.write(`${line}\n`);

if (mode === 'hold') {
  const duck = await loadDuckDB();
  const instance = await duck.DuckDBInstance.create(args[0]!);
  print('held');
  setInterval(() => instance, 60_000);
} else if (mode === 'turns') {
  const file = await SharedFile.open(await loadDuckDB(), args[0]!, 60_000);
  let stopping = false;
  process.on('SIGTERM', () => {
    stopping = true;
  });
  let turns = 0;
  while (!stopping) {
    const n = ++turns;
    try {
      await file.use(async (connection) => {
        print(`holding ${n}`);
        await connection.run('CREATE TABLE IF NOT EXISTS turns (n INTEGER)');
        const until = Date.now() + 300;
        while (Date.now() < until) await connection.run('SELECT count(*) FROM range(100000)');
        await connection.run('INSERT INTO turns VALUES ($1)', [n]);
      });
      print(`released ${n}`);
    } catch (error) {
      print(`error ${error instanceof Error ? error.message : String(error)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await file.close();
  print(`done ${turns}`);
} else if (mode === 'chdir') {
  const [path, folder] = args as [string, string];
  const store = await openStore(path);
  await store.load('t', [{ id: 1 }]);
  process.chdir(folder);
  await store.load('t', [{ id: 2 }]);
  const [row] = await store.query<{ n: number }>('SELECT count(*)::INTEGER AS n FROM t');
  await store.close();
  print(`rows ${row!.n}`);
} else if (mode === 'read') {
  try {
    const store = await openStore(args[0]!);
    const [row] = await store.query<{ n: number }>('SELECT count(*)::INTEGER AS n FROM t');
    await store.close();
    print(`rows ${row!.n}`);
  } catch (error) {
    print(`failed ${error instanceof Error ? error.message : String(error)}`);
  }
} else if (mode === 'load') {
  const store = await openStore(args[0]);
  try {
    const records = Array.from({ length: 1000 }, (_, i) => ({ id: i, secret: `row ${i}` }));
    const result = await store.load('t', records);
    print(`loaded ${result.rows}`);
  } catch (error) {
    print(`failed ${error instanceof Error ? error.message : String(error)}`);
  }
  await store.close();
} else {
  throw new Error('usage: store-fault-child hold|turns|chdir|read|load …');
}
