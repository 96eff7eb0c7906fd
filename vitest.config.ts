import { configDefaults, defineConfig } from 'vitest/config';

/** The tests that read dist/: they need a build of the checkout's own sources. */
const BUILT = [
  'test/e2e/**/*.test.ts',
  'test/build/bundle-layout.test.ts',
  'test/build/stand-ins.test.ts',
  'test/build/npm-start.test.ts',
];

/** Builds the real llama.cpp server once per machine (or says why its tests skip) before any test runs. */
const LLAMA_SERVER = 'test/support/llama-server/global-setup.ts';

// `npm run test:properties` asks for a fresh seed: drawn here, once a run, and handed to every
// test file's worker through the environment, so the one seed printed replays the whole run.
if (process.env.OCHAT_FC_SEED === 'fresh') {
  process.env.OCHAT_FC_SEED = String(Math.floor(Math.random() * 2 ** 31));
  console.log(
    `fast-check seed ${process.env.OCHAT_FC_SEED} for every property of this run (OCHAT_FC_SEED=${process.env.OCHAT_FC_SEED} replays it)`,
  );
}

export default defineConfig({
  test: {
    // End-to-end tests drive the built CLI in a PTY; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    env: { FORCE_COLOR: '0' },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, ...BUILT],
          setupFiles: ['test/support/property-seed.ts'],
          globalSetup: [LLAMA_SERVER],
        },
      },
      {
        extends: true,
        test: { name: 'e2e', include: BUILT, globalSetup: ['test/support/fresh-build.ts', LLAMA_SERVER] },
      },
    ],
  },
});
