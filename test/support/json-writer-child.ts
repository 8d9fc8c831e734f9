/**
 * A process that shares a JsonDatabase file with others: `json-writer-child <file> <prefix>
 * <count>` writes `<prefix><i>` = `i` one after another, then prints `done`. With `hold` as
 * the prefix it instead takes the file's lock, prints `locked` and keeps it until killed.
 * Bundled with esbuild and run by plain node.
 */

import { withFileLock } from '../../src/databases/file-lock.js';
import { JsonDatabase } from '../../src/databases/json-database.js';

const [path, prefix, count] = process.argv.slice(2);
if (path === undefined || prefix === undefined)
  throw new Error('usage: json-writer-child <file> <prefix> <count>');
if (prefix === 'hold') {
  await withFileLock(path, { timeout: 10_000, who: 'holder' }, async () => {
    process.stdout.write('locked\n');
    await new Promise(() => setInterval(() => undefined, 60_000));
  });
} else {
  const db = new JsonDatabase({ path, lockTimeout: 60_000 });
  for (let i = 0; i < Number(count); i++) await db.set(`${prefix}${i}`, String(i));
  process.stdout.write('done\n');
}
