/**
 * A process that reads a shared store while others write it: every `every` ms, until killed with
 * SIGTERM, it lists the tables with their row counts and prints one line `tables {json}` (or
 * `error <message>`), then `done <queries>` on SIGTERM.
 */
import { openStore } from '../../src/data/index.js';

const [path, everyText] = process.argv.slice(2);
if (path === undefined) throw new Error('usage: store-query-child <file> [every ms]');
const every = Number(everyText ?? 1000);
const store = await openStore(path);
let queries = 0;
let stopping = false;
process.on('SIGTERM', () => {
  stopping = true;
});
while (!stopping) {
  try {
    const tables = await store.tables();
    queries++;
    process.stdout.write(
      `tables ${JSON.stringify(Object.fromEntries(tables.map((t) => [t.name, t.rows])))}\n`,
    );
  } catch (error) {
    process.stdout.write(`error ${error instanceof Error ? error.message : String(error)}\n`);
  }
  await new Promise((resolve) => setTimeout(resolve, every));
}
await store.close();
process.stdout.write(`done ${queries}\n`);
