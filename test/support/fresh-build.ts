/**
 * Vitest global setup of the tests that run the built CLI: they refuse to run over a dist/ built
 * from other sources than the checkout's, which would test yesterday's code and pass or fail for
 * no reason. `npm test` and `npm run test:e2e` build first; a bare `npx vitest` does not.
 */
import { resolve } from 'node:path';
// @ts-expect-error: a build script in plain JavaScript, without types
import { buildId, builtId } from '../../scripts/build-id.mjs';

export default function requireFreshBuild(): void {
  const root = resolve(import.meta.dirname, '../..');
  const [built, sources] = [builtId(root) as string | undefined, buildId(root) as string];
  if (built === sources) return;
  throw new Error(
    built === undefined
      ? 'dist/ has not been built: run `npm run build` (or `npm run test:e2e`, which builds when needed)'
      : `dist/ is older than the sources (built from ${built}, sources are ${sources}): run \`npm run build\` (or \`npm run test:e2e\`, which builds when needed)`,
  );
}
