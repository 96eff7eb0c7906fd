import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The unit tests of what `npm run mutate` mutates: its pure core must be pinned by them. The app's
// flow tests (test/chat: long scripted chats) would make each mutant cost seconds; end-to-end
// tests run the built bundle, which Stryker does not rebuild, so they could not kill a mutant.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects: undefined,
    setupFiles: ['test/support/property-seed.ts'],
    include: ['test/compaction/**/*.test.ts', 'test/conversation/**/*.test.ts', 'test/text/**/*.test.ts'],
    // Instrumented for per-test coverage, a property test can take minutes on a machine shared by many jobs.
    testTimeout: 600_000,
    retry: 0,
    // None of these tests needs the real llama.cpp server.
    globalSetup: [],
  },
});
