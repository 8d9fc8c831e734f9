// Jupyter's own kernel conformance suite (jupyter_kernel_test) against both kernelspecs, with
// TypeScript samples for every test it has but the pager (test/kernel/conformance.py). It checks
// each message against the messaging spec; every test must pass, none may be skipped.
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { installed, toolPath } from '../support/tools.js';
import { hasJupyter, installKernels, type JupyterHome, jupyterHome } from './jupyter.js';

/** The suite's tests with a TypeScript sample: all of them but `test_pager`. */
const TESTS = [
  'test_kernel_info',
  'test_execute_stdout',
  'test_execute_stderr',
  'test_error',
  'test_execute_result',
  'test_display_data',
  'test_completion',
  'test_is_complete',
  'test_inspect',
  'test_history',
  'test_clear_output',
];

interface Report {
  tests: Record<string, 'passed' | 'failed' | 'skipped' | 'error'>;
  details: string[];
}

/** Runs test/kernel/conformance.py against `kernel`, in `cwd`, at most `timeoutMs`. */
function conformance(home: JupyterHome, kernel: string, cwd: string, timeoutMs: number): Promise<Report> {
  return new Promise((resolve, reject) => {
    execFile(
      toolPath('python3'),
      [join(import.meta.dirname, 'conformance.py'), kernel],
      { env: home.env, cwd, timeout: timeoutMs, maxBuffer: 16 << 20 },
      (error, stdout, stderr) => {
        try {
          resolve(JSON.parse(stdout) as Report);
        } catch {
          reject(new Error(`conformance.py against ${kernel} gave no report (${String(error)}):\n${stderr}`));
        }
      },
    );
  });
}

describe.skipIf(!(hasJupyter && installed('jupyter_kernel_test')))(
  "Jupyter's kernel conformance suite",
  () => {
    let home: JupyterHome;

    beforeAll(async () => {
      home = jupyterHome('conformance');
      await installKernels(home);
    });

    it.each(['scratchlab', 'scratchlab-sandbox'])(
      'passes every test against %s',
      { timeout: 240_000 },
      async (kernel) => {
        const cwd = join(home.dir, kernel);
        mkdirSync(cwd, { recursive: true });
        const report = await conformance(home, kernel, cwd, 220_000);
        const outcomes = Object.fromEntries(TESTS.map((name) => [name, report.tests[name]]));
        expect(outcomes, report.details.join('\n')).toEqual(
          Object.fromEntries(TESTS.map((name) => [name, 'passed'])),
        );
        expect(Object.keys(report.tests).sort()).toEqual([...TESTS, 'test_pager'].sort());
      },
    );
  },
);
