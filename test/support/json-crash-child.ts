/**
 * The process that the JSON crash test kills: it opens the database file given as its argument,
 * prints `start N` (the writes already in the file), then writes on forever, printing the number
 * of each write once its promise has resolved. Bundled with esbuild and run by plain node.
 */
import { JsonDatabase } from '../../src/databases/json-database.js';
import { keyFor, valueFor, writesIn } from './json-crash-states.js';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: json-crash-child <file>');
const db = new JsonDatabase({ path });
const state: Record<string, string> = {};
for (const key of await db.keys()) state[key] = (await db.get(key)) ?? '';
const start = writesIn(state);
// Writes to a pipe are synchronous on Linux: a printed line is in the pipe before the next write.
process.stdout.write(`start ${start}\n`);
for (let i = start + 1; ; i++) {
  await db.set(keyFor(i), valueFor(i));
  process.stdout.write(`${i}\n`);
}
