// `npm run mutation`: StrykerJS over the modules issue 35 names (the client core, the records, the
// encoding, cloud requests, the data store's load). Not part of `npm test`: a full run takes long.
// One module at a time: `npm run mutation -- --mutate src/encoding.ts`.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  mutate: [
    'src/http/**/*.ts',
    'src/records/**/*.ts',
    'src/encoding.ts',
    'src/cloud/requests/**/*.ts',
    'src/data/load*.ts',
    'src/data/staged-load.ts',
  ],
  // Mutants run in a copy (the sandbox directory), so the real worktree is never changed.
  inPlace: false,
  tempDirName: '.stryker-tmp',
  // Only source files: the HTML fixtures are not code (Stryker would try to parse them).
  disableTypeChecks: '{src,test}/**/*.{js,ts,mjs,mts}',
  coverageAnalysis: 'perTest',
  concurrency: 1,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  thresholds: { high: 90, low: 80, break: null },
  cleanTempDir: true,
};
