import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The unit tests of what `npm run mutate` mutates and of its callers. End-to-end tests run the
// built bundle, which Stryker does not rebuild, so they could not kill a mutant.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      'test/compaction/**/*.test.ts',
      'test/conversation/**/*.test.ts',
      'test/text/**/*.test.ts',
      'test/chat/**/*.test.ts',
      'test/ui/**/*.test.{ts,tsx}',
    ],
    retry: 0,
  },
});
