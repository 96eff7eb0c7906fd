import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { traceEntries } from './test/support/trace/trace-entries.js';

/** `npx vitest run -c vitest.trace.config.ts`: the measured walk of a message (docs/ARCHITECTURE.md). */
export default defineConfig({
  plugins: [traceEntries(`${resolve(import.meta.dirname, 'src')}/`)],
  test: { include: ['test/support/trace/*.trace.ts'], env: { FORCE_COLOR: '0' } },
});
