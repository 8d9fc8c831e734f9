/**
 * The system tools the suite drives (Jupyter, the classic Notebook, Chromium), each
 * installed by a test/support/install-*.sh script. Without `CI=true` a missing tool skips its
 * tests (a developer's machine may lack it); under `CI=true` it is a failure, never a silent skip.
 */
import { existsSync } from 'node:fs';

/** Whether `path` exists; under `CI=true`, a missing tool throws (failing the test file that asks). */
export function installed(path: string, installer: string): boolean {
  if (existsSync(path)) return true;
  if (process.env.CI === 'true') {
    throw new Error(
      `${path} is missing, and CI=true makes a missing tool a failure: run bash test/support/${installer}`,
    );
  }
  process.stderr.write(`skipping the tests that need ${path} (run bash test/support/${installer})\n`);
  return false;
}
