// Issue 17 benchmark: the walk of all followers of the 2,000-follower user through the sandbox at
// the platform's limit (10 requests a second per address, a burst of 10) and 40 ms of simulated
// latency. The limit bounds any client at 10 pages of 40 rows a second: 400 rows a second.
// (a) the default request budget: rows a second against that bound (target >= 0.9), and the 429s
//     the sandbox answered (target 0);
// (b) the same walk with the budget off, for comparison: the 429s it draws.
import { Session } from '../../dist/index.js';
import { startSandbox } from '../../dist/sandbox/index.js';
import { fmt, report, time } from './lib.mjs';

const LIMIT = { perSecond: 10, burst: 10 };
const BOUND = LIMIT.perSecond * 40;

/** One walk on a fresh sandbox (its buckets full), with the session's `rateLimit`. */
async function walk(rateLimit) {
  const sandbox = await startSandbox({ latency: 40, rateLimit: LIMIT });
  try {
    const session = new Session({ hosts: sandbox.hosts, rateLimit });
    const run = await time(() =>
      session.users
        .followers(sandbox.samples.popularUser)
        .all()
        .then(
          (rows) => ({ rows: rows.length }),
          (error) => ({ rows: 0, error }),
        ),
    );
    return {
      ...run.result,
      ms: run.ms,
      requests: sandbox.traffic.requests,
      refused: sandbox.traffic.limited,
    };
  } finally {
    await sandbox.close();
  }
}

export default async function budgetBench() {
  const budgeted = await walk(undefined);
  if (budgeted.error) throw budgeted.error;
  const rate = budgeted.rows / (budgeted.ms / 1000);
  const okRate = report(
    `(a) default budget, ${budgeted.rows} followers`,
    rate / BOUND,
    0.9,
    `${rate.toFixed(0)} rows/s vs the limit's ${BOUND} rows/s; ${fmt(budgeted.ms)}, ${budgeted.requests} requests, ${budgeted.refused} answered 429`,
  );
  const okRefused = budgeted.refused === 0;
  console.log(
    `  (a) 429s answered at the default budget: ${budgeted.refused} (target 0: ${okRefused ? 'met' : 'MISSED'})`,
  );

  const off = await walk(Number.POSITIVE_INFINITY);
  const offRate = off.rows / (off.ms / 1000);
  report(
    `(b) budget off, ${off.rows} followers`,
    offRate / BOUND,
    undefined,
    `${offRate.toFixed(0)} rows/s; ${fmt(off.ms)}, ${off.requests} requests, ${off.refused} answered 429${
      off.error ? `; failed: ${off.error.message}` : ''
    }`,
  );
  return okRate && okRefused;
}
