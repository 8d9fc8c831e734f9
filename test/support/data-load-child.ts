/**
 * The process that the resume test kills: it loads a paged walk of `total` records (40 a page,
 * each page a little slow, like the service) into table `walk` of the DuckDB file given as its
 * argument, with `resume: true` (or what the fourth argument says: `false`, or a walk's name) and
 * no key (so a duplicate would show), and prints `stored N` after each page is committed, `walked
 * N` when the walk is staged (its move-in comes next), then `done R FROM` (records stored by this
 * run, resumed from); a failed load prints `failed NAME:
 * MESSAGE` and exits with 1.
 */
import { openStore } from '../../src/data/index.js';
import { PagedList } from '../../src/http/paging.js';

const [path, totalText, delayText, resumeText = 'true'] = process.argv.slice(2);
if (path === undefined || totalText === undefined)
  throw new Error('usage: data-load-child <file> <total> [delay ms] [resume: true, false or a name]');
const resume = resumeText === 'true' ? true : resumeText === 'false' ? false : resumeText;
const total = Number(totalText);
const delay = Number(delayText ?? 20);
const list = new PagedList(
  async (limit, offset) => {
    await new Promise((resolve) => setTimeout(resolve, delay));
    const rows = [];
    for (let i = offset; i < Math.min(total, offset + limit); i++)
      rows.push({ n: i + 1, label: `row ${i + 1}` });
    return rows;
  },
  { limit: undefined },
);
const store = await openStore(path);
const result = await store
  .load('walk', list, {
    key: false,
    resume,
    onProgress: (p) => {
      process.stdout.write(p.done ? `walked ${p.rows}\n` : `stored ${p.rows}\n`);
    },
  })
  .catch(async (error: Error) => {
    process.stdout.write(`failed ${error.name}: ${error.message}\n`);
    await store.close();
    process.exit(1);
  });
await store.close();
process.stdout.write(`done ${result.rows} ${result.resumedFrom}\n`);
