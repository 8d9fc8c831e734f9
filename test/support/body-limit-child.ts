/**
 * Child process of the body-limit tests: reads one URL through a real `Session` and prints what
 * happened as one JSON line, with its peak RSS. A crash inside the HTTP stack (an uncatchable
 * assertion) shows up to the parent as a non-zero exit without that line.
 */
import { ApiError, Session } from '../../src/index.js';

const [base, path] = process.argv.slice(2);
if (base === undefined || path === undefined) throw new Error('usage: body-limit-child <base> <path>');

const startRss = process.memoryUsage().rss;
const session = new Session({ hosts: { api: base }, retries: 0 });
let outcome: Record<string, unknown>;
try {
  const value = await session.apiGet<unknown>(path);
  outcome = { ok: true, size: JSON.stringify(value).length };
} catch (error) {
  outcome =
    error instanceof ApiError
      ? { ok: false, name: error.name, status: error.status, limit: error.limit, message: error.message }
      : { ok: false, name: (error as Error).name, message: String(error) };
}
// maxRSS is in kilobytes: the peak over the child's whole life.
const peakRss = process.resourceUsage().maxRSS * 1024;
process.stdout.write(`${JSON.stringify({ ...outcome, startRss, peakRss })}\n`);
