/**
 * Child process of the request-budget test: a budget paused for a minute (a 429), one request
 * waiting its turn and then aborted. It prints the timers still active after the abort, as one
 * JSON line, and should then exit at once: a timer left running would keep it alive a minute.
 */
import { RequestBudget } from '../../src/http/request-budget.js';

const budget = new RequestBudget({ perSecond: 10, burst: 1 });
budget.refused(60_000, performance.now());
const stop = new AbortController();
const waiting = budget.acquire(stop.signal);
stop.abort(new Error('no longer wanted'));
const outcome = await waiting.then(
  () => 'resolved',
  (error: Error) => error.message,
);
const timers = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
process.stdout.write(`${JSON.stringify({ outcome, queued: budget.queued, timers })}\n`);
