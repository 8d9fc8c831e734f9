// Prints vitest's JSON results as one plain line that any CI can read: "tests: N passed, N failed, N skipped".
import { readFileSync } from 'node:fs';

const file = process.argv[2];
let results;
try {
  results = JSON.parse(readFileSync(file, 'utf8'));
} catch {
  console.log('tests: 0 passed, 1 failed');
  console.error(`no vitest results at ${file}`);
  process.exit(1);
}
const passed = results.numPassedTests ?? 0;
// A file that fails to load has no failed test, only an unsuccessful run: count it as one.
const failed = (results.numFailedTests ?? 0) || (results.success === false ? 1 : 0);
const skipped = (results.numPendingTests ?? 0) + (results.numTodoTests ?? 0);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (passed === 0) process.exit(1);
