import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
// @ts-expect-error: a plain .mjs build script without type declarations.
import { bundleOptions } from '../../scripts/bundle-options.mjs';

/** Bundles the reference programs exactly as the CLI is bundled; returns their paths. */
export async function buildReferences(): Promise<{ inkHello: string; ollamaClient: string }> {
  const outdir = mkdtempSync(join(tmpdir(), 'ochat-bench-ref-'));
  await build({
    ...bundleOptions({
      entryPoints: ['bench/reference/ink-hello.tsx', 'bench/reference/ollama-client.ts'],
      outdir,
    }),
    entryNames: '[name]',
  });
  return { inkHello: join(outdir, 'ink-hello.js'), ollamaClient: join(outdir, 'ollama-client.js') };
}
