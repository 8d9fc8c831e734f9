import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most suites wait on other processes (sandboxes, kernels, Jupyter, Chromium, DuckDB children):
    // two files at a time on the 2-core machine (vitest's default there is one).
    maxWorkers: 2,
    minWorkers: 1,
    // A worker whose vitest is gone exits (absolute: the config is also used with another --root).
    setupFiles: [fileURLToPath(new URL('./test/support/exit-with-parent.ts', import.meta.url))],
  },
});
