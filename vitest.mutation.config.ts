import { defineConfig } from 'vitest/config';

// The tests `npm run mutation` runs against each mutant: the ones that cover the mutated modules
// and need no kernel, REPL, browser or database server (those stay in `npm test`).
// MUTATION_TESTS (comma-separated globs) narrows them for a run over one module.
const only = process.env.MUTATION_TESTS?.split(',').filter(Boolean);

export default defineConfig({
  test: {
    include: only ?? [
      'test/client/**/*.test.ts',
      'test/records/**/*.test.ts',
      'test/encoding/**/*.test.ts',
      'test/requests/**/*.test.ts',
      'test/contract/**/*.test.ts',
      'test/data/load*.test.ts',
      'test/data/staged-moves.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // MUTATION_ISOLATE=0 reuses one module graph across test files (Stryker switches mutants at run
    // time, so no reload is needed): faster per mutant where files start a server. A file that
    // leans on fresh module state can then fail the dry run (Stryker stops and says which).
    isolate: process.env.MUTATION_ISOLATE !== '0',
    maxWorkers: 1,
    minWorkers: 1,
  },
});
