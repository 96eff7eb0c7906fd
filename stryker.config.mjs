// Mutation testing (`npm run mutate`, not in CI: it takes many minutes). It mutates the pure core
// — compaction, the conversation model and the terminal sanitizer — and runs the unit tests that
// cover each mutant; a mutant no test kills is behaviour no test pins.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: ['src/compaction/**/*.ts', 'src/conversation/**/*.ts', 'src/text/sanitize.ts'],
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  coverageAnalysis: 'perTest',
  checkers: [],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  concurrency: 2,
  timeoutMS: 10_000,
  thresholds: { high: 90, low: 80, break: null },
  // Later runs retest only mutants whose code or covering tests changed.
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
