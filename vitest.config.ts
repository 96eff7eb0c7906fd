import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    // End-to-end tests drive the built CLI in a PTY; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    env: { FORCE_COLOR: '0' },
    // Builds the real llama.cpp server once per machine (or says why its tests skip) before any test runs.
    globalSetup: ['test/support/llama-server/global-setup.ts'],
  },
});
