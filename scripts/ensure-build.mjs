// `npm run test:e2e`: builds only when dist/ is missing or was built from other sources than the checkout's.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isBuildCurrent } from './build-id.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!isBuildCurrent(root)) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const { status } = spawnSync(npm, ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  process.exit(status ?? 1);
}
